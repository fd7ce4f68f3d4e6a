"""The client controller at a real LAN table on 127.0.0.1 (nodes in one loop, real ZeroMQ and
key-service sockets): joining by HOST:PORT asks about the host, shows the table's name, keeps every
seat's name up to date, logs the match under the table's name and remembers the host; a join that
fails says so without "You left the table"; after a match the host offers a rematch and everyone
who accepts plays on in the seat they had."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lanomino.client.controller import Controller
from lanomino.client.lobby import NetOptions
from lanomino.engine import Rules
from lanomino.net.keys import DirectAddress, raw_to_z85
from lanomino.net.session import Timings
from lanomino.node import HostNode, PeerNode
from lanomino.store import PlayLog, open_store
from lanomino.store.known_hosts import KnownHosts
from lanomino.ui.lan import ConfirmJoin, JoinTable
from lanomino.ui.settings import Settings
from lanomino.ui.state import LeaveTable, Screen, Submit, UiState

TIMINGS = Timings(heartbeat_s=0.2, liveness_s=1.0, grace_s=5.0)


async def until(test: Callable[[], object], what: str | Callable[[], str],
                timeout_s: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while not test():
        if loop.time() > deadline:
            raise AssertionError(f"never: {what if isinstance(what, str) else what()}")
        await asyncio.sleep(0.02)


def client(tmp_path: Path, name: str = "Zed") -> tuple[UiState, Controller, ThreadPoolExecutor]:
    ui = UiState(settings=Settings(name=name, pause_s=0.0), screen=Screen.LOBBY)
    folder = tmp_path / name.lower()
    store = open_store(folder)
    writer = ThreadPoolExecutor(max_workers=1)
    net = NetOptions(folder, interfaces=["127.0.0.1"], announce=False, timings=TIMINGS)
    return ui, Controller(ui, store, writer, None, player_id=f"local:{name.lower()}",
                          net=net), writer


def test_joining_by_host_and_port_shows_the_table_and_every_seat(tmp_path: Path) -> None:
    ui, controller, writer = client(tmp_path)

    async def main() -> None:
        host = HostNode(data_dir=tmp_path / "host", rules=Rules.classic(target=1),
                        seats=3, bots=0, level="random", name="Kitchen",
                        player="Hal", passphrase=None, bind="127.0.0.1", port=0, timings=TIMINGS,
                        interfaces=["127.0.0.1"], headless=True, announce=False)
        await host.start()
        hosting = asyncio.ensure_future(host.run())
        port = host.transport.port
        bea = PeerNode(data_dir=tmp_path / "bea", address=DirectAddress("127.0.0.1", port,
                       host.keys.public), player="Bea", passphrase=None, timings=TIMINGS,
                       level="random", migration=False)
        try:
            controller.handle(JoinTable(f"127.0.0.1:{port}"))
            await until(lambda: ui.lobby.entry == "trust", "the player is asked about the host")
            assert host.serving().fingerprint in ui.lobby.message and "Kitchen" in ui.lobby.message
            controller.handle(ConfirmJoin())
            await until(lambda: ui.lan is not None and len(ui.lan.roster) == 2, "seated")
            assert ui.lan is not None and ui.lan.table == "Kitchen"
            await bea.start()  # a third player sits down after this one
            joined = asyncio.ensure_future(bea.run())
            await until(lambda: ui.obs is not None, "the first deal")
            assert ui.names == ("Hal", "Zed", "Bea")
            for _ in range(500):  # play this seat until the one-hand match ends
                if ui.match_result is not None:
                    break
                obs = ui.obs
                if obs is not None and obs.is_my_turn and obs.phase == "play":
                    controller.handle(Submit(obs.legal[0]))
                await asyncio.sleep(0.02)
            await until(lambda: ui.match_result is not None, "the end of the match")
            await asyncio.wait_for(joined, 10)
            await asyncio.wait_for(hosting, 10)
            controller.handle(LeaveTable())
            assert ui.screen is Screen.MENU and ui.notice == ""
            log = PlayLog(controller.store)
            await until(lambda: writer.submit(log.matches).result(), "the match is logged")
            [logged] = writer.submit(log.matches).result()
            assert logged.table == "Kitchen"
            known = writer.submit(KnownHosts(controller.store).check, "127.0.0.1",
                                  host.identity.public_key).result()
            assert known.known and known.name == "Kitchen"
        finally:
            for node in (bea, host):
                node.quit()
                await node.close()
            await asyncio.gather(hosting, return_exceptions=True)

    try:
        asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        controller.close()
        writer.shutdown(wait=True)
        controller.store.close()


def test_a_failed_join_says_why_and_leaving_it_does_not_claim_you_left(tmp_path: Path) -> None:
    ui, controller, writer = client(tmp_path)

    async def main() -> None:
        closed = 9  # the discard port: nothing listens on it here
        controller.handle(JoinTable(f"127.0.0.1:{closed}"))
        await until(lambda: "nobody is listening at 127.0.0.1:9" in ui.lobby.message,
                    "a closed port is named")
        assert ui.lan is None and ui.screen is Screen.LOBBY
        # a table seen in the lobby whose host has gone: the node gives up, the screen says so
        seen = str(DirectAddress("127.0.0.1", closed, raw_to_z85(bytes(range(32)))))
        controller.handle(JoinTable(seen, None, "Kitchen"))
        await until(lambda: ui.lan is not None and bool(ui.lan.closed), "the join fails", 30)
        assert ui.screen is Screen.WAITING and ui.lan is not None
        assert ui.lan.closed.startswith("Could not join")
        controller.handle(LeaveTable())  # Enter on that screen
        assert ui.screen is Screen.MENU and "You left the table" not in ui.notice

    try:
        asyncio.run(asyncio.wait_for(main(), 60))
    finally:
        controller.close()
        writer.shutdown(wait=True)
        controller.store.close()


def test_after_a_lan_match_the_host_offers_a_rematch_and_everyone_keeps_their_seat(
        tmp_path: Path) -> None:
    """Three people: after the match the host offers to play again (r), both joiners see the
    offer, and accepting in the other order still gives each the seat they had."""
    from lanomino.client.lan import LanTable
    from lanomino.ui.lan import HostTable
    from lanomino.ui.state import Rematch

    hui = UiState(settings=Settings(name="Hal", pause_s=0.0))
    hstore, hwriter = open_store(tmp_path / "hal"), ThreadPoolExecutor(max_workers=1)
    hnet = NetOptions(tmp_path / "hal", interfaces=["127.0.0.1"], bind="127.0.0.1",
                      announce=False, timings=TIMINGS)
    host = Controller(hui, hstore, hwriter, None, player_id="local:hal", net=hnet)
    bui, bea, bwriter = client(tmp_path, "Bea")
    cui, cy, cwriter = client(tmp_path, "Cy")
    players = ((hui, host), (bui, bea), (cui, cy))

    async def play_match() -> None:
        await until(lambda: all(ui.obs is not None for ui, _ in players), "the deal", 30)
        for _ in range(3000):
            if all(ui.match_result is not None for ui, _ in players):
                return
            for ui, c in players:
                obs = ui.obs
                if obs is not None and obs.is_my_turn and obs.phase == "play" and obs.legal:
                    c.handle(Submit(obs.legal[0]))  # (none while a locked draw opens)
            await asyncio.sleep(0.02)
        raise AssertionError("the match did not end")

    async def main() -> None:
        den = HostTable("Den", "classic", 3, 0, "random", None, rules=Rules.classic(target=1))
        host.handle(den)
        await until(lambda: hui.lan is not None and bool(hui.lan.short_address), "open")
        assert hui.lan is not None
        bea.handle(JoinTable(hui.lan.short_address))  # HOST:PORT/CODE from the host's screen
        await until(lambda: hui.lan is not None and len(hui.lan.roster) == 2, "Bea seated")
        cy.handle(JoinTable(hui.lan.short_address))
        await play_match()
        assert hui.names == bui.names == cui.names == ("Hal", "Bea", "Cy")
        first = (host.table, bea.table, cy.table)
        port = hui.lan.address.partition("/")[0]
        assert bui.lan is not None and cui.lan is not None and not bui.lan.rematch
        host.handle(Rematch())  # the host offers: both joiners' summaries say so
        await until(lambda: bui.lan is not None and bui.lan.rematch == "Hal"
                    and cui.lan is not None and cui.lan.rematch == "Hal", "the offer is seen", 20)
        assert hui.lan is not None and hui.lan.kept == {1: "Bea", 2: "Cy"}
        cy.handle(Rematch())  # Cy accepts first, yet keeps seat 3
        await until(lambda: hui.lan is not None and [r.name for r in hui.lan.roster]
                    == ["Hal", "Cy"], "Cy back", 20)
        assert [r.seat for r in hui.lan.roster] == [0, 2]
        bea.handle(Rematch())
        await until(lambda: all(isinstance(c.table, LanTable) and c.table not in first
                                and ui.obs is not None and not ui.obs.results
                                for ui, c in players),
                    lambda: f"the second match ({hui.screen}, {hui.lan}, {bui.lobby.message!r})",
                    40)
        assert hui.lan is not None and hui.lan.address.partition("/")[0] == port
        assert hui.names == bui.names == cui.names == ("Hal", "Bea", "Cy")
        assert (bui.obs is not None and bui.obs.seat == 1 and cui.obs is not None
                and cui.obs.seat == 2)
        await play_match()

    try:
        asyncio.run(asyncio.wait_for(main(), 150))
    finally:
        for c, w in ((host, hwriter), (bea, bwriter), (cy, cwriter)):
            if isinstance(c.table, LanTable):
                c.table.leave()
            c.close()
            w.shutdown(wait=True)
            c.store.close()


def test_a_dropped_joiner_comes_back_to_its_own_seat_and_hand(tmp_path: Path) -> None:
    from lanomino.client.lan import LanTable

    ui, controller, writer = client(tmp_path)

    async def main() -> None:
        host = HostNode(data_dir=tmp_path / "host", rules=Rules.classic(target=300),
                        seats=2, bots=0, level="random", name="Kitchen",
                        player="Hal", passphrase=None, bind="127.0.0.1", port=0, timings=TIMINGS,
                        interfaces=["127.0.0.1"], headless=True, announce=False)
        await host.start()
        hosting = asyncio.ensure_future(host.run())
        full = host.address
        try:
            controller.handle(JoinTable(full, None, "Kitchen"))
            await until(lambda: ui.obs is not None and ui.obs.phase == "play", "the deal")
            assert ui.obs is not None
            hand = ui.obs.hand
            table = controller.table
            assert isinstance(table, LanTable) and table.node is not None
            await table.node.close()  # the line drops: no goodbye
            if table.task is not None:
                table.task.cancel()
            await until(lambda: any(not r.connected for r in host.seats()), "the host notices")
            again = UiState(settings=Settings(name="Zed", pause_s=0.0), screen=Screen.LOBBY)
            back = Controller(again, controller.store, writer, None, player_id="local:zed",
                              net=NetOptions(tmp_path / "zed", interfaces=["127.0.0.1"],
                                             announce=False, timings=TIMINGS))
            back.handle(JoinTable(full, None, "Kitchen"))
            await until(lambda: again.obs is not None and bool(again.obs.hand), "its hand back")
            assert again.obs is not None and again.obs.seat == 1
            assert set(again.obs.hand) <= set(hand) and not again.resigned
            assert all(r.connected for r in host.seats())
            if isinstance(back.table, LanTable):
                back.table.leave()
        finally:
            host.quit()
            await host.close()
            await asyncio.gather(hosting, return_exceptions=True)

    try:
        asyncio.run(asyncio.wait_for(main(), 90))
    finally:
        controller.close()
        writer.shutdown(wait=True)
        controller.store.close()


def test_leaving_a_lan_match_before_its_end_marks_it_abandoned(tmp_path: Path) -> None:
    ui, controller, writer = client(tmp_path)

    async def main() -> None:
        host = HostNode(data_dir=tmp_path / "host", rules=Rules.classic(target=300),
                        seats=2, bots=0, level="random", name="Kitchen",
                        player="Hal", passphrase=None, bind="127.0.0.1", port=0, timings=TIMINGS,
                        interfaces=["127.0.0.1"], headless=True, announce=False)
        await host.start()
        hosting = asyncio.ensure_future(host.run())
        log = PlayLog(controller.store)
        try:
            controller.handle(JoinTable(host.address, None, "Kitchen"))
            for _ in range(3000):  # play this seat until the first hand is logged
                if writer.submit(log.matches).result():
                    break
                obs = ui.obs
                if obs is not None and obs.is_my_turn and obs.phase == "play":
                    controller.handle(Submit(obs.legal[0]))
                await asyncio.sleep(0.02)
            [before] = writer.submit(log.matches).result()
            assert not before.finished and not before.abandoned
            controller.handle(LeaveTable())
            assert ui.notice == "You left the table."
            [after] = writer.submit(log.matches).result()
            assert after.abandoned and after.id == before.id
        finally:
            host.quit()
            await host.close()
            await asyncio.gather(hosting, return_exceptions=True)

    try:
        asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        controller.close()
        writer.shutdown(wait=True)
        controller.store.close()


def test_a_refused_join_ends_as_refused_with_exit_status_3_and_not_as_a_host_stepping_down(
        tmp_path: Path) -> None:
    """How a node's match ended is in typed fields of its outcome (``refused``, ``stepped_down``),
    not read back out of its reason's words: ``lanomino join`` exits 3 for a refusal."""
    from lanomino.client.headless import exit_status

    async def main() -> None:
        host = HostNode(data_dir=tmp_path / "host", rules=Rules.classic(target=1),
                        seats=2, bots=0, level="random", name="Kitchen",
                        player="Hal", passphrase="three random words", bind="127.0.0.1", port=0,
                        timings=TIMINGS, interfaces=["127.0.0.1"], headless=True, announce=False)
        await host.start()
        hosting = asyncio.ensure_future(host.run())
        guest = PeerNode(data_dir=tmp_path / "bea", address=DirectAddress(
                         "127.0.0.1", host.transport.port, host.keys.public), player="Bea",
                         passphrase="two wrong words", timings=TIMINGS, level="random",
                         migration=False)
        try:
            await guest.start()
            outcome = await asyncio.wait_for(guest.run(), 20)
        finally:
            await guest.close()
            host.quit()
            await asyncio.wait_for(hosting, 10)
            await host.close()
        assert outcome.refused and not outcome.finished and outcome.reason.startswith("refused")
        assert exit_status(outcome) == 3
        assert outcome.to_json()["stepped_down"] is False

    asyncio.run(asyncio.wait_for(main(), 60))
