"""A node run to its outcome with nobody at a screen: ``host --headless``, ``join --headless``,
``bot`` and ``watch --headless``.

``run_to_end`` is the one run of a node: start it, run it, close it, and follow the match on when
the node does more before it is over (a host that stepped down watches the end as a peer of the
new host), then say the outcome once: one JSON line with ``--json``, else a sentence (on stderr
when the match did not end). A watcher hears each event as a sentence from no seat: the line
mode's narrator and the same table news the line mode says (``lines.talk.table_news``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lanomino import command
from lanomino.client import ClientError
from lanomino.client.find import HostBook, Seek
from lanomino.narrate import plural

if TYPE_CHECKING:
    from lanomino.client.seam import TableNode
    from lanomino.net.session import Timings
    from lanomino.node import HostNode, Outcome, PeerNode

Listener = Callable[[object], None]


def exit_status(outcome: Outcome) -> int:
    """A command's exit status: 0 the match ended, 3 the table refused it, 1 it left early."""
    if outcome.finished:
        return 0
    return 3 if outcome.refused else 1


async def start_node(node: TableNode) -> None:
    """Start ``node``; when it cannot start, what did start (a standby port, a half-made
    connection) is closed again. Raises OSError or ValueError saying why."""
    try:
        await node.start()
    except (OSError, ValueError):
        await node.close()
        raise


async def run_node(node: TableNode,
                   on_start: Callable[[TableNode], None] | None = None) -> Outcome:
    """Run a started ``node`` to its end and close it, then follow the match on as the node does
    (a host that stepped down watches the end as a peer of the new host: ``on_start`` sees that
    node first). The one run of a node, for the client's tables and the headless commands."""
    try:
        outcome = await node.run()
    finally:
        await node.close()
    return await node.follow_on(outcome, on_start=on_start)


async def run_to_end(node: HostNode | PeerNode, listener: Listener, as_json: bool,
                     opened: Callable[[], None] | None = None, watching: bool = False) -> int:
    """Start ``node`` (then ``opened()``), run it to its end (``run_node``; ``listener`` hears
    its events) and say the outcome: one JSON line with ``as_json``, else ``tell_end``'s
    sentence. Returns the exit status. Raises ClientError when the node cannot start."""
    from lanomino.node import install_quit_handlers

    try:
        await start_node(node)
    except (OSError, ValueError) as exc:
        raise ClientError(str(exc)) from None
    install_quit_handlers(node)
    node.subscribe(listener)
    if opened is not None:
        try:
            opened()
        except BaseException:
            await node.close()
            raise
    outcome = await run_node(node)
    if outcome.rejoin is not None and not as_json:
        print(f"another seat hosts the table now: following it at {outcome.rejoin}", flush=True)
    if as_json:
        print(json.dumps(outcome.to_json()), flush=True)
        return exit_status(outcome)
    return tell_end(node, outcome, watching)


def tell_end(node: HostNode | PeerNode, outcome: Outcome, watching: bool = False) -> int:
    """Say how the match ended (the JSON line was printed already) and give the exit status."""
    if outcome.finished:
        checked = "every hand verified" if outcome.verified else "NOT every hand verified"
        print(f"match over: {_result(node, outcome)}; {plural(outcome.hands, 'hand')}, "
              f"{checked}; transcript {outcome.transcript}", flush=True)
    else:
        print(f"{'stopped watching' if watching else 'left the table'}: {outcome.reason}",
              file=sys.stderr)
    return exit_status(outcome)


def _result(node: HostNode | PeerNode, outcome: Outcome) -> str:
    """Who won, in people's words (seats by name, counted from 1; this seat is 'you')."""
    from lanomino.narrate import Cast, final_result

    rules = node.session.rules
    if rules is None:
        return f"scores {list(outcome.scores)}"
    names = {row.seat: row.name for row in node.seats()}
    players = 4 if rules.partnership else len(outcome.scores)
    cast = Cast(tuple(names.get(s, "") for s in range(players)), rules, outcome.seat)
    return final_result(outcome.winner, outcome.scores, cast)


def log_to_stderr() -> None:
    logging.basicConfig(level=os.environ.get("LANOMINO_LOG", "WARNING").upper(), stream=sys.stderr)


def host(node: HostNode, name: str, as_json: bool) -> int:
    """Host the table ``node`` opens until its match is over, saying where others join it."""

    def opened() -> None:
        where = node.serving()
        if as_json:
            print(json.dumps({"event": "listening", "address": where.address, "port": where.port,
                              "fingerprint": where.fingerprint,
                              "peer_id": node.identity.peer_id}), flush=True)
            return
        # each part on a line of its own: a full key's address alone takes 73 columns
        print(f"table {name!r} is open at", where.address, f"host key fingerprint "
              f"{where.fingerprint}", sep="\n  ", flush=True)
        if where.short_address:
            print("others join or watch with:", f"{command('join')} {where.short_address}",
                  sep="\n  ", flush=True)

    log_to_stderr()
    return asyncio.run(run_to_end(node, lambda _event: None, as_json, opened))


def play(seek: Seek, as_json: bool, **seat: Any) -> int:
    """Sit at the table ``seek`` names with a bot playing the seat (``seat``: the ``PeerNode``'s
    keywords: player, passphrase, timings, level, delay_s, host_port, migration)."""
    seated: list[int] = []

    def on_event(event: object) -> None:
        from lanomino.net.session import Joined

        if as_json and isinstance(event, Joined) and not seated:  # (a script learns the seat)
            seated.append(event.seat)
            print(json.dumps({"event": "seated", "seat": event.seat}), flush=True)

    return _sit(seek, as_json, lambda _node: on_event, **seat)


def watch(seek: Seek, as_json: bool, words: bool, *, player: str, passphrase: str | None,
          timings: Timings) -> int:
    """Follow the table ``seek`` names without a seat, one sentence (or JSON line) an event."""
    return _sit(seek, as_json, lambda node: watch_printer(node, as_json, words), player=player,
                passphrase=passphrase, timings=timings, level=None, watch=True)


def _sit(seek: Seek, as_json: bool, listen: Callable[[PeerNode], Listener], **seat: Any) -> int:
    """Run a peer of the table ``seek`` names to its end (``seat``: the ``PeerNode``'s keywords;
    ``listen`` gives its listener). A host not met before is refused: nobody is here to ask."""
    from lanomino.node import PeerNode

    async def main() -> int:
        with HostBook.open(seek.data_dir) as hosts:
            found = await seek.find(hosts, ask=None)
        node = PeerNode(data_dir=seek.data_dir, address=found.address, source_ip=seek.interface,
                        table_name=found.name or None, **seat)
        return await run_to_end(node, listen(node), as_json, watching=bool(seat.get("watch")))

    log_to_stderr()
    return asyncio.run(main())


def watch_printer(node: PeerNode, as_json: bool, words: bool,
                  say: Callable[[str], None] | None = None) -> Listener:
    """A listener for a watcher's events: sentences (or JSON lines) on stdout (or to ``say``)."""
    from lanomino.lines.narrator import Narrator
    from lanomino.lines.talk import TableHeard, table_news
    from lanomino.net.session import (
        HandVerified,
        Joined,
        MoveDisputed,
        ObservationChanged,
        ProtocolProblem,
    )
    from lanomino.ui.lan import dispute_line

    narrator = Narrator(words=words, plays=False)
    heard = TableHeard()

    def out(text: str) -> None:
        if say is not None:
            say(text)
        else:
            print(text, flush=True)

    def on_event(event: object) -> None:
        if isinstance(event, Joined):
            out(json.dumps({"event": "watching", "seats": event.seats}) if as_json
                else f"Watching a table of {event.seats}.")
        elif isinstance(event, HandVerified):
            if as_json:
                out(json.dumps({"event": "hand", "hand": event.hand, "verified": event.ok,
                                "detail": event.detail}))
            else:
                out(f"Hand {event.hand}'s deal {'checks out' if event.ok else 'does NOT check out'}"
                    f": {event.detail}.")
        elif isinstance(event, MoveDisputed):
            names = tuple(row.name for row in sorted(node.seats(), key=lambda r: r.seat))
            out(json.dumps({"event": "disputed", "hand": event.hand, "index": event.index,
                            "seat": event.seat, "resign": event.resign}) if as_json
                else dispute_line(names, event.seat, -1, event.hand, event.index, event.resign))
        elif isinstance(event, ProtocolProblem) and event.code == "watcher":
            out(f"Refused: {event.detail}.")
        elif isinstance(event, ObservationChanged) and not as_json:
            names = tuple(row.name for row in sorted(node.seats(), key=lambda r: r.seat))
            for line in narrator.update(event.observation, names):
                out(line)
        if as_json or not node.session.joined:
            return
        rows = [(r.seat, r.name, r.away) for r in node.seats()]
        for line in table_news(heard, node.watching(), node.move_clock(), rows, watcher=True):
            out(line)

    return on_event
