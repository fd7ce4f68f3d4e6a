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
seat out of time at a table whose header declares a move clock). A host lost later in the
hand signed it when the resignation names that host's seat (``"host": 3``, only when it is not
the record's ``host``: the host that carried the hand on to its end, which signs the points).

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

from lanomino.blind.deck import deck_digest
from lanomino.blind.group import BlindError
from lanomino.blind.hashing import ALGORITHM
from lanomino.blind.record_fields import fields_of, hex_of, int_of, list_of
from lanomino.blind.rounds import KeyAnnouncement, Reveal, ShuffleTurn
from lanomino.blind.shuffle_proof import ShuffleArgument
from lanomino.blind.unheld_record import EscrowKept as EscrowKept  # (table_leave.py's import)
from lanomino.blind.unheld_record import UnheldEntry as UnheldEntry
from lanomino.blind.unheld_record import format_unheld, parse_unheld
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
    """A seat leaves the match after ``at`` moves of the hand; ``by`` who signed it (above);
    ``host``: the seat of the host that signed it, when that is not the record's host (a host
    lost later in the hand; None: the record's host, or the seat itself)."""

    seat: int
    at: int
    by: str = "seat"
    host: int | None = None

    def __post_init__(self) -> None:
        if self.by not in RESIGNED_BY:
            raise BlindError(f"a resignation is signed by one of {', '.join(RESIGNED_BY)}")
        if self.host is not None and not self.host_signed:
            raise BlindError("only a resignation a host signed names that host")
        if self.host == self.seat:
            raise BlindError("a host does not sign its own seat's resignation as gone")

    @property
    def host_signed(self) -> bool:
        return self.by != "seat"

    def signer(self, host: int) -> int:
        """The seat whose key signs it, in a record whose host is ``host``."""
        return self.seat if not self.host_signed else host if self.host is None else self.host

    def under(self, host: int) -> Resignation:
        """As a record whose host is ``host`` writes it (``host`` named only when another)."""
        return replace(self, host=None if self.host == host else self.host)


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
    entry = fields_of(entry, f"a {kind}", {"seat", kind} | ({"pos"} if kind == "play" else set()),
                    optional | {"away"})
    seat = int_of(entry.get("seat"), "a move's seat", high=255)
    pos = entry.get("pos")
    position = None if pos is None else int_of(pos, "a move's position", high=255)
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
    entry = fields_of(entry, "a resignation", {"seat", "at", "by"}, frozenset({"host"}))
    by, host = entry.get("by"), entry.get("host")
    return Resignation(int_of(entry.get("seat"), "a resignation's seat", high=255),
                       int_of(entry.get("at"), "a resignation's move count", high=4095),
                       by if isinstance(by, str) else "?",
                       None if host is None else int_of(host, "a resignation's host", high=255))


def _not_me(entry: object) -> NotMe:
    entry = fields_of(entry, "a \"not me\"", {"seat", "not_me"})
    return NotMe(int_of(entry["seat"], "a claim's seat", high=255), _tile(entry["not_me"]))


def _shuffle(entry: object, tiles: int) -> ShuffleEntry:
    entry = fields_of(entry, "a shuffle", {"seat", "deck", "argument"}, frozenset({"turn"}))
    seat = int_of(entry.get("seat"), "a shuffle's seat", high=255)
    digest = hex_of(entry.get("deck"), "a shuffle's deck digest")
    argument = hex_of(entry.get("argument"), "a shuffle's argument digest")
    if len(digest) != 32 or len(argument) != 32:
        raise BlindError("a deck's or an argument's digest is 32 bytes")
    turn = (None if "turn" not in entry
            else ShuffleTurn.from_bytes(hex_of(entry["turn"], "a shuffle's turn"), tiles))
    return ShuffleEntry(seat, digest, argument, turn)


def parse_blind_hand(obj: Mapping[str, object]) -> BlindHand:
    """The typed record. Raises: BlindError naming the field that is wrong."""
    if obj.get("format") != FORMAT or obj.get("algorithm") != ALGORITHM:
        raise BlindError(f"not a {FORMAT} record of {ALGORITHM}")
    fields_of(dict(obj), "the record", {"format", "algorithm", "table", "hand", "attempt", "tiles",
                                      "host", "holders", "keys", "shuffles", "opening", "moves",
                                      "reveals", "points"},
            frozenset({"resignations", "unheld"}))
    table = hex_of(obj.get("table"), "the table id")
    tiles = int_of(obj.get("tiles"), "the deck size", 1, 91)
    holders = tuple(int_of(s, "a holder", high=255) for s in list_of(obj.get("holders"), "holders"))
    record = BlindHand(
        table, int_of(obj.get("hand"), "the hand"), int_of(obj.get("attempt"), "the attempt"),
        tiles, int_of(obj.get("host"), "the host's seat", high=255), holders,
        tuple(KeyAnnouncement.from_bytes(hex_of(k, "a key")) for k in list_of(obj.get("keys"),
                                                                          "keys")),
        tuple(_shuffle(e, tiles) for e in list_of(obj.get("shuffles"), "shuffles")),
        tuple(_not_me(e) for e in list_of(obj.get("opening"), "opening")),
        tuple(_move(e) for e in list_of(obj.get("moves"), "moves")),
        tuple(Reveal.from_bytes(hex_of(r, "a reveal")) for r in list_of(obj.get("reveals"),
                                                                     "reveals")),
        tuple(int_of(p, "points") for p in list_of(obj.get("points"), "points")),
        tuple(_resignation(e) for e in list_of(obj.get("resignations", []), "resignations")))
    if "unheld" in obj:
        lost = list_of(dict(obj["unheld"]).get("lost") if isinstance(obj["unheld"], dict)
                     else None, "lost")
        record = replace(record, unheld=parse_unheld(obj["unheld"], len(holders) - len(lost)))
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
    if any(r.host == record.host for r in record.resignations):
        raise BlindError("a resignation names its host only when it is not the record's")


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
            **({"resignations": [{"seat": r.seat, "at": r.at, "by": r.by,
                                  **({} if r.host is None else {"host": r.host})}
                                 for r in record.resignations]} if record.resignations else {}),
            **({} if record.unheld is None else {"unheld": format_unheld(record.unheld)})}
