"""A seat's own checks of a finished hand: what only that seat knows (the secrets it revealed, the
tiles the host sent it, the moves the host showed it) against what the host published. They run
before the verifier's verdict and are shown first, on that seat's screen: they are the most exact
reason, and every problem they find is the host's (it published, dealt, let draw or logged what
the seat's own evidence refutes). Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lanomino.engine import Draw, Tile
from lanomino.fair.report import EDITED, Report
from lanomino.fair.transcript_model import HandLog

__all__ = ["own_checks"]


def own_checks(report: Report, log: HandLog, seat: int, *,
               secrets: Mapping[int, bytes] | None = None,
               dealt: Sequence[Tile] | None = None,
               drawn: Sequence[Tile] | None = None,
               moves: Sequence[dict[str, Any]] | None = None) -> str | None:
    """The first problem this seat's own evidence shows in the hand ``log``, in words, or None.

    ``secrets``: the secret this seat revealed, per deal attempt; ``dealt``: the tiles the host
    sent it; ``drawn``: the tiles it was given for its draws, in order; ``moves``: the moves the
    host sent it during the hand (a prefix of the log when it missed the end). ``report`` is the
    verifier's report of the transcript (the deal it derived from the published secrets)."""
    for attempt in log.deals:  # (a re-shuffled hand has no secrets: nothing to compare)
        mine = (secrets or {}).get(attempt.attempt)
        seats = [c.seat for c in attempt.commitments]
        if (mine is not None and seat in seats and attempt.secrets
                and attempt.secrets[seats.index(seat)] != mine):
            return ("the host published a secret for this seat that is not the one it revealed "
                    f"(deal {attempt.attempt}) [blame: the host]")
    if moves is not None and [m.raw for m in log.moves][:len(moves)] != list(moves):
        first = next(i for i, (a, b) in enumerate(zip(log.moves, moves, strict=False))
                     if a.raw != b) if len(log.moves) >= len(moves) else len(log.moves)
        return (f"the host's log of this hand is not the moves it sent this seat (from move "
                f"{first + 1} on) [blame: the host]")
    f = report.failure
    if f is not None and f.blame == EDITED and f.hand in (log.hand, None):
        # In a file, a signature that does not verify means it was changed after; this seat had
        # the log from the host itself: the host sent words it did not sign.
        what = ("whose signatures do not verify: it sent words it did not sign"
                if "signature" in f.message else "that does not hold together")  # (cut short)
        return f"the host sent this seat a transcript {what} ({f.check} check) [blame: the host]"
    deals = report.deals[log.hand - 1] if len(report.deals) >= log.hand else ()
    if not deals or log.reshuffled is not None:
        return None  # the deal could not be derived: the verifier's line says why
    deal = deals[-1]
    if dealt is not None and sorted(dealt, key=str) != sorted(deal.hands[seat], key=str):
        got = sorted(set(dealt) - set(deal.hands[seat]), key=str)
        want = sorted(set(deal.hands[seat]) - set(dealt), key=str)
        return (f"the host dealt this seat {_tiles(got)} where the committed shuffle gives it "
                f"{_tiles(want)} [blame: the host]")
    if drawn is not None:
        taken = 0  # the boneyard's tiles drawn so far, by anyone
        mine_drawn = iter(drawn)
        for index, move in enumerate(log.moves):
            if not isinstance(move.action, Draw):
                continue
            if move.seat == seat:
                got_tile = next(mine_drawn, None)
                front = deal.boneyard[taken] if taken < len(deal.boneyard) else None
                if got_tile is not None and got_tile != front:
                    return (f"the host gave this seat {got_tile} for its draw at move {index + 1}, "
                            f"but the boneyard's front was {front or 'empty'} [blame: the host]")
            taken += 1
    return None


def _tiles(tiles: Sequence[Tile]) -> str:
    return " ".join(str(t) for t in tiles) or "nothing"
