"""Stop storms on a simulated LAN (root; nothing leaves the machine): ``--count`` nodes of each
``--role``, each in a network namespace of its own, all sent one stop signal at once; prints how
many exited within 2 s and whether each one's goodbye went out (tests/runtime/storm.py says how
each is seen). Issue 32's "done when" is 40 of 40 for every role and signal.

    sudo python scripts/stop_storm.py --count 40 --role host peer watcher --signal TERM HUP INT

``--code DIR`` runs the nodes from another lanomino tree (e.g. an older commit, unpacked with
``git archive``), to measure before and after a change.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "runtime"))
sys.path.insert(0, str(ROOT / "tests"))

from netlab import unavailable_reason  # noqa: E402
from storm import ROLES, SIGNALS, storm  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--role", nargs="+", choices=ROLES, default=list(ROLES))
    parser.add_argument("--signal", nargs="+", choices=list(SIGNALS), default=list(SIGNALS))
    parser.add_argument("--code", type=Path, help="the lanomino tree the nodes run")
    args = parser.parse_args()
    reason = unavailable_reason()
    if reason is not None:
        print(f"stop_storm: {reason}", file=sys.stderr)
        return 2
    failed = False
    for role in args.role:
        for sig in args.signal:
            with tempfile.TemporaryDirectory(prefix="lanomino-storm-") as data:
                measured = storm(role, sig, args.count, Path(data), args.code)
            print(measured.summary(), flush=True)
            failed |= measured.within() < args.count or not all(measured.goodbyes)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
