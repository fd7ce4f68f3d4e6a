"""The lobby, the host form and the waiting room: render tests, key tests on the real app
(create_pipe_input + DummyOutput), and the lobby driver fed by a stand-in browser."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from test_keys import run_keys

from lanomino.ui.lan import (
    HOST_ROWS,
    CloseLobby,
    HostForm,
    HostTable,
    JoinTable,
    LanView,
    OpenLobby,
    SeatInfo,
    TableInfo,
    ask_passphrase,
)
from lanomino.ui.screens import render_screen
from lanomino.ui.settings import Settings
from lanomino.ui.state import LeaveTable, Screen, UiState

UP, DOWN, LEFT, RIGHT = "\x1b[A", "\x1b[B", "\x1b[D", "\x1b[C"
ESC, CTRL_C = "\x1b", "\x03"
ADDRESS = "127.0.0.1:4567/" + "a" * 52

KITCHEN = TableInfo("Kitchen [3f9a0c12]", "Kitchen", "allfives", 1, 4, False, ADDRESS)
LOCKED = TableInfo("Attic [77deb401]", "Attic", "classic", 1, 2, True,
                   ADDRESS.replace("4567", "4568"))
FULL = TableInfo("Barn [0123abcd]", "Barn", "block", 2, 2, False, ADDRESS.replace("4567", "4569"))


def screen(ui: UiState, width: int = 80, height: int = 24) -> str:
    return "".join(text for _, text in render_screen(ui, width, height))




def lobby_ui(*tables: TableInfo) -> UiState:
    ui = UiState(screen=Screen.LOBBY)
    ui.lobby.set_tables(list(tables))
    ui.lobby.searching = True
    return ui


# ----- rendering ---------------------------------------------------------------------------------


def test_lobby_lists_tables_with_rules_seats_and_a_lock() -> None:
    text = screen(lobby_ui(KITCHEN, LOCKED, FULL))
    rows = text.splitlines()
    attic = next(r for r in rows if "Attic" in r)
    kitchen = next(r for r in rows if "Kitchen" in r)
    barn = next(r for r in rows if "Barn" in r)
    assert "classic" in attic and "1/2" in attic and "🔒" in attic
    assert "allfives" in kitchen and "1/4" in kitchen and "🔒" not in kitchen
    assert "2/2" in barn and "full" in barn
    assert rows.index(attic) < rows.index(barn) < rows.index(kitchen)  # by name
    assert "searching… 3 tables found" in text and "Join by address (HOST:PORT/CODE)" in text
    assert all(len(r) <= 80 for r in rows)


def test_empty_lobby_says_it_is_searching_and_a_missing_interface_says_why() -> None:
    ui = lobby_ui()
    assert "searching… no tables yet" in screen(ui)
    ui.lobby.searching = False
    ui.lobby.error = "No LAN interface found: press a to join by address."
    text = screen(ui)
    assert "No LAN interface found" in text and "searching" not in text


def test_typed_passphrase_is_hidden() -> None:
    ui = lobby_ui(LOCKED)
    ui.lobby.entry, ui.lobby.text = "passphrase", "sesame"
    text = screen(ui)
    assert "Passphrase: ••••••_" in text and "sesame" not in text


def test_host_form_shows_every_choice_and_hides_the_passphrase() -> None:
    form = HostForm(name="Kitchen", preset="allfives", seats=4, bots=1, level="hard",
                    passphrase="pw", row=0)
    ui = UiState(screen=Screen.HOST, host_form=form)
    text = screen(ui)
    for expected in ("Table name", "Kitchen_", "‹ allfives ›", "‹ 4 ›", "‹ 1 ›", "‹ Hard ›", "••",
                     "Open the table",
                     "All Fives to 150, for you, 2 players from the LAN and 1 computer player"):
        assert expected in text, expected
    assert "pw" not in text.replace("Passphrase", "")


@pytest.mark.parametrize(("seats", "bots", "words"), [
    (2, 1, "Draw game to 100, for you and 1 computer player"),
    (2, 0, "Draw game to 100, for you and 1 player from the LAN"),
    (4, 2, "Draw game to 100, for you, 1 player from the LAN and 2 computer players"),
])
def test_host_form_says_plainly_whom_the_table_is_for(seats: int, bots: int, words: str) -> None:
    form = HostForm(name="Kitchen", preset="classic", seats=seats, bots=bots)
    text = screen(UiState(screen=Screen.HOST, host_form=form))
    assert words in text and "no one else" not in text


def test_waiting_room_shows_the_address_and_who_sits_where() -> None:
    lan = LanView("host", "Kitchen", seats=4, address=ADDRESS, fingerprint="4f47-3a25-1fa9-eb32",
                  roster=[SeatInfo(0, "Me", "host"), SeatInfo(3, "hard bot 1", "bot")])
    lan.status = lan.waiting_line()
    text = screen(UiState(screen=Screen.WAITING, lan=lan))
    assert "waiting for players (2/4)" in text and ADDRESS in text and "4f47-3a25-1fa9-eb32" in text
    assert "1. Me (host)" in text and "2. (free)" in text and "4. hard bot 1 (computer)" in text


def test_waiting_room_says_why_a_table_went_away() -> None:
    lan = LanView("peer", "Kitchen", closed="The table closed: the host closed the table")
    shown = screen(UiState(screen=Screen.WAITING, lan=lan))
    assert "The table closed: the host closed the table" in shown


# ----- keys --------------------------------------------------------------------------------------


def test_menu_letters_open_the_host_form_and_the_lobby() -> None:
    ui = UiState(settings=Settings(name="Ana"), levels=["random", "normal"])
    assert run_keys(ui, ["j"]) == [OpenLobby()]
    ui = UiState(settings=Settings(name="Ana"), levels=["random", "normal"])
    assert run_keys(ui, ["t"]) == []
    assert ui.screen is Screen.HOST
    assert ui.host_form.name == "Ana's table" and ui.host_form.level == "normal"


def test_enter_enter_opens_a_table_from_the_host_form() -> None:
    ui = UiState(settings=Settings(name="Ana"), levels=["random", "normal"])
    intents = run_keys(ui, ["t", "\r"])
    assert intents == [HostTable("Ana's table", "classic", 2, 0, "normal", None)]


def test_host_form_takes_a_name_seats_bots_and_a_passphrase() -> None:
    ui = UiState(screen=Screen.HOST, levels=["random", "normal"],
                 host_form=HostForm(name="", row=0))
    keys = [*"Den?q", DOWN, DOWN, RIGHT, RIGHT, DOWN, RIGHT, DOWN, DOWN, *"s3", DOWN, "\r"]
    intents = run_keys(ui, keys)
    assert intents == [HostTable("Den?q", "classic", 4, 1, "normal", "s3")]
    assert ui.screen is Screen.HOST  # the driver moves on once the table opens


def test_the_host_form_deals_without_escrow_unless_it_is_turned_on() -> None:
    ui = UiState(screen=Screen.HOST, levels=["normal"], host_form=HostForm(name="Den"))
    assert "no group of players can see another's tiles" in screen(ui)
    intents = run_keys(ui, [UP, RIGHT, DOWN, "\r"])
    assert intents == [HostTable("Den", "classic", 2, 0, "normal", None, escrow=True)]
    ui = UiState(screen=Screen.HOST, levels=["normal"], host_form=HostForm(name="Den"))
    assert run_keys(ui, ["\r"]) == [HostTable("Den", "classic", 2, 0, "normal", None, escrow=False)]


def test_host_form_refuses_an_empty_name() -> None:
    ui = UiState(screen=Screen.HOST, host_form=HostForm(name="", row=HOST_ROWS.index("open")))
    assert run_keys(ui, ["\r"]) == []
    assert "give the table a name" in screen(ui)


def test_enter_joins_an_open_table_and_a_locked_one_asks_for_the_passphrase() -> None:
    ui = lobby_ui(LOCKED, KITCHEN)
    intents = run_keys(ui, [DOWN, "\r"])
    assert intents == [JoinTable(KITCHEN.address, None, "Kitchen")]
    ui = lobby_ui(LOCKED, KITCHEN)
    intents = run_keys(ui, ["\r", *"op?n q", "\r"])
    assert intents == [JoinTable(LOCKED.address, "op?n q", "Attic")]


def test_a_full_table_is_not_joined() -> None:
    ui = lobby_ui(FULL)
    assert run_keys(ui, ["\r"]) == []
    assert "Barn is full" in screen(ui)


def test_join_by_address_checks_the_form_first() -> None:
    ui = lobby_ui(KITCHEN)
    intents = run_keys(ui, ["a", *"10.0.0.1", "\r"])  # no port
    assert intents == [] and "HOST:PORT or HOST:PORT/CODE" in ui.lobby.message
    intents = run_keys(ui, [*":99", "\r"])
    assert intents == [JoinTable("10.0.0.1:99")]
    intents = run_keys(ui, ["a", *"10.0.0.1:99/3f9a0c12", "\r"])
    assert intents == [JoinTable("10.0.0.1:99/3f9a0c12")]


def test_esc_cancels_typing_then_leaves_the_lobby() -> None:
    ui = lobby_ui(KITCHEN)
    assert run_keys(ui, ["a", *"12", ESC, ESC]) == [CloseLobby()]
    assert ui.lobby.entry == "" and ui.lobby.text == ""


def test_q_leaves_the_waiting_room() -> None:
    ui = UiState(screen=Screen.WAITING, lan=LanView("host", "Kitchen", seats=2))
    assert run_keys(ui, ["q"]) == [LeaveTable()]


# ----- the lobby driver --------------------------------------------------------------------------


class FakeBrowser:
    """Stands in for TableBrowser: the test changes ``tables`` and pokes ``changed``."""

    def __init__(self, interfaces: list[str]) -> None:
        self.interfaces = interfaces
        self.tables: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.closed = False

    async def start(self) -> None:
        pass

    async def next_event(self, timeout_s: float | None = None) -> None:
        try:
            await asyncio.wait_for(self.changed.wait(), timeout_s)
        except TimeoutError:
            pass
        self.changed.clear()

    async def close(self) -> None:
        self.closed = True


def seen(name: str, port: int, taken: int = 1, locked: bool = False) -> Any:
    from lanomino.discovery.announce import TableAnnouncement
    from lanomino.discovery.zeroconf_adapter import SeenTable
    from lanomino.net.keys import raw_to_z85

    a = TableAnnouncement(name=name, rules="allfives", seats_taken=taken, seats_total=3,
                          host_peer_id=f"{port:016x}", term=0, has_passphrase=locked,
                          host_key=raw_to_z85(bytes(32)))
    return SeenTable(a.service_name, a, ("127.0.0.1",), port)


def test_lobby_shows_tables_as_they_appear_change_and_vanish(tmp_path: Path) -> None:
    from lanomino.client.lobby import Lobby, NetOptions

    browsers: list[FakeBrowser] = []

    def factory(interfaces: list[str]) -> FakeBrowser:
        browsers.append(FakeBrowser(interfaces))
        return browsers[-1]

    ui = UiState(screen=Screen.LOBBY)
    redraws: list[int] = []
    options = NetOptions(tmp_path, interfaces=["127.0.0.1"], browser_factory=factory)
    lobby = Lobby(ui, lambda: redraws.append(1), options)

    async def main() -> None:
        lobby.start()
        await asyncio.sleep(0.05)
        (browser,) = browsers
        assert browser.interfaces == ["127.0.0.1"] and ui.lobby.searching
        kitchen = seen("Kitchen", 4000)
        browser.tables = {kitchen.service_name: kitchen}
        browser.changed.set()
        await asyncio.sleep(0.05)
        assert [t.name for t in ui.lobby.tables] == ["Kitchen"]
        assert ui.lobby.tables[0].address.startswith("127.0.0.1:4000/")
        attic = seen("Attic", 4001, locked=True)
        browser.tables = {kitchen.service_name: seen("Kitchen", 4000, taken=2),
                          attic.service_name: attic}
        browser.changed.set()
        await asyncio.sleep(0.05)
        assert [(t.name, t.seats_taken, t.locked) for t in ui.lobby.tables] == [
            ("Attic", 1, True), ("Kitchen", 2, False)]
        browser.tables = {attic.service_name: attic}
        browser.changed.set()
        await asyncio.sleep(0.05)
        assert [t.name for t in ui.lobby.tables] == ["Attic"]
        ticks = ui.lobby.tick
        await asyncio.sleep(0.4)
        assert ui.lobby.tick > ticks, "the searching indicator keeps turning"
        await lobby.stop()
        assert browser.closed and not ui.lobby.searching

    asyncio.run(main())
    assert redraws


def test_a_table_joined_by_address_asks_its_passphrase_on_its_own_screen() -> None:
    """Issue 30 item 14: no lobby list, no search; Esc goes back to the menu."""
    ui = UiState(screen=Screen.LOBBY)
    ask_passphrase(ui.lobby, JoinTable(ADDRESS, None, "Den"), "this table needs a passphrase")
    text = screen(ui)
    assert text.startswith(" Join Den ") and "Passphrase: _" in text, text
    assert "searching" not in text and "Join by address" not in text, text
    assert run_keys(ui, [*"sesame", "\r"]) == [JoinTable(ADDRESS, "sesame", "Den")]
    ask_passphrase(ui.lobby, JoinTable(ADDRESS, None, "Den"), "wrong passphrase: try again")
    assert run_keys(ui, [ESC]) == [CloseLobby()]
