"""Rematches at a real LAN table on 127.0.0.1 (client controllers in one loop, real ZeroMQ and
key-service sockets): after a host migration the member that hosts at the end offers the rematch
at its own address, and everyone, the host that left included, sits down again; a player who goes
back to the menu instead declines, and the host frees the seat at once and says so."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from test_client_lan import TIMINGS, until

from lanomino.client.controller import Controller
from lanomino.client.lan import LanTable
from lanomino.client.lobby import NetOptions
from lanomino.engine import Rules
from lanomino.node import HostNode
from lanomino.store import open_store
from lanomino.ui.lan import HostTable, JoinTable
from lanomino.ui.settings import Settings
from lanomino.ui.state import LeaveTable, Rematch, Screen, Submit, UiState

Person = tuple[UiState, Controller, ThreadPoolExecutor]


def person(tmp_path: Path, name: str, watchers: int = 8, bind: str | None = "127.0.0.1") -> Person:
    """A client that would host on ``bind`` only (a rematch's host opens a table)."""
    ui = UiState(settings=Settings(name=name, pause_s=0.0), screen=Screen.MENU)
    folder = tmp_path / name.lower()
    writer = ThreadPoolExecutor(max_workers=1)
    net = NetOptions(folder, interfaces=["127.0.0.1"], bind=bind, announce=False,
                     timings=TIMINGS, watchers=watchers)
    return ui, Controller(ui, open_store(folder), writer, None, player_id=f"local:{name.lower()}",
                          net=net), writer


async def play_out(people: list[Person], what: str) -> None:
    """Each of ``people`` plays its first legal move whenever it is its turn, until the match's
    end has reached them all."""
    for _ in range(3000):
        if all(ui.match_result is not None for ui, _, _ in people):
            return
        for ui, c, _ in people:
            obs = ui.obs
            if obs is not None and obs.is_my_turn and obs.phase == "play" and obs.legal:
                c.handle(Submit(obs.legal[0]))  # (none while a locked draw opens)
        await asyncio.sleep(0.02)
    raise AssertionError(f"the match did not end: {what}")


async def open_table(host: Person, seats: int, joiners: list[Person]) -> None:
    """``host`` opens a one-hand table of ``seats``; ``joiners`` sit down by its HOST:PORT/CODE,
    one after the other."""
    hui, controller, _ = host
    controller.handle(HostTable("Den", "classic", seats, 0, "random", None,
                                rules=Rules.classic(target=1)))
    await until(lambda: hui.lan is not None and bool(hui.lan.short_address), "open")
    for n, (_, joiner, _) in enumerate(joiners, 2):
        assert hui.lan is not None
        joiner.handle(JoinTable(hui.lan.short_address))
        await until(lambda n=n: hui.lan is not None and len(hui.lan.roster) == n, "seated", 30)


def close_all(people: list[Person]) -> None:
    for _, c, w in people:
        if isinstance(c.table, LanTable):
            c.table.leave()
        c.close()
        w.shutdown(wait=True)
        c.store.close()


def test_after_a_migration_the_new_host_offers_the_rematch_at_its_own_address(
        tmp_path: Path) -> None:
    """Hal hosts Bea and Cy and leaves mid-hand: Bea hosts the rest. Her r opens the table again
    at the port the others followed her to; Cy sees the offer and keeps seat 3; Hal, who left,
    comes back by the address on Bea's screen and is kept the seat Bea had (she sits at seat 1,
    as every host does)."""
    # Bea's client was started with no --bind: her rematch serves where the others reached her
    hal, bea, cy = person(tmp_path, "Hal"), person(tmp_path, "Bea", bind=None), \
        person(tmp_path, "Cy")
    (hui, host, _), (bui, b, _), (cui, c, _) = hal, bea, cy

    async def main() -> None:
        await open_table(hal, 3, [bea, cy])
        await until(lambda: all(ui.obs is not None and ui.obs.phase == "play"
                                for ui in (hui, bui, cui)), "the deal", 30)
        host.handle(LeaveTable())  # the host quits mid-hand: the table is handed over
        await until(lambda: bui.lan is not None and bui.lan.host_note == "you host",
                    "Bea hosts", 30)
        assert bui.lan is not None
        followed = bui.lan.address.partition("/")[0]  # Bea's own port, shown on her screen
        await play_out([bea, cy], "after the migration")
        assert cui.lan is not None and not cui.lan.rematch
        b.handle(Rematch())
        await until(lambda: cui.lan is not None and cui.lan.rematch == "Bea",
                    lambda: f"Cy sees Bea's offer ({bui.screen}, {bui.lan})", 30)
        assert bui.lan is not None and bui.lan.kept == {1: "Hal", 2: "Cy"}
        assert bui.lan.address.partition("/")[0] == followed
        assert isinstance(b.table, LanTable) and isinstance(b.table.node, HostNode)
        assert b.table.node.bind == "127.0.0.1"  # not every interface
        c.handle(Rematch())
        await until(lambda: bui.lan is not None and [(r.seat, r.name) for r in bui.lan.roster]
                    == [(0, "Bea"), (2, "Cy")], "Cy back in seat 3", 30)
        assert bui.lan is not None
        host.handle(JoinTable(bui.lan.short_address))  # HOST:PORT/CODE from Bea's screen
        await until(lambda: all(ui.obs is not None and not ui.obs.results
                                and ui.match_result is None for ui in (hui, bui, cui)),
                    lambda: f"the second match ({hui.lobby.message!r}, {hui.lan})", 30)
        assert hui.names == bui.names == cui.names == ("Bea", "Hal", "Cy")
        assert [ui.obs.seat for ui in (bui, hui, cui) if ui.obs is not None] == [0, 1, 2]
        for _, who, _ in (hal, bea, cy):
            who.handle(LeaveTable())
        await asyncio.sleep(0.3)  # (their goodbyes leave)

    try:
        asyncio.run(asyncio.wait_for(main(), 200))
    finally:
        close_all([hal, bea, cy])


def test_a_player_who_goes_back_to_the_menu_declines_and_the_host_frees_the_seat(
        tmp_path: Path) -> None:
    """Hal offers Bea a rematch at a table nobody may watch; Bea goes back to the menu instead.
    Hal's waiting screen says she declined and keeps the seat no longer: a newcomer takes it at
    once, well within the minute a kept seat waits."""
    hal, bea, cy = person(tmp_path, "Hal", watchers=0), person(tmp_path, "Bea"), \
        person(tmp_path, "Cy")
    (hui, host, _), (bui, b, _), (cui, c, _) = hal, bea, cy

    async def main() -> None:
        await open_table(hal, 2, [bea])
        await until(lambda: hui.obs is not None and bui.obs is not None, "the deal", 30)
        await play_out([hal, bea], "the first match")
        host.handle(Rematch())
        await until(lambda: bui.lan is not None and bui.lan.rematch == "Hal", "the offer", 30)
        assert hui.lan is not None and hui.lan.kept == {1: "Bea"}
        b.handle(LeaveTable())  # Enter on the result screen: back to the menu
        assert bui.screen is Screen.MENU
        assert bui.notice == "You declined Hal's rematch: they are told."
        await until(lambda: hui.lan is not None and not hui.lan.kept
                    and "Bea declined the rematch" in hui.lan.status,
                    lambda: f"Hal hears Bea's no ({hui.lan})", 20)
        assert hui.lan is not None and hui.lan.status == (
            "waiting for players (1/2) · Bea declined the rematch")
        c.handle(JoinTable(hui.lan.short_address))  # a newcomer: the seat is free now
        await until(lambda: hui.obs is not None and not hui.obs.results and cui.obs is not None,
                    lambda: f"Cy sits down ({cui.lobby.message!r}, {cui.lan})", 30)
        assert hui.names == cui.names == ("Hal", "Cy")
        for _, who, _ in (hal, cy):
            who.handle(LeaveTable())
        await asyncio.sleep(0.3)

    try:
        asyncio.run(asyncio.wait_for(main(), 150))
    finally:
        close_all([hal, bea, cy])
