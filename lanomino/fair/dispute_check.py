"""A seat's dispute of a move the host made for it (issue 28): the one check every receiver makes.
Pure.

The host may sign a move for a seat in two cases only (docs/fair-deal.md, step 5): the resignation
of a seat the roster shows has left, and, at a table whose header declares a move clock, the
table's move for a seat out of time (listed under ``away``). The roster is the host's word, so a
host may say a seat left or ran out of time when it did not. That seat's own client then signs
``statements.dispute_statement`` (the header, the hand, the move's place and the move as the host
signed it), sends it to the host, and the host must pass it on to every seat and watcher
(``dispute`` / ``disputed`` messages; the disputer times the relay as it times its moves,
``net/peer/progress.py``). The transcript keeps each dispute with its hand (outside the host's log
signature, so a host cannot keep it out of a copy it does not hold) and ``verify`` lists it.

``dispute_problem`` is what the host checks on arrival and every seat and watcher checks again when
it is passed on: a dispute that fails it is refused and changes nothing. It names a move of the
hand that is that seat's, carries the seat's own signature (so nobody else, the host included,
can make one, and a dispute from another hand or match fits nowhere else), and the move is not
signed by the seat itself (its own signature refutes the dispute). A seat may dispute a move once,
so a hand holds at most as many disputes as the host made moves for that seat (``MAX_DISPUTES``
bounds it, and the cost of checking one is two signatures).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from lanomino.engine.errors import seat_name
from lanomino.fair.identity import KeyRing
from lanomino.fair.statements import dispute_statement, move_statement
from lanomino.fair.transcript_model import MAX_DISPUTES, Dispute

__all__ = ["MAX_DISPUTES", "dispute_problem", "with_disputes"]



def dispute_problem(ring: KeyRing, header: str, hand: int, index: int, seat: int,
                    signature: bytes, moves: Sequence[dict[str, Any]],
                    signatures: Sequence[bytes], seat_keys: Sequence[bytes]) -> str | None:
    """Why ``seat``'s dispute of move ``index`` of ``hand`` must be refused (in words), or None.
    ``moves`` and ``signatures``: the hand's log as the receiver holds it; ``seat_keys``: the
    keys ``seat`` may sign with."""
    who = seat_name(seat)
    if not 0 <= index < min(len(moves), len(signatures)):
        return f"{who} disputes move {index + 1} of hand {hand}, which this log does not have"
    move = moves[index]
    if move.get("seat") != seat:
        return f"{who} disputes move {index + 1}, which is not {who}'s move"
    statement = dispute_statement(header, hand, index, seat, move)
    if not any(ring.verify_statement(key, signature, statement) for key in seat_keys):
        return f"the dispute of move {index + 1} is not signed by {who}"
    own = move_statement(header, hand, index, move)
    if any(ring.verify_statement(key, signatures[index], own) for key in seat_keys):
        return (f"{who} disputes move {index + 1}, which {who} signed itself: its own signature "
                "on the move refutes the dispute")
    return None


def with_disputes(entry: dict[str, Any], disputes: Iterable[Dispute]) -> dict[str, Any]:
    """A hand's transcript entry with ``disputes`` added to the ones it carries (one a move, in
    move order; those it has already are kept as written). The host's log signature does not
    cover them, so any holder of the entry may add the ones it checked."""
    have = {d["index"]: d for d in entry.get("disputes", []) if isinstance(d, dict)}
    for d in disputes:
        have.setdefault(d.index, d.to_json())
    if not have:
        return entry
    return {**entry, "disputes": [have[i] for i in sorted(have)][:MAX_DISPUTES]}
