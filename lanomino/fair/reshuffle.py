"""Re-shuffling the unknown tiles when a lost host's deal cannot be rebuilt. Pure.

When the escrow cannot be rebuilt (a share holder was lost with the host, or void deals earlier in
the hand took their secrets with the host), nobody alive knows the lost seats' hands or the order
of the boneyard. The survivors then each *claim* their own part of the deal, signed: the tiles they
were dealt and the tiles they drew, in order (``lanomino.claim/1``). The *unknown* tiles are the
set minus the survivors' hands minus the tiles on the line: the boneyard and the hands of the seats
nobody vouches for. A fresh commit-reveal round among the claimants, in its own domain (below),
orders them with the published shuffle; the unclaimed seats take their tile counts from the front
in seat order, the rest is the boneyard in the new order.

The moves before the re-shuffle cannot be checked tile by tile for the unclaimed seats. ``world_at``
builds a game state that agrees with everything that *can* be known: the claimants' hands are exact
(so their moves are checked in full: ownership, must-play, draws), every tile an unclaimed seat
played was free to be its (not claimed, not on the line), an unclaimed seat that drew or passed
could have been stuck, and the hand did not end before the re-shuffle. The unclaimed seats' tiles
are placeholders, moved around as their moves require; their identities are never used afterwards,
because the re-shuffle deals those hands again.

Domain: commitments are ``SHA-256("lanomino.reshuffle/1" 0x00 || table || hand (u32) || term (u32)
|| seat (1 byte) || r)``; the seed is ``HMAC-SHA256(key = "lanomino.reshuffle.seed/1", table || hand
|| term || for each claimant in seat order: seat || r)``; the order is ``deck_order(seed, unknown
tiles in canonical order)`` (the ``lanomino-fy-hmac-sha256/1`` stream and Fisher–Yates).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lanomino.engine import (
    Action,
    Draw,
    GameState,
    HandEnded,
    HandStarted,
    IllegalActionError,
    Pass,
    Play,
    Resign,
    Tile,
    apply,
)
from lanomino.engine.errors import seat_name
from lanomino.engine.events import TilePlayed
from lanomino.engine.line import Line
from lanomino.engine.state import _STATE_FIELDS, Phase
from lanomino.engine.tiles import TILES, tiles_in
from lanomino.fair.canonical import digest, u32
from lanomino.fair.commit import SECRET_BYTES, TABLE_ID_BYTES, CommitmentError, tagged_commitment
from lanomino.fair.commit_reveal import Domain
from lanomino.fair.shuffle import deck_order, keyed_seed

RESHUFFLE_TAG = b"lanomino.reshuffle/1\x00"
RESHUFFLE_SEED_KEY = b"lanomino.reshuffle.seed/1"


class ReshuffleError(ValueError):
    """The claims and the moves before a re-shuffle do not fit together. ``check`` names the check
    (claim, ownership, legality, unfinished) and ``seat`` the seat at fault (None: the log)."""

    def __init__(self, check: str, seat: int | None, message: str) -> None:
        super().__init__(message)
        self.check, self.seat = check, seat


@dataclass(frozen=True, slots=True)
class ReshuffleContext:
    """Which re-shuffle a secret belongs to: table, transcript hand, and the new host's term."""

    table: bytes
    hand: int
    term: int

    def __post_init__(self) -> None:
        if len(self.table) != TABLE_ID_BYTES:
            raise CommitmentError(f"a table id is {TABLE_ID_BYTES} bytes")
        if not (0 < self.hand < 2**32 and 0 < self.term < 2**32):
            raise CommitmentError("hand and term numbers are 1 .. 2**32-1")

    def to_bytes(self) -> bytes:
        return self.table + u32(self.hand) + u32(self.term)


@dataclass(frozen=True, slots=True)
class Claim:
    """A survivor's signed statement of its part of the deal: dealt tiles, then draws in order."""

    seat: int
    dealt: tuple[Tile, ...]
    drawn: tuple[Tile, ...]
    signature: bytes

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "dealt": [str(t) for t in self.dealt],
                "drawn": [str(t) for t in self.drawn], "signature": self.signature.hex()}


# ----- statements and the shuffle --------------------------------------------------------------


def claim_statement(header: str, hand: int, term: int, seat: int, dealt: Sequence[Tile],
                    drawn: Sequence[Tile]) -> dict[str, Any]:
    return {"type": "lanomino.claim/1", "header": header, "hand": hand, "term": term, "seat": seat,
            "dealt": [str(t) for t in dealt], "drawn": [str(t) for t in drawn]}


def claims_digest(claims: Sequence[Claim]) -> bytes:
    """What the re-shuffle's commitment set binds: the claims as the transcript lists them."""
    return digest([c.to_json() for c in claims])


def reshuffle_commitment(ctx: ReshuffleContext, seat: int, secret: bytes) -> bytes:
    return tagged_commitment(RESHUFFLE_TAG, ctx.to_bytes(), seat, secret)


def reshuffle_opens(ctx: ReshuffleContext, seat: int, secret: bytes, committed: bytes) -> bool:
    if len(secret) != SECRET_BYTES:
        return False
    return hmac.compare_digest(reshuffle_commitment(ctx, seat, secret), committed)


def commit_statement(header: str, ctx: ReshuffleContext, seat: int,
                     committed: bytes) -> dict[str, Any]:
    return {"type": "lanomino.reshuffle.commit/1", "header": header, "hand": ctx.hand,
            "term": ctx.term, "seat": seat, "commitment": committed.hex()}


def set_statement(header: str, ctx: ReshuffleContext, host: int, at: int, opener: int,
                  claims: bytes, commitments: Sequence[tuple[int, bytes]]) -> dict[str, Any]:
    return {"type": "lanomino.reshuffle.set/1", "header": header, "hand": ctx.hand,
            "term": ctx.term, "host": host, "at": at, "opener": opener, "claims": claims.hex(),
            "commitments": [[seat, c.hex()] for seat, c in commitments]}


def echo_statement(header: str, ctx: ReshuffleContext, seat: int,
                   set_digest: bytes) -> dict[str, Any]:
    return {"type": "lanomino.reshuffle.echo/1", "header": header, "hand": ctx.hand,
            "term": ctx.term, "seat": seat, "set": set_digest.hex()}


def reshuffle_seed(ctx: ReshuffleContext, secrets: Sequence[tuple[int, bytes]]) -> bytes:
    return keyed_seed(RESHUFFLE_SEED_KEY, ctx.to_bytes(), secrets)


# ----- the state at the re-shuffle -------------------------------------------------------------


@dataclass(slots=True)
class World:
    """The state after the moves before the re-shuffle, and the deal it was started from (the
    claimants' parts exact, placeholders elsewhere)."""

    state: GameState
    deal: list[list[Tile]]
    boneyard: list[Tile]


def world_at(state: GameState, attempts: int, opener: int, claims: Mapping[int, Claim],
             moves: Sequence[tuple[int, Action]]) -> World:
    """Play ``moves`` (the hand's moves before the re-shuffle) on ``state`` (waiting for a deal;
    ``attempts`` deals were made for this hand), in place, as far as the claims allow. Raises
    ReshuffleError (``state`` is then half-changed: throw it away)."""
    rules, players = state.rules, state.players
    size = rules.hand_size_for(players)
    dealt_to = [s for s in range(players) if state.active[s]]
    bone = len(TILES) - size * len(dealt_to)
    seen: set[Tile] = set()
    for seat, c in sorted(claims.items()):
        if seat != c.seat or seat not in dealt_to:
            raise ReshuffleError("claim", seat,
                                 f"{seat_name(seat)} claims tiles but was not dealt in")
        if len(c.dealt) != size:
            raise ReshuffleError("claim", seat,
                                 f"{seat_name(seat)} claims {len(c.dealt)} dealt tiles, not {size}")
        for t in (*c.dealt, *c.drawn):
            if t in seen:
                raise ReshuffleError("claim", seat, f"{t} is claimed twice ({seat_name(seat)})")
            seen.add(t)
    # who drew which boneyard position
    owner: list[int] = [s for s, a in moves if isinstance(a, Draw)]
    if len(owner) > bone:
        raise ReshuffleError("legality", None, f"{len(owner)} draws from a boneyard of {bone}")
    boneyard: list[Tile | None] = [None] * bone
    for seat, c in claims.items():
        positions = [p for p, s in enumerate(owner) if s == seat]
        if len(positions) != len(c.drawn):
            raise ReshuffleError("claim", seat, f"{seat_name(seat)} claims {len(c.drawn)} draws "
                                 f"but drew {len(positions)} times")
        for p, t in zip(positions, c.drawn, strict=True):
            boneyard[p] = t
    reserved = {p for p, s in enumerate(owner) if s in claims}
    pool = [t for t in TILES if t not in seen]
    deal: list[list[Tile]] = []
    for seat in range(players):
        if seat in claims:
            deal.append(list(claims[seat].dealt))
        elif seat in dealt_to:
            deal.append(pool[:size])
            del pool[:size]
        else:
            deal.append([])
    for p in range(bone):
        if boneyard[p] is None:
            boneyard[p] = pool.pop(0)
    full = [t for t in boneyard if t is not None]
    _start(state, deal, full, attempts, opener)
    unknown = [s for s in dealt_to if s not in claims]
    for index, (seat, action) in enumerate(moves):
        if seat in unknown and not isinstance(action, Resign):
            _fit(state, seat, action, unknown, reserved, index)
        trial = state.copy()
        try:
            apply(trial, seat, action)
        except IllegalActionError as exc:
            unheld = isinstance(action, Play) and not state.hands[seat] >> action.tile.index & 1
            check = "ownership" if unheld else "legality"
            raise ReshuffleError(check, seat, f"move {index + 1}: {exc}") from None
        if trial.phase is not Phase.PLAY and _feed(state, trial, unknown, reserved):
            trial = state.copy()
            apply(trial, seat, action)
        if trial.phase is not Phase.PLAY:
            raise ReshuffleError("unfinished", None,
                                 f"the hand ended at move {index + 1}, before the re-shuffle")
        for name in _STATE_FIELDS:
            setattr(state, name, getattr(trial, name))
    return World(state, deal, full)


def _start(state: GameState, deal: list[list[Tile]], boneyard: list[Tile], attempts: int,
           opener: int) -> None:
    """``start_hand`` with a known opener and no tile it must lead (that cannot be checked here)."""
    if state.phase is not Phase.DEAL:
        raise ReshuffleError("unfinished", None, "the match is not waiting for a deal")
    if not 0 <= opener < state.players or not state.active[opener]:
        raise ReshuffleError("claim", None, f"{seat_name(opener)} cannot have opened the hand")
    state.hands = [sum(t.bit for t in h) for h in deal]
    state.hand_no += attempts
    state.boneyard = list(boneyard)
    state.drawn = 0
    reserve = state.rules.boneyard_reserve
    state.drawable = max(0, len(boneyard) - reserve) if state.rules.draws else 0
    state.line = Line(state.rules.fives)
    state.hand_points = [0] * state.sides
    state.opener, state.must_lead, state.turn = opener, None, opener
    state.phase = Phase.PLAY
    state.fast = False
    state.history = [HandStarted(state.hand_no, opener, None, tuple(map(len, deal)), len(boneyard))]


def _free(state: GameState, unknown: Sequence[int], reserved: set[int]) -> list[tuple[int, int]]:
    """Placeholder places: ("hand", seat) as (0, seat), boneyard positions as (1, position)."""
    places = [(0, s) for s in unknown if state.active[s]]
    places += [(1, p) for p in range(state.drawn, len(state.boneyard)) if p not in reserved]
    return places


def _swap_in(state: GameState, seat: int, tile: Tile, out: Tile, place: tuple[int, int]) -> None:
    """Move ``tile`` from ``place`` into ``seat``'s hand and ``out`` from that hand to ``place``."""
    state.hands[seat] ^= tile.bit | out.bit
    kind, where = place
    if kind == 0:
        state.hands[where] ^= tile.bit | out.bit
    else:
        state.boneyard[where] = out


def _holder(state: GameState, tile: Tile, places: list[tuple[int, int]]) -> tuple[int, int] | None:
    for kind, where in places:
        if ((kind == 0 and state.hands[where] & tile.bit)
                or (kind == 1 and state.boneyard[where] == tile)):
            return kind, where
    return None


def _fit(state: GameState, seat: int, action: Action, unknown: Sequence[int], reserved: set[int],
         index: int) -> None:
    """Arrange an unclaimed seat's placeholders so that ``action`` is what it could have done."""
    places = [p for p in _free(state, unknown, reserved) if p != (0, seat)]
    if isinstance(action, Play):
        if state.hands[seat] & action.tile.bit:
            return
        place = _holder(state, action.tile, places)
        mine = tiles_in(state.hands[seat])
        if place is None or not mine:
            raise ReshuffleError("ownership", seat,
                                 f"move {index + 1}: {seat_name(seat)} played {action.tile}, "
                                 "which a claimant holds or the line already shows")
        _swap_in(state, seat, action.tile, mine[0], place)
        return
    if isinstance(action, Draw) and state.rules.draw_when_playable:
        return
    if not isinstance(action, (Draw, Pass)):
        return
    fits = state.fitting_mask()
    for tile in tiles_in(state.hands[seat] & fits):
        spare = next(((t, p) for p in places for t in _tiles_at(state, p) if not t.bit & fits),
                     None)
        if spare is None:
            raise ReshuffleError("legality", seat,
                                 f"move {index + 1}: {seat_name(seat)} could not have been stuck: "
                                 "every tile that seat could hold fits the line")
        t, p = spare
        # the spare comes into the seat's hand, the fitting tile goes where the spare was
        state.hands[seat] ^= tile.bit | t.bit
        if p[0] == 0:
            state.hands[p[1]] ^= tile.bit | t.bit
        else:
            state.boneyard[p[1]] = tile


def _tiles_at(state: GameState, place: tuple[int, int]) -> tuple[Tile, ...]:
    kind, where = place
    return tiles_in(state.hands[where]) if kind == 0 else (state.boneyard[where],)


def _feed(state: GameState, trial: GameState, unknown: Sequence[int], reserved: set[int]) -> bool:
    """The hand ended by a block that the placeholders made up: give an unclaimed seat a tile that
    fits the line as it is after the move. True when that was possible (the move is then
    retried)."""
    if not any(isinstance(e, HandEnded) and e.end == "blocked" for e in trial.history):
        return False
    fits = trial.fitting_mask()
    holders = [s for s in unknown if state.active[s] and trial.active[s] and state.hands[s]]
    spares = [p for p in range(state.drawn, len(state.boneyard)) if p not in reserved]
    for s in holders:
        for p in spares:
            t = state.boneyard[p]
            if t.bit & fits:
                out = tiles_in(state.hands[s])[0]
                _swap_in(state, s, t, out, (1, p))
                return True
    return False


def unknown_tiles(state: GameState, claimants: Sequence[int]) -> list[Tile]:
    """Tiles neither on the line nor in a claimant's hand, in canonical order: the boneyard, the
    unclaimed seats' hands, and the tiles that left the table with seats that resigned."""
    known = 0
    for s in claimants:
        known |= state.hands[s]
    for e in state.history:
        if isinstance(e, TilePlayed):
            known |= e.tile.bit
    return [t for t in TILES if not known & t.bit]


def reshuffle(state: GameState, claimants: Sequence[int],
              seed: bytes) -> tuple[list[Tile], dict[int, list[Tile]]]:
    """Deal the unknown tiles again in the order ``seed`` gives. The first ones are those that left
    the table with seats that resigned earlier in the hand (which those were is unknown, so they are
    drawn too); then every active seat without a claim, in seat order, takes as many tiles as it
    held; the rest is the boneyard, in order. Changes ``state``; returns the order and the
    unclaimed seats' new hands."""
    order = deck_order(seed, unknown_tiles(state, claimants))
    seats = [s for s in range(state.players) if state.active[s] and s not in claimants]
    counts = [bin(state.hands[s]).count("1") for s in seats]
    left = len(state.boneyard) - state.drawn
    pos = len(order) - sum(counts) - left  # the tiles that left the table
    if pos < 0:
        raise ReshuffleError("reshuffle", None,
                             "the unknown tiles do not add up to the hands and the boneyard")
    hands: dict[int, list[Tile]] = {}
    for seat, count in zip(seats, counts, strict=True):
        hands[seat] = order[pos:pos + count]
        state.hands[seat] = sum(t.bit for t in hands[seat])
        pos += count
    state.boneyard = state.boneyard[:state.drawn] + order[pos:]
    return order, hands


def reshuffle_domain(header: str, ctx: ReshuffleContext, host: int, at: int, opener: int,
                     claims: bytes, verify: Callable[[int, bytes, dict[str, Any]], bool]) -> Domain:
    """The re-shuffle's commit-reveal round (``fair/commit_reveal.py``) in its own domain."""
    return Domain(
        commit_statement=lambda seat, c: commit_statement(header, ctx, seat, c),
        set_statement=lambda entries: set_statement(header, ctx, host, at, opener, claims, entries),
        echo_statement=lambda seat, d: echo_statement(header, ctx, seat, d),
        opens=lambda seat, secret, c: reshuffle_opens(ctx, seat, secret, c),
        verify=verify,
        label="re-shuffle",
    )
