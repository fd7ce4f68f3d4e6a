"""Two entry points, one behaviour (issue 31): what ``join TABLE`` finds, ``tables`` prints and the
lobby lists after a host migration, what ``join ADDRESS`` and the lobby say of an address nobody
answers at, and what a watcher is told headless and in the line mode."""

from __future__ import annotations

import asyncio
import json
import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from lanomino.cli import main
from lanomino.client import ClientError, find
from lanomino.client.controller import Controller
from lanomino.client.find import HostBook, find_table
from lanomino.client.headless import watch_printer
from lanomino.client.lan import LanTable
from lanomino.client.lobby import Lobby, NetOptions
from lanomino.client.seam import Headless
from lanomino.discovery.announce import TableAnnouncement
from lanomino.discovery.zeroconf_adapter import SeenTable
from lanomino.lines.front import LineFront
from lanomino.net.keys import raw_to_z85
from lanomino.net.session import Joined, SeatTaken
from lanomino.node import SeatRow
from lanomino.store import open_store
from lanomino.ui.lan import JoinTable
from lanomino.ui.settings import Settings
from lanomino.ui.state import Screen, UiState


class ShelfBrowser:
    """A table browser that has heard ``tables`` already (what zeroconf would hand over)."""

    def __init__(self, tables: list[SeenTable]) -> None:
        self.tables = {t.service_name: t for t in tables}

    async def start(self) -> None:
        pass

    async def next_event(self, timeout_s: float | None = None) -> None:
        await asyncio.sleep(min(timeout_s or 0.05, 0.05))

    async def close(self) -> None:
        pass


def seen(name: str, port: int, term: int) -> SeenTable:
    a = TableAnnouncement(name=name, rules="classic", seats_taken=2, seats_total=4,
                          host_peer_id=f"{port:08x}" * 2, term=term, has_passphrase=False,
                          host_key=raw_to_z85(port.to_bytes(2, "big") * 16))
    return SeenTable(a.service_name, a, ("127.0.0.1",), port)


def lobby_rows(tables: list[SeenTable], tmp_path: Path) -> list[tuple[str, str]]:
    """(name, address) of each table the lobby lists when the LAN holds ``tables``."""
    ui = UiState(screen=Screen.LOBBY)
    options = NetOptions(tmp_path, interfaces=["127.0.0.1"],
                         browser_factory=lambda _interfaces: ShelfBrowser(tables))
    lobby = Lobby(ui, lambda: None, options)

    async def main() -> None:
        lobby.start()
        await asyncio.sleep(0.1)
        await lobby.stop()

    asyncio.run(main())
    return [(t.name, t.address) for t in ui.lobby.tables]


def join_by_name(name: str, tables: list[SeenTable], tmp_path: Path) -> str:
    """The address ``join NAME`` would connect to when the LAN holds ``tables``."""
    async def main() -> str:
        with HostBook.open(tmp_path) as hosts:
            found = await find_table(name, "127.0.0.1", 0.2, hosts,
                                     lambda _interfaces: ShelfBrowser(tables))
        return str(found.address)

    return asyncio.run(main())


def test_join_by_name_and_the_lobby_both_see_the_newest_host_after_a_migration(
        tmp_path: Path) -> None:
    lost, new = seen("Early", 4000, 0), seen("Early", 4001, 1)  # the lost host's record lingers
    kitchens = [seen("Kitchen", 4002, 0), seen("Kitchen", 4003, 0)]  # two tables, one name
    lan = [lost, new, *kitchens]
    listed = lobby_rows(lan, tmp_path)
    early = [address for name, address in listed if name == "Early"]
    assert len(early) == 1 and early[0].startswith("127.0.0.1:4001/")
    assert join_by_name("Early", lan, tmp_path) == early[0]
    # two hosts announcing one name at the same term: two tables as far as anyone can tell, so
    # both are listed and a name alone does not choose between them (the full name does)
    assert sorted(address[:15] for name, address in listed if name == "Kitchen") == [
        "127.0.0.1:4002/", "127.0.0.1:4003/"]
    with pytest.raises(ClientError, match="several tables are called 'Kitchen'"):
        join_by_name("Kitchen", lan, tmp_path)
    full = kitchens[1].announcement.instance_name
    assert join_by_name(full, lan, tmp_path).startswith("127.0.0.1:4003/")
    # a split nobody has settled (two hosts at the newest term): nothing says which is the table,
    # so every record stays listed and a name alone does not choose
    split = [lost, new, seen("Early", 4004, 1)]
    assert [name for name, _ in lobby_rows(split, tmp_path)] == ["Early"] * 3
    with pytest.raises(ClientError, match="several tables are called 'Early'"):
        join_by_name("Early", split, tmp_path)


def test_tables_prints_the_tables_the_lobby_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    lan = [seen("Early", 4000, 0), seen("Early", 4001, 1),  # a migrated table and its lost host
           seen("Kitchen", 4002, 0), seen("Kitchen", 4003, 0)]  # two tables, one name
    monkeypatch.setattr(find, "table_browser", lambda _interfaces: ShelfBrowser(lan))
    assert main(["tables", "--json", "--interface", "127.0.0.1", "--timeout", "0.1"]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    listed = lobby_rows(lan, tmp_path)
    assert len(listed) == 3 and not any(address.startswith("127.0.0.1:4000/")
                                        for _, address in listed)
    assert sorted((t["name"], t["address"]) for t in printed) == sorted(listed)


def lobby_says(address: str, folder: Path) -> str:
    """What the lobby tells a person who types ``address`` to join, once it has asked."""
    ui = UiState(settings=Settings(name="Zed", pause_s=0.0), screen=Screen.LOBBY)
    store, writer = open_store(folder), ThreadPoolExecutor(max_workers=1)
    net = NetOptions(folder, interfaces=["127.0.0.1"], announce=False)
    controller = Controller(ui, store, writer, None, net=net)

    async def main() -> None:
        controller.handle(JoinTable(address))
        while net.tasks:
            await asyncio.gather(*list(net.tasks))

    try:
        asyncio.run(main())
    finally:
        writer.shutdown(wait=True)
        store.close()
    return ui.lobby.message


def test_join_by_address_and_the_lobby_say_the_same_of_an_address_nobody_answers_at(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:  # a port nothing listens on (nor on the next, its key service)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for address in ("127.0.0.1", f"127.0.0.1:{port}", f"127.0.0.1:{port}/abcd1234"):
        said = lobby_says(address, tmp_path / "lobby")
        code = main(["join", address, "--interface", "127.0.0.1",
                     "--data-dir", str(tmp_path / "join")])
        err = capsys.readouterr().err
        assert code == 2 and said and err == f"lanomino join: {said}\n", (address, said, err)


@dataclass
class TableState:
    """A table's node as both front ends read it (the ``TableNode`` rows, watchers, clock)."""

    rows: list[SeatRow] = field(default_factory=list)
    watchers: int = 0
    clock: float | None = None
    session: Any = None

    def __post_init__(self) -> None:
        self.session = type("Session", (), {"joined": True})()

    def seats(self) -> list[SeatRow]:
        return list(self.rows)

    def watching(self) -> int:
        return self.watchers

    def move_clock(self) -> float | None:
        return self.clock

    def locked(self) -> bool | None:
        return None


def test_a_headless_watcher_and_the_line_mode_tell_the_same_table_news() -> None:
    node = TableState()
    headless: list[str] = []
    printer = watch_printer(node, as_json=False, words=False, say=headless.append)  # type: ignore[arg-type]
    ui = UiState()
    table = LanTable(ui, Headless(), lambda: node, "peer", "Kitchen",  # type: ignore[arg-type,return-value]
                     lambda code, why: None)
    table.node = node  # type: ignore[assignment]
    table.watch()
    lines: list[str] = []
    front = LineFront(ui, lambda intent: None, lines.append, plays=False)

    def happen(event: object) -> None:
        printer(event)
        table._on_event(event)  # type: ignore[arg-type]
        front.refresh()

    ann, bo = SeatRow(0, "Ann", "host"), SeatRow(1, "Bo", "human")
    node.rows, node.watchers, node.clock = [ann, bo], 1, 0.5
    happen(Joined(-1, 2))
    node.rows = [ann, SeatRow(1, "Bo", "human", away=True)]  # Bo ran out of time
    happen(SeatTaken(1, "Bo", "human", rejoined=True))
    node.rows, node.watchers = [ann, bo], 2  # Bo is back; someone else watches
    happen(SeatTaken(1, "Bo", "human", rejoined=True))
    news = ["You are the only one watching.", "Move clock: 0.5 s a move.",
            "Bo is out of time: the table's bot plays for them.",
            "2 watching, you among them.", "Bo is back."]
    assert [line for line in headless if line in news] == news
    assert [line for line in lines if line in news] == news
