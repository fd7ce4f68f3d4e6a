"""What a new host reads in its members' reports (``report`` messages, after a migration): the
longest move log of the hand in play, and a finished hand's log that the lost host sent to some
members only before it died. Pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from lanomino.fair.identity import KeyRing
from lanomino.fair.statements import blame_statement
from lanomino.fair.transcript import Refusal, TranscriptError
from lanomino.fair.verify import verify_transcript
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.messages import MAX_BLAMES, Report


def longest_log(reports: Iterable[Report], hand: int,
                stats: Counter[str]) -> tuple[list[JsonObject], list[bytes]]:
    """The longest move log the members reported for ``hand``, with its signatures. A log that is
    not a prefix of it is counted (``migration.log_mismatch``). No member reports that hand (a
    lost host that withheld the last hands' logs): no move of it is known, the hand starts afresh
    from what every survivor signed."""
    logs = [(r.moves, r.signatures) for r in reports if r.hand == hand]
    if not logs:
        return [], []
    moves, sigs = max(logs, key=lambda log: len(log[0]))
    for other, _ in logs:
        if moves[:len(other)] != other:
            stats["migration.log_mismatch"] += 1
    return list(moves), list(sigs)


def kept_blames(reports: Iterable[Report], hand: int, header: str, host_key: bytes,
                ring: KeyRing) -> list[Refusal]:
    """The refusals the lost host told the members of in ``hand`` (records for the hand's log,
    once each): only those it signed, so no member can make the new host blame a seat."""
    kept: list[Refusal] = []
    for report in reports:
        for b in report.refused:
            record = Refusal(b.seat, b.what, b.why)
            statement = blame_statement(header, hand, b.seat, b.what, b.why)
            if (b.hand == hand and record not in kept and len(kept) < MAX_BLAMES
                    and ring.verify_statement(host_key, b.signature, statement)):
                kept.append(record)
    return kept


def caught_up(doc: JsonObject, reports: Iterable[Report],
              stats: Counter[str]) -> JsonObject:
    """``doc`` with the finished hand's log that a member has and this host missed (the lost host
    died while sending it out). It is the lost host's signed entry: kept only if the transcript
    with it verifies (else counted, ``migration.bad_hand_log``)."""
    for report in reports:
        last = report.last
        hands = doc["hands"]
        if not isinstance(last, dict) or not isinstance(last.get("entry"), dict):
            continue
        entry, end = last["entry"], last.get("end")
        if entry.get("hand") != len(hands) + 1:
            continue  # nothing new (or a gap: not this host's to fill)
        candidate = {**doc, "hands": [*hands, entry], "end": end}
        try:
            ok = verify_transcript(candidate).ok
        except (TranscriptError, ValueError, TypeError, KeyError):
            ok = False
        if ok:
            doc = candidate
        else:
            stats["migration.bad_hand_log"] += 1
    return doc


def without_refuted(doc: JsonObject, verified: Mapping[int, bool], stats: Counter[str],
                    closing: Callable[[int, bool, int | None, list[int]], JsonObject]
                    ) -> JsonObject:
    """``doc`` without its last hands whose log, signed by the lost host, failed this member's
    checks (``verified``: it caught that host, net/peer/deal.py), under the new host's closing
    statement (``closing(hands, finished, winner, scores)``): such a hand is dealt again, from the
    match as it stood before it."""
    hands = list(doc["hands"])
    while hands and verified.get(hands[-1].get("hand")) is False:
        hands.pop()
    if len(hands) == len(doc["hands"]):
        return doc
    stats["migration.refuted_hand"] += len(doc["hands"]) - len(hands)
    scores = hands[-1]["scores"] if hands else [0] * len(doc["end"]["scores"])
    return {**doc, "hands": hands, "end": closing(len(hands), False, None, list(scores))}
