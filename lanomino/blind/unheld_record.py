"""The blind re-shuffle's part of a locked hand's record (``unheld``, hand_record.py's docstring
says what each field means): its typed value, and reading and writing it as JSON. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from lanomino.blind.group import BlindError, Point, parse_point, parse_scalar, scalar_bytes
from lanomino.blind.record_fields import fields_of, hex_of, int_of, list_of
from lanomino.blind.rounds import Share

UNHELD_STEPS = ("vectors", "shuffles", "blindings", "openings")  # (unheld_round.STEPS, plural)


@dataclass(frozen=True, slots=True)
class UnheldEntry:
    """The blind re-shuffle of a hand (hand_record.py's docstring: ``unheld``)."""

    number: int
    at: int
    lost: tuple[int, ...]
    left: int
    redrawn: int | None
    sent: tuple[tuple[bytes, ...], ...]  # per step, each survivor's signed digest in seat order
    shares: tuple[Share, ...]
    escrow: EscrowKept | None = None  # the escrow a first loss spent, at an ``--escrow`` table


@dataclass(frozen=True, slots=True)
class EscrowKept:
    """At an ``--escrow`` table, the escrow a first loss spent before the second one made the
    blind re-shuffle: its owner's commitments, the positions drawn under the keys the others
    stood in with, and each survivor's sub-share (sent with its hand vector, so signed there)."""

    owner: int
    commitments: tuple[Point, ...]
    late: tuple[int, ...]
    sub_shares: tuple[int, ...]  # survivors in seat order


def escrow_kept_of(entry: object, survivors: int) -> EscrowKept:
    entry = fields_of(entry, "the spent escrow", {"owner", "commitments", "late", "sub_shares"})
    kept = EscrowKept(
        int_of(entry.get("owner"), "the escrow's owner", high=255),
        tuple(parse_point(hex_of(c, "an escrow commitment"))
              for c in list_of(entry.get("commitments"), "the escrow's commitments")),
        tuple(int_of(p, "a position drawn under the stand-in keys", high=255)
              for p in list_of(entry.get("late"), "the positions drawn since")),
        tuple(parse_scalar(hex_of(x, "a sub-share"))
              for x in list_of(entry.get("sub_shares"), "the sub-shares")))
    if len(kept.sub_shares) != survivors or list(kept.late) != sorted(set(kept.late)):
        raise BlindError("the spent escrow has one sub-share per survivor and its positions "
                         "in order, once each")
    return kept


def parse_unheld(entry: object, survivors: int) -> UnheldEntry:
    entry = fields_of(entry, "the re-shuffle", {"number", "at", "lost", "left", *UNHELD_STEPS,
                                              "shares"}, frozenset({"redrawn", "escrow"}))
    sent = []
    for step in UNHELD_STEPS:
        digests = tuple(hex_of(d, f"a re-shuffle's {step[:-1]}")
                        for d in list_of(entry.get(step), f"the re-shuffle's {step}"))
        if len(digests) != survivors or any(len(d) != 32 for d in digests):
            raise BlindError(f"the re-shuffle's {step} are one 32-byte digest per survivor")
        sent.append(digests)
    redrawn = entry.get("redrawn")
    return UnheldEntry(
        int_of(entry.get("number"), "the re-shuffle's number", 1, 255),
        int_of(entry.get("at"), "the re-shuffle's move", high=4095),
        tuple(int_of(s, "a lost holder", high=255) for s in list_of(entry.get("lost"), "lost")),
        int_of(entry.get("left"), "the tiles that left", high=91),
        None if redrawn is None else int_of(redrawn, "the draw given again", high=4095),
        tuple(sent),
        tuple(Share.from_bytes(hex_of(x, "a lost holder's share"))
              for x in list_of(entry.get("shares"), "the lost holders' shares")),
        None if "escrow" not in entry else escrow_kept_of(entry["escrow"], survivors))


def format_unheld(u: UnheldEntry) -> dict[str, object]:
    return {"number": u.number, "at": u.at, "lost": list(u.lost), "left": u.left,
            **({} if u.redrawn is None else {"redrawn": u.redrawn}),
            **{step: [d.hex() for d in digests]
               for step, digests in zip(UNHELD_STEPS, u.sent, strict=True)},
            "shares": [x.to_bytes().hex() for x in u.shares],
            **({} if u.escrow is None else {"escrow": {
                "owner": u.escrow.owner, "commitments": [c.hex() for c in u.escrow.commitments],
                "late": list(u.escrow.late),
                "sub_shares": [scalar_bytes(x).hex() for x in u.escrow.sub_shares]}})}
