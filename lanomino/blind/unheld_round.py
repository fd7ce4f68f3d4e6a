"""The blind re-shuffle as a table runs it, every side alike (``unheld.py``'s steps). Pure.

A holder left a locked hand and its key went with it (no escrow, or the escrow was spent): the
tiles nobody holds now (its tiles and the boneyard's undrawn ones) are locked again by the
survivors, under their keys only, and nobody sends its hand to anyone. Four steps, each value
signed by its survivor, relayed by the host and checked on arrival by every side (a failing one
names its signer):

1. ``vector``: every survivor's encrypted hand vector (any order); anyone combines them with the
   line into the deck of the tiles nobody holds (``unheld.combine``);
2. ``shuffle``: each survivor in seat order shuffles it with an argument;
3. ``blinding``: each survivor in seat order blinds a copy, with a proof for each slot;
4. ``opening``: every survivor's shares of every blinded slot, with proofs (any order).

At an ``--escrow`` table whose escrow was spent by a first loss (``escrowed``: that holder and
its commitments), each survivor's vector also carries its sub-share of the first lost key
(checked against the commitments on arrival): the keys it stood in with are then known at the
hand's end, which opens the tiles drawn under them (``unheld_check.py``); the first lost key
itself stays out of reach (the second lost holder took its sub-share with it).

The slots whose blinded copy does not open to the identity are the new deck, in shuffled order,
whose size must be ``count``, the public number of tiles nobody holds (else a hand vector was
false: ``BlindError``; whose, the hand's end shows). A survivor's values all come from
``unheld_seed`` of the shuffle seed it reveals at the hand's end, and its key, so the hand's
record keeps only their digests and the verifier makes them again (``unheld_check.py``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from lanomino.blind.deck import Deck, aggregate_key, deck_bytes, deck_digest, parse_deck
from lanomino.blind.group import (
    POINT_BYTES,
    SCALAR_BYTES,
    BlindError,
    Point,
    base_mul,
    parse_point,
    parse_scalar,
    scalar_bytes,
)
from lanomino.blind.hashing import Context, frame, u32
from lanomino.blind.key_escrow import share_key
from lanomino.blind.proofs import EqualLogProof
from lanomino.blind.rounds import BlindFault, ShuffleTurn, check_shuffle
from lanomino.blind.shuffle_proof import shuffle_with_argument
from lanomino.blind.unheld import (
    blind,
    check_blinding,
    check_opening,
    combine,
    hand_vector,
    opening_share,
    unheld_deck,
)
from lanomino.engine.errors import seat_name

SEED_TAG = b"lanomino.blind.unheld-seed/1"
STEPS = ("vector", "shuffle", "blinding", "opening")
PROOF_BYTES = 2 * POINT_BYTES + 32
Opening = tuple[tuple[Point, EqualLogProof], ...]


def unheld_seed(shuffle_seed: bytes, number: int) -> bytes:
    """A survivor's randomness for the hand's re-shuffle ``number`` (1 for the first), from the
    shuffle seed it reveals at the hand's end."""
    return hashlib.sha256(frame(SEED_TAG) + shuffle_seed + u32(number)).digest()


def statement_digest(number: int, step: str, value: bytes) -> bytes:
    """What a survivor signs of one value (its message's ``data``): SHA-256 of the re-shuffle's
    number, the step and the value's bytes."""
    return hashlib.sha256(u32(number) + step.encode() + value).digest()


def _proofs(data: bytes, count: int, seat: int, what: str) -> tuple[EqualLogProof, ...]:
    if len(data) != count * PROOF_BYTES:
        raise BlindFault(seat, f"sent {what} of the wrong length")
    return tuple(EqualLogProof.from_bytes(data[i * PROOF_BYTES:(i + 1) * PROOF_BYTES])
                 for i in range(count))


def blinding_bytes(deck: Deck, proofs: Sequence[EqualLogProof]) -> bytes:
    return deck_bytes(deck) + b"".join(p.to_bytes() for p in proofs)


def opening_bytes(opening: Opening) -> bytes:
    return b"".join(point + proof.to_bytes() for point, proof in opening)


@dataclass(slots=True)
class UnheldRound:
    """One blind re-shuffle (see the module docstring). ``ctx`` holds the survivors and their
    keys; ``lost`` the holders whose keys went; ``count`` the tiles nobody holds."""

    ctx: Context
    number: int
    lost: tuple[int, ...]
    on_line: frozenset[int]
    count: int
    at: int = 0  # the hand's moves before the loss
    left: int = 0  # the new deck's first slots, which stand for the tiles that left
    redrawn: int | None = None  # the draw (its move) the loss cut short: given again
    cut: int | None = None  # the position that draw had (a share of it is late: dropped)
    escrowed: tuple[int, tuple[Point, ...]] | None = None  # a spent escrow: owner, commitments
    sub_shares: dict[int, int] = field(default_factory=dict)  # survivor -> its, of that key
    base: int = 0  # the position of the new deck's first slot (after the deal's)
    deadline: float | None = None
    vectors: dict[int, Deck] = field(default_factory=dict)
    combined: Deck = ()
    turns: list[ShuffleTurn] = field(default_factory=list)
    blinded: list[Deck] = field(default_factory=list)
    openings: dict[int, Opening] = field(default_factory=dict)
    sent: dict[tuple[str, int], bytes] = field(default_factory=dict)  # (step, seat) -> digest
    deck: Deck | None = None  # the new deck, once the round is done
    culprit: int | None = None
    unanswered: tuple[int, ...] = ()

    @property
    def step(self) -> str | None:
        """The step the round is at (None: done)."""
        n = len(self.ctx.holders)
        for name, have in zip(STEPS, (len(self.vectors), len(self.turns), len(self.blinded),
                                      len(self.openings)), strict=True):
            if have < n:
                return name
        return None

    @property
    def over(self) -> bool:
        """The round failed: a value that names its signer, a deadline, or (every value in
        and checked) a count of unheld tiles that is not the public one."""
        return self.culprit is not None or bool(self.unanswered) or (
            self.step is None and self.deck is None)

    def missing(self) -> tuple[int, ...]:
        """The survivors the round waits for now."""
        step, holders = self.step, self.ctx.holders
        if step == "vector":
            return tuple(s for s in holders if s not in self.vectors)
        if step == "shuffle":
            return (holders[len(self.turns)],)
        if step == "blinding":
            return (holders[len(self.blinded)],)
        if step == "opening":
            return tuple(s for s in holders if s not in self.openings)
        return ()

    def shuffled(self) -> Deck:
        return self.turns[-1].deck if self.turns else self.combined

    def mine(self, seat: int, secret: int, shuffle_seed: bytes, hand: Collection[int],
             sub_share: int | None = None) -> tuple[str, bytes] | None:
        """This survivor's value for the step now (its ``hand``: the tiles it holds, its bots'
        too; ``sub_share``: its of a spent escrow's key), once; None when the round does not
        wait for it."""
        if self.over or seat not in self.missing():
            return None
        step, seed = self.step, unheld_seed(shuffle_seed, self.number)
        if step == "vector":
            kept = b"" if sub_share is None else scalar_bytes(sub_share)
            return "vector", deck_bytes(hand_vector(self.ctx, hand, seed)) + kept
        if step == "shuffle":
            before = self.shuffled()
            out, argument = shuffle_with_argument(self.ctx, seat, before,
                                                  aggregate_key(self.ctx.keys), seed)
            return "shuffle", ShuffleTurn(seat, deck_digest(before), out, argument).to_bytes()
        if step == "blinding":
            return "blinding", blinding_bytes(*blind(self.ctx, seat, self._to_blind(), seed))
        assert step == "opening"
        last = self.blinded[-1]
        return "opening", opening_bytes(tuple(opening_share(self.ctx, seat, secret, last, i)
                                              for i in range(len(last))))

    def _to_blind(self) -> Deck:
        return self.blinded[-1] if self.blinded else self.shuffled()

    def receive(self, seat: int, number: int, step: str, data: bytes, now: float,
                answer_s: float | None) -> None:
        """``seat``'s value for ``step``, checked. Raises: BlindFault naming the seat (the round
        fails); BlindError for a value the round does not wait for, or (the last opening) when
        the tiles found are not ``count``."""
        if self.over or number != self.number or step != self.step \
                or seat not in self.missing():
            raise BlindError(f"the re-shuffle does not wait for a {step} from {seat_name(seat)}")
        try:
            self._check(seat, step, data)
        except BlindFault as fault:
            self.culprit = fault.seat
            raise
        except BlindError as exc:
            self.culprit = seat
            raise BlindFault(seat, f"sent a {step} that does not parse: {exc}") from None
        self.sent[(step, seat)] = statement_digest(number, step, data)
        self.deadline = None if answer_s is None else now + answer_s
        if self.step is None:
            self.deck = unheld_deck(self.ctx, self.shuffled(), self.blinded[-1], self.openings,
                                    self.count, checked=True)

    def _check(self, seat: int, step: str, data: bytes) -> None:
        tiles = self.ctx.tiles
        if step == "vector":
            size = 2 * POINT_BYTES * tiles
            if self.escrowed is not None:
                if len(data) != size + SCALAR_BYTES:
                    raise BlindFault(seat, "sent no sub-share of the key it stood in for")
                owner, commitments = self.escrowed
                sub_share = parse_scalar(data[size:])
                if base_mul(sub_share) != share_key(commitments, seat):
                    raise BlindFault(seat, f"its sub-share of seat {owner + 1}'s key does not "
                                     "fit the commitments")
                self.sub_shares[seat] = sub_share
            self.vectors[seat] = parse_deck(data[:size], tiles)
            if len(self.vectors) == len(self.ctx.holders):
                self.combined = combine(self.ctx, [self.vectors[s] for s in self.ctx.holders],
                                        self.on_line)
        elif step == "shuffle":
            turn = ShuffleTurn.from_bytes(data, tiles)
            if turn.seat != seat:
                raise BlindFault(seat, "sent another seat's shuffle")
            check_shuffle(self.ctx, turn, self.shuffled())
            self.turns.append(turn)
        elif step == "blinding":
            size = 2 * POINT_BYTES * tiles
            after = parse_deck(data[:size], tiles)
            self.blinded.append(check_blinding(self.ctx, seat, self._to_blind(), after,
                                               _proofs(data[size:], tiles, seat, "proofs")))
        else:
            size = POINT_BYTES + PROOF_BYTES
            if len(data) != size * tiles:
                raise BlindFault(seat, "sent an opening of the wrong length")
            opening = tuple((parse_point(data[i * size:i * size + POINT_BYTES]),
                             EqualLogProof.from_bytes(data[i * size + POINT_BYTES:(i + 1) * size]))
                            for i in range(tiles))
            check_opening(self.ctx, seat, self.blinded[-1], opening)
            self.openings[seat] = opening

    def expire(self, now: float) -> bool:
        """Abandon the round if its deadline passed with values missing; True if it did."""
        if self.over or self.deck is not None or self.deadline is None or now < self.deadline:
            return False
        self.unanswered = self.missing()
        return True
