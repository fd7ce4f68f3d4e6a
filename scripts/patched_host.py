#!/usr/bin/env python3
"""Run the lanomino command line with the host session patched to cheat one way (test-only code,
for scripts/host_attacks_procs.py; never part of the package): as a host who edits their own
copy would. The deviations are tests/net/hostile.py's, one per row; ``honest`` patches nothing.

    python scripts/patched_host.py DEVIATION -- host --headless --bind 127.0.0.1 ...
    python scripts/patched_host.py honest -- bot 127.0.0.1:PORT/KEY --interface 127.0.0.1 ...

Either way the process says on stderr, one line each, prefixed ``@@hostattack``: when the
deviation happened (``{"deviation": NAME, "t": unix time}``, the first time only) and each event
of its node that a row reads (HostCaught, HostChanged, MigrationDone, SteppedDown, a failed
HandVerified), from the node's own event log (logger ``lanomino.node``)."""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "net"))

import hostile  # noqa: E402

from lanomino.net.host.session import HostSession  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    HandVerified,
    HostCaught,
    HostChanged,
    MigrationDone,
    SteppedDown,
    Timings,
)

MARK = "@@hostattack"
# a move held past the product's relay deadline and the members' window after it (held_moves.py)
LATE_S = 3 * Timings().relay_s

# Each row's patch at a table of three (the host at seat 0, honest people at seats 1 and 2; the
# silent bot's table has a host-side bot at seat 3 too): what, patch(host, trace), host options.
Patch = Callable[[HostSession, list[float]], Any]
PATCHES: dict[str, tuple[str, Patch, list[str]]] = {
    "moves-for-seat": ("played a connected seat's move, host-signed, listed away, no move clock",
                       lambda h, tr: hostile.plays_for(h, 2, away=True, limit=1, trace=tr), []),
    "resigns-seat": ("resigned a connected seat (host-signed) at move 2",
                     lambda h, tr: hostile.resigns(h, 2, at=2, trace=tr), []),
    "swapped-tile": ("swapped one of seat 3's dealt tiles with the boneyard's front",
                     lambda h, tr: hostile.swaps_dealt_tile(h, 2, trace=tr), []),
    "wrong-draw": ("gave seat 3 a drawn tile that is not the boneyard's front",
                   lambda h, tr: hostile.wrong_draw(h, 2, trace=tr), []),
    "wrong-secret": ("published (and signed) a wrong secret for seat 3",
                     lambda h, tr: hostile.wrong_secret(h, 2, trace=tr), []),
    "another-move": ("showed seat 3 another move of its own seat mid-hand (a fork)",
                     lambda h, tr: hostile.shows_another_move(h, 2, trace=tr), []),
    "two-sets": ("sent seat 3 a different commitment set (and took its echo)",
                 lambda h, tr: hostile.two_sets(h, 2, trace=tr), []),
    "silent-bot": ("its bot seat never moves, heartbeats going on",
                   lambda h, tr: hostile.silent_bot(h, 3, trace=tr),
                   ["--seats", "4", "--bots", "1"]),
    "withholds-logs": ("never sent the hand logs",
                       lambda h, tr: hostile.withholds_logs(h, trace=tr), []),
    "false-score": ("signed 5 more points for its own seat than the hand gave",
                    lambda h, tr: hostile.false_score(h, trace=tr), []),
    "relays-late": (f"held seat 2's moves {LATE_S:g} s before passing them on",
                    lambda h, tr: hostile.relays_late(h, 1, LATE_S, trace=tr), []),
}
SEEN = (HostCaught, HostChanged, MigrationDone, SteppedDown)


def say(**fields: Any) -> None:
    print(MARK, json.dumps({**fields, "t": time.time()}), file=sys.stderr, flush=True)


class Trace(list[float]):
    """The deviation's trace (hostile.py appends the session's clock): said once, the first
    time."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def append(self, value: float) -> None:
        if not self:
            say(deviation=self.name)
        super().append(value)


class Events(logging.Handler):
    """The node logs every session event it publishes (``lanomino.node``, DEBUG): the ones a row
    reads are said on stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        event = record.args[0] if isinstance(record.args, tuple) and record.args else None
        if isinstance(event, HostCaught):
            say(seen="caught", check=event.check, detail=event.detail,
                host=event.evidence.get("host"))
        elif isinstance(event, HandVerified) and not event.ok:
            say(seen="hand_failed", hand=event.hand, detail=event.detail)
        elif isinstance(event, SEEN):
            say(seen=type(event).__name__, term=getattr(event, "term", None),
                host=getattr(event, "seat", getattr(event, "host", None)))


def watch_events() -> None:
    node = logging.getLogger("lanomino.node")
    node.setLevel(logging.DEBUG)
    handler = Events(logging.DEBUG)
    node.addHandler(handler)
    # the rest of the node's debug lines go nowhere; its warnings still reach stderr
    node.propagate = False
    loud = logging.StreamHandler(sys.stderr)
    loud.setLevel(logging.WARNING)
    node.addHandler(loud)


def patch_first_host(name: str) -> None:
    """The first HostSession this process makes (its own table) cheats as row ``name`` says."""
    _, patch, _ = PATCHES[name]
    init = HostSession.__init__
    done: list[bool] = []

    def patched(self: HostSession, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        if not done:
            done.append(True)
            patch(self, Trace(name))

    HostSession.__init__ = patched  # type: ignore[method-assign]


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[1] != "--" or argv[0] not in (*PATCHES, "honest"):
        print(f"usage: patched_host.py {{{'|'.join(PATCHES)}|honest}} -- LANOMINO ARGS",
              file=sys.stderr)
        return 2
    watch_events()
    if argv[0] != "honest":
        patch_first_host(argv[0])
    from lanomino.cli import main as lanomino

    return lanomino(argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
