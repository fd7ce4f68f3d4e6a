"""The record of one locked hand (``lanomino.blind-hand/1``): what a verifier needs, as JSON.

A record keeps what was signed during the hand and what was revealed at its end, not the decks
or shares, which it re-derives: the holders' keys with their proofs, each shuffler's output
digest (and, when its seed was lost, the whole turn with its argument),
the opening's "not me" answers, the moves with the position each tile came from, the
resignations (each with the number of moves before it, and who signed it), each holder's
revealed key and seed, and the hand's points as the host signed them. Byte fields are lowercase
hex of the values' own bytes (``rounds.py``). The signatures over these statements are the
transcript's, as today's; this record is the locked deck's part of a hand.

    {"format": "lanomino.blind-hand/1", "algorithm": "lanomino-blind-ristretto255/1",
     "table": hex, "hand": 1, "attempt": 1, "tiles": 28, "host": 0, "holders": [0, 1, 2],
     "keys": [hex, ...], "shuffles": [{"seat": 0, "deck": hex, "argument": hex}, ...],
     "opening": [{"seat": 1, "not_me": "6-6"}, ...],
     "moves": [{"seat": 0, "play": "6-6", "end": "left", "pos": 3},
               {"seat": 1, "draw": true, "pos": 15}, {"seat": 2, "pass": true, "away": true},
               ...],
     "reveals": [hex, ...], "points": [0, 12, 0],
     "resignations": [{"seat": 2, "at": 7, "by": "seat"}]}

``resignations`` may be left out (none). A resignation is not a move: ``at`` counts the plays,
draws and passes before it (the public view's move count), so a claim's move number stays the
same with or without resignations. ``by`` says who signed it: ``seat`` (the seat itself), or
the host, only where today's rules let the host sign a seat's resignation: ``left`` (the roster
showed the seat gone: the host cannot prove it, and the verifier lists it) or ``away`` (the
seat out of time at a table whose header declares a move clock).

A hand in which a holder left without escrow (its key went with it) was re-shuffled blind by
the survivors (``unheld_round.py``); ``unheld`` keeps that round (optional, absent otherwise):

    "unheld": {"number": 1, "at": 7, "lost": [3], "left": 5, "redrawn": 6,
               "vectors": [hex, ...], "shuffles": [hex, ...], "blindings": [hex, ...],
               "openings": [hex, ...], "shares": [hex, ...]}

``at`` is the moves before the loss, ``lost`` the holders whose keys went (they have no reveal,
and their deal shuffles are kept with their arguments), ``left`` how many slots of the new deck
stand for the tiles that left with them, ``redrawn`` the draw (its move) the loss cut short,
given again from the new deck (absent: none); each step's list has, for every survivor in seat
order, the digest it signed of its value (``unheld_round.statement_digest``), which the verifier
makes again from the survivor's revealed key and seed; ``shares`` are the shares the lost holders
published (``rounds.Share`` bytes), which open the tiles the survivors hold; and, at an
``--escrow`` table whose escrow a first loss spent, ``escrow``: {"owner", "commitments": [hex],
"late": [the positions drawn under the keys the others stood in with], "sub_shares": [hex, one
per survivor in seat order, each also in its signed hand vector]}.

A move with ``"away": true`` is one the seat's own client's bot made while the seat was out of
time on the move clock (at a locked table only the seat holds its tiles, so only its own client
can move for it): the seat signs the mark with the move, and the verifier lists such moves.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from lanomino.blind.deck import deck_digest
from lanomino.blind.group import BlindError, Point, parse_point, parse_scalar, scalar_bytes
from lanomino.blind.hashing import ALGORITHM
from lanomino.blind.rounds import KeyAnnouncement, Reveal, Share, ShuffleTurn
from lanomino.blind.shuffle_proof import ShuffleArgument
from lanomino.engine import DRAW, PASS, Action, Draw, End, Pass, Play, Tile, parse_tile
from lanomino.engine.errors import TileError

FORMAT = "lanomino.blind-hand/1"


@dataclass(frozen=True, slots=True)
class ShuffleEntry:
    """What a shuffler signed for its turn: its output deck's digest and its argument's; its
    whole turn too when its seed was lost (the argument is then checked instead)."""

    seat: int
    digest: bytes
    argument: bytes  # ``argument_digest`` of the turn's argument
    turn: ShuffleTurn | None = None

    @classmethod
    def of(cls, turn: ShuffleTurn, keep: bool = False) -> ShuffleEntry:
        """The entry of a checked turn (with the turn itself when ``keep``: a lost seed)."""
        return cls(turn.seat, deck_digest(turn.deck), argument_digest(turn.argument),
                   turn if keep else None)


def argument_digest(argument: ShuffleArgument) -> bytes:
    """SHA-256 of a shuffle argument's bytes: what its shuffler signs with its output's digest,
    so that a turn kept for a lost seed is the one its shuffler sent."""
    return hashlib.sha256(b"lanomino.blind.argument/1" + argument.to_bytes()).digest()


@dataclass(frozen=True, slots=True)
class NotMe:
    """A seat's signed answer "not me" to the opening round of ``tile``."""

    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class BlindMove:
    """A move with the position its tile came from: a play's own position, a draw's position;
    ``away``: the seat's own client's bot made it, out of time on the move clock (the seat
    signs that with the move)."""

    seat: int
    action: Action
    position: int | None = None
    away: bool = False


RESIGNED_BY = ("seat", "left", "away")  # the seat itself; the host: the seat left / was away


@dataclass(frozen=True, slots=True)
class Resignation:
    """A seat leaves the match after ``at`` moves of the hand; ``by`` who signed it (above)."""

    seat: int
    at: int
    by: str = "seat"

    def __post_init__(self) -> None:
        if self.by not in RESIGNED_BY:
            raise BlindError(f"a resignation is signed by one of {', '.join(RESIGNED_BY)}")

    @property
    def host_signed(self) -> bool:
        return self.by != "seat"


@dataclass(frozen=True, slots=True)
class BlindHand:
    table: bytes
    hand: int
    attempt: int
    tiles: int
    host: int
    holders: tuple[int, ...]
    keys: tuple[KeyAnnouncement, ...]
    shuffles: tuple[ShuffleEntry, ...]
    opening: tuple[NotMe, ...]
    moves: tuple[BlindMove, ...]
    reveals: tuple[Reveal, ...]  # those that came; a holder missing here withheld its key
    points: tuple[int, ...]
    resignations: tuple[Resignation, ...] = ()  # in the order they came
    unheld: UnheldEntry | None = None  # the blind re-shuffle after a holder left, if any


UNHELD_STEPS = ("vectors", "shuffles", "blindings", "openings")  # (unheld_round.STEPS, plural)


@dataclass(frozen=True, slots=True)
class UnheldEntry:
    """The blind re-shuffle of a hand (the module docstring's ``unheld``)."""

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


def _escrow_kept(entry: object, survivors: int) -> EscrowKept:
    entry = _fields(entry, "the spent escrow", {"owner", "commitments", "late", "sub_shares"})
    kept = EscrowKept(
        _int(entry.get("owner"), "the escrow's owner", high=255),
        tuple(parse_point(_hex(c, "an escrow commitment"))
              for c in _list(entry.get("commitments"), "the escrow's commitments")),
        tuple(_int(p, "a position drawn under the stand-in keys", high=255)
              for p in _list(entry.get("late"), "the positions drawn since")),
        tuple(parse_scalar(_hex(x, "a sub-share"))
              for x in _list(entry.get("sub_shares"), "the sub-shares")))
    if len(kept.sub_shares) != survivors or list(kept.late) != sorted(set(kept.late)):
        raise BlindError("the spent escrow has one sub-share per survivor and its positions "
                         "in order, once each")
    return kept


def _unheld(entry: object, survivors: int) -> UnheldEntry:
    entry = _fields(entry, "the re-shuffle", {"number", "at", "lost", "left", *UNHELD_STEPS,
                                              "shares"}, frozenset({"redrawn", "escrow"}))
    sent = []
    for step in UNHELD_STEPS:
        digests = tuple(_hex(d, f"a re-shuffle's {step[:-1]}")
                        for d in _list(entry.get(step), f"the re-shuffle's {step}"))
        if len(digests) != survivors or any(len(d) != 32 for d in digests):
            raise BlindError(f"the re-shuffle's {step} are one 32-byte digest per survivor")
        sent.append(digests)
    redrawn = entry.get("redrawn")
    return UnheldEntry(
        _int(entry.get("number"), "the re-shuffle's number", 1, 255),
        _int(entry.get("at"), "the re-shuffle's move", high=4095),
        tuple(_int(s, "a lost holder", high=255) for s in _list(entry.get("lost"), "lost")),
        _int(entry.get("left"), "the tiles that left", high=91),
        None if redrawn is None else _int(redrawn, "the draw given again", high=4095),
        tuple(sent),
        tuple(Share.from_bytes(_hex(x, "a lost holder's share"))
              for x in _list(entry.get("shares"), "the lost holders' shares")),
        None if "escrow" not in entry else _escrow_kept(entry["escrow"], survivors))


def _format_unheld(u: UnheldEntry) -> dict[str, object]:
    return {"number": u.number, "at": u.at, "lost": list(u.lost), "left": u.left,
            **({} if u.redrawn is None else {"redrawn": u.redrawn}),
            **{step: [d.hex() for d in digests]
               for step, digests in zip(UNHELD_STEPS, u.sent, strict=True)},
            "shares": [x.to_bytes().hex() for x in u.shares],
            **({} if u.escrow is None else {"escrow": {
                "owner": u.escrow.owner, "commitments": [c.hex() for c in u.escrow.commitments],
                "late": list(u.escrow.late),
                "sub_shares": [scalar_bytes(x).hex() for x in u.escrow.sub_shares]}})}


def _hex(value: object, what: str) -> bytes:
    if not isinstance(value, str) or value.lower() != value or " " in value:
        raise BlindError(f"{what} must be a lowercase hex string")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise BlindError(f"{what} is not hex") from None


def _fields(entry: object, what: str, required: set[str], optional: frozenset[str] = frozenset()
            ) -> dict[str, object]:
    """``entry`` as an object with exactly the ``required`` fields and perhaps the ``optional``:
    a record says each thing one way only."""
    if not isinstance(entry, dict):
        raise BlindError(f"{what} must be an object")
    missing, extra = required - set(entry), set(entry) - required - optional
    if missing or extra:
        field = sorted(missing)[0] if missing else sorted(extra)[0]
        raise BlindError(f"{what}: {'missing' if missing else 'unknown'} field {field!r}")
    return entry


def _int(value: object, what: str, low: int = 0, high: int = 2**32 - 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BlindError(f"{what} must be a whole number {low}..{high}")
    return value


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise BlindError(f"{what} must be a list")
    return value


def _tile(value: object) -> Tile:
    try:
        tile = parse_tile(value)
    except TileError as exc:
        raise BlindError(str(exc)) from None
    if str(tile) != value:
        raise BlindError(f"write tiles higher number first, like {tile}")
    return tile


def _move(entry: object) -> BlindMove:
    kinds = set(entry) & {"play", "draw", "pass"} if isinstance(entry, dict) else set()
    if len(kinds) != 1:
        raise BlindError("a move is a play, a draw or a pass")
    kind = kinds.pop()
    optional = {"play": frozenset({"end"}), "draw": frozenset({"pos"})}.get(kind, frozenset())
    entry = _fields(entry, f"a {kind}", {"seat", kind} | ({"pos"} if kind == "play" else set()),
                    optional | {"away"})
    seat = _int(entry.get("seat"), "a move's seat", high=255)
    pos = entry.get("pos")
    position = None if pos is None else _int(pos, "a move's position", high=255)
    if "away" in entry and entry["away"] is not True:
        raise BlindError("a move the table's bot made is written away: true")
    away = "away" in entry
    if kind == "play":
        written = entry.get("end")
        if "end" in entry and not isinstance(written, str):
            raise BlindError("a play's end is left, right, up or down")
        try:
            end = End.parse(written) if isinstance(written, str) else None
        except ValueError as exc:
            raise BlindError(f"a play's end: {exc}") from None
        if end is not None and str(end) != written:
            raise BlindError(f"a play's end is written {str(end)!r}")
        return BlindMove(seat, Play(_tile(entry["play"]), end), position, away)
    if entry[kind] is not True:
        raise BlindError(f"a {kind} is written {kind}: true")
    return BlindMove(seat, DRAW if kind == "draw" else PASS, position, away)


def _resignation(entry: object) -> Resignation:
    entry = _fields(entry, "a resignation", {"seat", "at", "by"})
    by = entry.get("by")
    return Resignation(_int(entry.get("seat"), "a resignation's seat", high=255),
                       _int(entry.get("at"), "a resignation's move count", high=4095),
                       by if isinstance(by, str) else "?")


def _not_me(entry: object) -> NotMe:
    entry = _fields(entry, "a \"not me\"", {"seat", "not_me"})
    return NotMe(_int(entry["seat"], "a claim's seat", high=255), _tile(entry["not_me"]))


def _shuffle(entry: object, tiles: int) -> ShuffleEntry:
    entry = _fields(entry, "a shuffle", {"seat", "deck", "argument"}, frozenset({"turn"}))
    seat = _int(entry.get("seat"), "a shuffle's seat", high=255)
    digest = _hex(entry.get("deck"), "a shuffle's deck digest")
    argument = _hex(entry.get("argument"), "a shuffle's argument digest")
    if len(digest) != 32 or len(argument) != 32:
        raise BlindError("a deck's or an argument's digest is 32 bytes")
    turn = (None if "turn" not in entry
            else ShuffleTurn.from_bytes(_hex(entry["turn"], "a shuffle's turn"), tiles))
    return ShuffleEntry(seat, digest, argument, turn)


def parse_blind_hand(obj: Mapping[str, object]) -> BlindHand:
    """The typed record. Raises: BlindError naming the field that is wrong."""
    if obj.get("format") != FORMAT or obj.get("algorithm") != ALGORITHM:
        raise BlindError(f"not a {FORMAT} record of {ALGORITHM}")
    _fields(dict(obj), "the record", {"format", "algorithm", "table", "hand", "attempt", "tiles",
                                      "host", "holders", "keys", "shuffles", "opening", "moves",
                                      "reveals", "points"},
            frozenset({"resignations", "unheld"}))
    table = _hex(obj.get("table"), "the table id")
    tiles = _int(obj.get("tiles"), "the deck size", 1, 91)
    holders = tuple(_int(s, "a holder", high=255) for s in _list(obj.get("holders"), "holders"))
    record = BlindHand(
        table, _int(obj.get("hand"), "the hand"), _int(obj.get("attempt"), "the attempt"),
        tiles, _int(obj.get("host"), "the host's seat", high=255), holders,
        tuple(KeyAnnouncement.from_bytes(_hex(k, "a key")) for k in _list(obj.get("keys"),
                                                                          "keys")),
        tuple(_shuffle(e, tiles) for e in _list(obj.get("shuffles"), "shuffles")),
        tuple(_not_me(e) for e in _list(obj.get("opening"), "opening")),
        tuple(_move(e) for e in _list(obj.get("moves"), "moves")),
        tuple(Reveal.from_bytes(_hex(r, "a reveal")) for r in _list(obj.get("reveals"),
                                                                     "reveals")),
        tuple(_int(p, "points") for p in _list(obj.get("points"), "points")),
        tuple(_resignation(e) for e in _list(obj.get("resignations", []), "resignations")))
    if "unheld" in obj:
        lost = _list(dict(obj["unheld"]).get("lost") if isinstance(obj["unheld"], dict)
                     else None, "lost")
        record = replace(record, unheld=_unheld(obj["unheld"], len(holders) - len(lost)))
    _check_layout(record)
    return record


def _check_layout(record: BlindHand) -> None:
    """One key per holder and at most one reveal each, in seat order; the holders in order."""
    if list(record.holders) != sorted(set(record.holders)) or not record.holders:
        raise BlindError("holders are distinct seats in seat order")
    if tuple(k.seat for k in record.keys) != record.holders:
        raise BlindError("the keys are one per holder, in seat order")
    seats = [r.seat for r in record.reveals]
    if seats != sorted(set(seats)) or not set(seats) <= set(record.holders):
        raise BlindError("the reveals are at most one per holder, in seat order")
    lost = () if record.unheld is None else record.unheld.lost
    if not set(lost) <= set(record.holders) or set(lost) & set(seats):
        raise BlindError("the lost holders are holders, and none of them revealed its key")
    at = [r.at for r in record.resignations]
    if at != sorted(at) or at and at[-1] > len(record.moves):
        raise BlindError("the resignations come in order, each after at most every move")


def format_blind_hand(record: BlindHand) -> dict[str, object]:
    """The record as JSON values (``parse_blind_hand`` gives it back)."""
    def move(m: BlindMove) -> dict[str, object]:
        out: dict[str, object] = {"seat": m.seat}
        if isinstance(m.action, Play):
            out["play"] = str(m.action.tile)
            if m.action.end is not None:
                out["end"] = str(m.action.end)
        elif isinstance(m.action, Draw):
            out["draw"] = True
        elif isinstance(m.action, Pass):
            out["pass"] = True
        if m.position is not None:
            out["pos"] = m.position
        if m.away:
            out["away"] = True
        return out

    def shuffle(e: ShuffleEntry) -> dict[str, object]:
        out: dict[str, object] = {"seat": e.seat, "deck": e.digest.hex(),
                                  "argument": e.argument.hex()}
        if e.turn is not None:
            out["turn"] = e.turn.to_bytes().hex()
        return out

    return {"format": FORMAT, "algorithm": ALGORITHM, "table": record.table.hex(),
            "hand": record.hand, "attempt": record.attempt, "tiles": record.tiles,
            "host": record.host, "holders": list(record.holders),
            "keys": [k.to_bytes().hex() for k in record.keys],
            "shuffles": [shuffle(e) for e in record.shuffles],
            "opening": [{"seat": c.seat, "not_me": str(c.tile)} for c in record.opening],
            "moves": [move(m) for m in record.moves],
            "reveals": [r.to_bytes().hex() for r in record.reveals],
            "points": list(record.points),
            **({"resignations": [{"seat": r.seat, "at": r.at, "by": r.by}
                                 for r in record.resignations]} if record.resignations else {}),
            **({} if record.unheld is None else {"unheld": _format_unheld(record.unheld)})}
