"""The line front end on its own: typed lines become the intents the controller takes, and a
line that cannot be acted on sends nothing and says why."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lanomino.engine import TILES, Play, Rules
from lanomino.lines.front import LineFront
from lanomino.localgame import LocalMatch, make_config
from lanomino.ui.lan import CloseLobby, HostTable, JoinTable, OpenLobby, TableInfo
from lanomino.ui.state import (
    OpenHistory,
    QuitApp,
    ResignMatch,
    SaveSettings,
    Screen,
    StartLocal,
    Submit,
    UiState,
    on_new_observation,
)

LEVELS = ["easy", "normal", "hard"]


def front(ui: UiState | None = None) -> tuple[LineFront, list[object], list[str]]:
    sent: list[object] = []
    said: list[str] = []
    ui = ui or UiState(levels=LEVELS)
    f = LineFront(ui, sent.append, said.append)
    f.refresh()  # the greeting (or the table as it stands)
    said.clear()
    return f, sent, said


def at_table(seed: int = 2) -> tuple[LineFront, list[object], list[str], LocalMatch]:
    """A front end watching seat 0 of a freshly dealt local match, at seat 0's turn."""
    for s in range(seed, seed + 50):
        match = LocalMatch(make_config(Rules.classic(), 2, ("normal",), "You", s))
        match.deal()
        if match.state.turn == 0:
            break
    ui = UiState(levels=LEVELS, names=match.config.names)
    on_new_observation(ui, match.observe(0))
    f, sent, said = front(ui)
    return f, sent, said, match


def test_menu_commands_become_intents() -> None:
    f, sent, said = front()
    f.on_line("new 3 allfives hard")
    assert sent == [StartLocal(Rules.preset("allfives"), 3, ("hard",))]
    f.on_line("host 3 1 block easy")
    assert sent[-1] == HostTable("Lanomino", "block", 3, 1, "easy", None, blind=True)
    f.on_line("host 3 1 fair")  # (the locked deal unless the person says fair)
    assert sent[-1] == HostTable("Lanomino", "classic", 3, 1, "normal", None, blind=False)
    f.on_line("join 127.0.0.1:5000/abcd secret words")
    assert sent[-1] == JoinTable("127.0.0.1:5000/abcd", "secret words")
    f.on_line("history")
    assert sent[-1] == OpenHistory()
    assert said[-1] == "No matches logged yet: finish a game and it shows up here."
    f.on_line("quit")
    assert sent[-1] == QuitApp()


def test_new_and_host_start_from_the_settings_as_the_full_screens_forms_do() -> None:
    from lanomino.ui.settings import Settings

    f, sent, _ = front(UiState(levels=LEVELS, settings=Settings(name="Ann", level="hard")))
    f.on_line("host 3 1")  # the table's name and the level come from the settings
    assert sent[-1] == HostTable("Ann's table", "classic", 3, 1, "hard", None, blind=True)
    f.on_line("host 2 easy")  # (a level said wins)
    assert sent[-1] == HostTable("Ann's table", "classic", 2, 0, "easy", None, blind=True)
    f.on_line("new 3")
    assert sent[-1] == StartLocal(Rules.classic(), 3, ("hard",))


@pytest.mark.parametrize("typed", ["new 5", "new partnership 3", "new chess", "host 2 2",
                                   "host 3 fair locked",
                                   "join nowhere", "continue", "replay x", "set volume 3",
                                   "set pause soon", "set pause 99", "set level godlike",
                                   "set preset chess", "rules poker", "next", "hand", "finish",
                                   "yes", "hint", "undo"])
def test_a_menu_line_that_cannot_be_done_sends_nothing(typed: str) -> None:
    f, sent, said = front()
    f.on_line(typed)
    assert sent == [] and said and said[0][0].isupper() and said[0].endswith((".", "?"))


def test_set_changes_the_setting_and_saves_it() -> None:
    f, sent, said = front()
    f.on_line("set words on")
    assert f.ui.settings.words and f.words and sent == [SaveSettings(f.ui.settings)]
    assert said == ["words is now on."]
    f.on_line("set name Ana Maria")
    assert f.ui.settings.name == "Ana Maria"


def test_a_legal_play_is_sent_and_bad_ones_are_not() -> None:
    f, sent, said, match = at_table()
    obs = match.observe(0)
    fits = [a for a in obs.legal if isinstance(a, Play)]
    held = set(obs.hand)
    foreign = next(t for t in TILES if t not in held)
    for typed in ["plya", "play 9-9", f"play {len(obs.hand) + 1}", f"play {foreign}",
                  "pass", "draw" if fits else "pass", "next", "back", "stop"]:
        said.clear()
        f.on_line(typed)
        assert sent == [], typed
        assert said and said[0][0].isupper(), (typed, said)
    number = obs.hand.index(fits[0].tile) + 1
    f.on_line(str(number))
    assert sent == [Submit(fits[0])]


def test_resign_asks_once_more() -> None:
    f, sent, said, _ = at_table()
    f.on_line("resign")
    assert sent == [] and "again" in said[-1]
    f.on_line("hand")
    f.on_line("resign")
    assert sent == []  # something else came between
    f.on_line("resign")
    assert sent == [ResignMatch()]


def test_the_line_mode_never_loads_prompt_toolkit() -> None:
    code = ("import sys, lanomino.lines.front, lanomino.lines.console, lanomino.lines.run, "
            "lanomino.client.launch, lanomino.client.controller; "
            "print('prompt_toolkit' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         check=True)
    assert out.stdout.strip() == "False"


def test_the_lobby_lists_tables_by_number_and_joins_one() -> None:
    f, sent, said = front()
    f.on_line("join 1")
    assert sent == [] and "type tables" in said[-1]
    f.on_line("tables")
    assert sent == [OpenLobby()] and said[-1].startswith("Looking for tables")
    f.ui.screen = Screen.LOBBY  # as the controller does on OpenLobby
    f.ui.lobby.set_tables([
        TableInfo("k", "Kitchen", "classic", 1, 2, False, "10.0.0.2:4000/key1"),
        TableInfo("p", "Porch", "allfives", 1, 3, True, "10.0.0.3:4000/key2"),
        TableInfo("s", "Shed", "block", 2, 2, False, "10.0.0.4:4000/key3"),
    ])
    said.clear()
    f.refresh()
    assert said == ["Table 1: Kitchen, classic, 1 of 2 seats taken.",
                    "Table 2: Porch, allfives, 1 of 3 seats taken, needs a passphrase.",
                    "Table 3: Shed, block, 2 of 2 seats taken."]
    f.refresh()
    assert len(said) == 3  # nothing said twice
    for typed, words in (("join 3", "is full"), ("join 2", "needs a passphrase"),
                         ("join 4", "pick 1 to 3")):
        f.on_line(typed)
        assert sent == [OpenLobby()] and words in said[-1], typed
    f.on_line("join 2 three blind mice")
    assert sent[-1] == JoinTable("10.0.0.3:4000/key2", "three blind mice", "Porch")
    f.ui.lobby.message = "wrong passphrase: try again"
    f.refresh()
    assert said[-1] == "Wrong passphrase: try again."
    f.on_line("menu")
    assert sent[-1] == CloseLobby()


def test_after_a_lan_match_the_offer_is_said_and_again_accepts_it() -> None:
    from lanomino.engine import MatchEnd, MatchEnded
    from lanomino.ui.lan import LanView
    from lanomino.ui.state import Rematch

    f, sent, said, match = at_table()
    ui = f.ui
    ui.lan = LanView("peer", "Den", seats=2)
    f.on_line("again")
    assert sent == [] and "A rematch comes after a LAN match is over." in said
    ui.match_result = MatchEnded(1, (101, 0), (1, 0), MatchEnd.TARGET)
    f.refresh()
    assert any("Type again to play on here when the host offers a rematch" in s for s in said)
    ui.lan.rematch = "Ana"
    f.refresh()
    assert "Ana offers a rematch, everyone in the same seat: type again to play on." in said
    f.on_line("again")
    assert sent == [Rematch()]


def test_rules_at_a_lan_table_say_how_it_deals() -> None:
    from lanomino.ui.lan import LanView

    f, _, said = front(UiState(levels=LEVELS, lan=LanView("peer", "Den", seats=2, locked=True)))
    f.on_line("rules")
    assert said[-1] == ("The deal is locked: nobody, the host included, sees your tiles until "
                        "they are played; every hand is checked when it ends.")
    f.on_line("rules allfives")  # (a preset's rules, not this table's)
    assert not said[-1].startswith("The deal is")
