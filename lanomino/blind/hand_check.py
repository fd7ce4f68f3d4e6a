"""The offline verifier of a locked hand: every key, shuffle and claim, the moves, the points.

Judged in this order (STYLE.md: each party's statements against what it signed, the first
failure decides and names its signer):

1. ``keys``     each holder's key proof holds (else: that holder);
2. ``reveal``   each holder revealed the secret of its key (else: that holder withheld or lied);
3. ``shuffle``  each shuffle, from the deck before it, is reproduced by the seed its holder
                revealed, or, for a lost seed, the stored turn's argument holds; either way the
                output is the deck the shuffler signed (else: that shuffler); a stored turn that
                is not the one the shuffler signed (its deck's and argument's digests) is the
                host's, which kept it;
4. ``opening``  no "not me" came from a seat that was dealt the tile (else: that seat);
5. ``moves``    a draw takes the boneyard's next position (else: the host, which names it); a play
                comes from a position the seat holds and that holds the tile (else: the seat);
                a move the public facts refuse (out of turn, a tile that does not match the
                line, a pass while the boneyard has tiles) the host had to refuse (else: the
                host); the engine accepts each move, so every "I cannot play, so I draw / pass"
                claim was true (else: the seat); after a blocked end only passes may follow (the
                table learns of the block as every seat passes), else the host; each resignation,
                in its place among the moves, is one the engine allows (else its signer: the
                seat, or the host when it signed it), and the host signed one only where the
                rules let it: a seat that left, or one away at a table with a move clock (else
                the host); a move marked as the seat's own bot's (``away``) only at a table
                with a move clock (else the host, which passed it on);
6. ``score``    the hand ended and its points are the ones the host signed (else: the host).

A ``HandVerdict`` says which check failed, whom it names and why; ``ok`` when none did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from lanomino.blind.deck import Deck, aggregate_key, deck_digest, open_deck
from lanomino.blind.gate import DealLayout
from lanomino.blind.group import BlindError, base_mul
from lanomino.blind.hand_record import (
    BlindHand,
    BlindMove,
    Resignation,
    ShuffleEntry,
)
from lanomino.blind.hashing import Context
from lanomino.blind.lead_rounds import questions
from lanomino.blind.rounds import BlindFault, check_key, check_shuffle, open_all
from lanomino.blind.shuffle_proof import gen_shuffle
from lanomino.engine import (
    RESIGN,
    TILES,
    DealVoided,
    Draw,
    EngineError,
    GameState,
    HandEnd,
    HandEnded,
    IllegalActionError,
    Pass,
    Phase,
    Play,
    apply,
    start_hand,
)
from lanomino.engine.dealing import split_deck
from lanomino.engine.errors import seat_name
from lanomino.engine.moves import check_turn, draw_refusal, lay, pass_refusal


@dataclass(frozen=True, slots=True)
class HandVerdict:
    """The outcome: ``check`` that failed ("" when ok), the seat it names (None: nobody can be
    named), why; and the deck's tiles by position when the keys were all revealed."""

    check: str = ""
    culprit: int | None = None
    reason: str = ""
    tiles: tuple[int, ...] = field(default=())
    move: int | None = None  # a ``moves`` failure: the move's number, from 0

    @property
    def ok(self) -> bool:
        return not self.check

    def describe(self) -> str:
        if self.ok:
            return "the hand checks out"
        who = "nobody can be named" if self.culprit is None else f"{seat_name(self.culprit)}"
        return f"{self.check}: {who}: {self.reason}"


class _Failed(Exception):
    def __init__(self, check: str, culprit: int | None, reason: str,
                 move: int | None = None) -> None:
        super().__init__(reason)
        self.verdict = HandVerdict(check, culprit, reason, move=move)


def check_blind_hand(record: BlindHand, before: GameState, clock: bool = False) -> HandVerdict:
    """Verify ``record`` against the match state ``before`` the hand (not changed); ``clock``:
    the match header declares a move clock (the host may then sign an away seat's resignation,
    and a seat's own bot may move for it: ``BlindMove.away``)."""
    return judge_blind_hand(record, before, clock)[0]


def judge_blind_hand(record: BlindHand, before: GameState, clock: bool = False,
                     dealer: int | None = None) -> tuple[HandVerdict, GameState]:
    """``check_blind_hand``'s verdict, and the match state after the hand (as far as the replay
    went: the next hand starts from it when the verdict is ok). ``dealer``: the host that dealt
    it, when another host signed its record (``dealer_of``)."""
    if record.unheld is not None:
        from lanomino.blind.unheld_check import judge_reshuffled  # (it walks with these steps)

        return judge_reshuffled(record, before, clock, dealer)
    state = before.copy()
    try:
        layout, tiles = _opened(record, before)
        ended = _moves(state, layout, tiles, record.moves, record.host, record.resignations,
                       clock)
        _score(record, ended)
    except _Failed as failed:
        return failed.verdict, state
    except BlindError as exc:  # what checked proofs cannot produce: say so, name nobody
        return HandVerdict("deck", None, str(exc)), state
    return HandVerdict(tiles=tiles), state


def dealer_of(record: BlindHand, host_before: int) -> int:
    """The host that dealt ``record``'s hand: the host of the hand before (``host_before``; seat
    0 before the first hand), if it holds a key in this one (a host lost between two hands holds
    none), else the record's own host (it dealt the hand after a takeover)."""
    return host_before if host_before in record.holders else record.host


def check_void_deal(record: BlindHand, before: GameState) -> HandVerdict:
    """A deal attempt the table called void (``no_double=reshuffle``: nobody holds a double)
    and dealt again: its keys, reveals, shuffles and "not me" answers as a played hand's
    (``keys``, ``reveal``, ``shuffle``, ``opening``, each naming its signer), then ``void``: it
    has no moves, resignations or points, every seat in the match said "not me" to every
    question of the opening, and the engine finds the deal void (else the host, which dealt
    again)."""
    try:
        layout, tiles = _opened(record, before)
        host = record.host
        if record.moves or record.resignations or record.points:
            raise _Failed("void", host, "a void deal has moves, resignations or points")
        said = {(c.seat, c.tile) for c in record.opening}
        seats = [s for s in range(before.players) if before.active[s]]
        if said != {(s, t) for t in questions(before.rules) for s in seats}:
            raise _Failed("void", host, "the deal was dealt again before every seat had said "
                          "\"not me\" to every question")
        hands, boneyard = split_deck([TILES[t] for t in tiles], before.active,
                                     before.rules.hand_size_for(before.players))
        if not isinstance(start_hand(before.copy(), hands, boneyard)[0], DealVoided):
            raise _Failed("void", host, "the deal was playable, yet it was dealt again")
    except _Failed as failed:
        return failed.verdict
    except BlindError as exc:
        return HandVerdict("deck", None, str(exc))
    return HandVerdict(tiles=tiles)


def _opened(record: BlindHand, before: GameState) -> tuple[DealLayout, tuple[int, ...]]:
    """The checks of the deal itself (keys, reveals, shuffles, the opening's answers): the
    deal's layout and the deck's tiles by position."""
    ctx = _keys(record)
    _reveals(record, ctx)
    deck = _shuffles(record, ctx)
    tiles = open_all(ctx, deck, {r.seat: r.secret for r in record.reveals})
    layout = DealLayout.for_deal(record.tiles, before.active,
                                 before.rules.hand_size_for(before.players))
    _opening(record, layout, tiles)
    return layout, tiles


def _keys(record: BlindHand) -> Context:
    base = Context(record.table, record.hand, record.attempt, record.tiles, record.holders)
    by_seat = {k.seat: k for k in record.keys}
    for seat in record.holders:
        if seat not in by_seat:
            raise _Failed("keys", seat, "its key is not in the record")
        try:
            check_key(base, by_seat[seat])
        except BlindFault as fault:
            raise _Failed("keys", fault.seat, str(fault)) from None
    return base.with_keys(by_seat[s].key for s in record.holders)


def _reveals(record: BlindHand, ctx: Context, lost: Sequence[int] = ()) -> None:
    by_seat = {r.seat: r for r in record.reveals}
    for seat in (s for s in record.holders if s not in lost):
        if seat not in by_seat:
            raise _Failed("reveal", seat, "withheld its key at the hand's end")
        if base_mul(by_seat[seat].secret) != ctx.key_of(seat):
            raise _Failed("reveal", seat, "revealed a secret that is not its key")


def _shuffles(record: BlindHand, ctx: Context) -> Deck:
    """The final deck, each shuffle checked from the open deck on."""
    if [e.seat for e in record.shuffles] != list(record.holders):
        raise _Failed("shuffle", record.host, "the record does not list one shuffle per holder "
                      "in seat order")
    seeds = {r.seat: r.seed for r in record.reveals}
    deck = open_deck(aggregate_key(ctx.keys), ctx.tiles)
    for entry in record.shuffles:
        deck = _one_shuffle(ctx, entry, seeds.get(entry.seat), deck, record.host)
    return deck


def _one_shuffle(ctx: Context, entry: ShuffleEntry, seed: bytes | None, before: Deck,
                 host: int) -> Deck:
    if seed is not None:
        after = gen_shuffle(before, aggregate_key(ctx.keys), seed).deck
        if deck_digest(after) != entry.digest:
            raise _Failed("shuffle", entry.seat, "its seed does not reproduce the deck it signed")
        return after
    if entry.turn is None:
        raise _Failed("shuffle", entry.seat, "withheld its shuffle seed")
    if ShuffleEntry.of(entry.turn) != replace(entry, turn=None):  # not the turn it signed
        raise _Failed("shuffle", host, f"the turn kept for {seat_name(entry.seat)}'s lost seed "
                      "is not the one it signed")
    try:
        return check_shuffle(ctx, entry.turn, before)
    except BlindFault as fault:
        raise _Failed("shuffle", entry.seat, str(fault)) from None


def _opening(record: BlindHand, layout: DealLayout,
             tiles: tuple[int, ...] | Mapping[int, int]) -> None:
    known = tiles if isinstance(tiles, Mapping) else dict(enumerate(tiles))
    for claim in record.opening:
        dealt = layout.dealt[claim.seat] if claim.seat < len(layout.dealt) else ()
        if claim.tile.index in [known.get(p) for p in dealt]:
            raise _Failed("opening", claim.seat, f"said \"not me\" for {claim.tile}, "
                          "which it was dealt")


def replay_moves(before: GameState, layout: DealLayout, tiles: tuple[int, ...],
                 moves: Sequence[BlindMove], host: int,
                 resignations: Sequence[Resignation] = (), clock: bool = False,
                 ) -> tuple[HandVerdict, GameState, HandEnded | None]:
    """The hand's moves (and its resignations, each after ``at`` moves) replayed by the full
    engine once every tile is known (the ``moves`` check above; ``tiles`` is the deck by
    position, ``host`` the seat that gave out the draws, ``clock`` as ``check_blind_hand``'s).
    (the verdict on the moves, the match state they led to, the hand's end if it ended)."""
    state = before.copy()
    try:
        ended = _moves(state, layout, tiles, moves, host, resignations, clock)
    except _Failed as failed:
        return replace(failed.verdict, tiles=tiles), state, None
    return HandVerdict(tiles=tiles), state, ended


def _moves(state: GameState, layout: DealLayout, tiles: tuple[int, ...],
           moves: Sequence[BlindMove], host: int, resignations: Sequence[Resignation] = (),
           clock: bool = False) -> HandEnded | None:
    deck = [TILES[t] for t in tiles]
    hands, boneyard = split_deck(deck, state.active, state.rules.hand_size_for(state.players))
    start_hand(state, hands, boneyard)
    held = {p: seat for seat, ps in enumerate(layout.dealt) for p in ps}
    walk = Walk(held, list(layout.boneyard), dict(enumerate(tiles)))
    return walk_moves(state, walk, moves, 0, host, resignations, clock)


@dataclass(slots=True)
class Walk:
    """Where the tiles are as the moves are walked: who holds each position, the boneyard's
    positions in draw order, how many were drawn, and the tile at each position known."""

    held: dict[int, int]  # position -> seat
    order: list[int]
    tiles: Mapping[int, int]
    drawn: int = 0

    def take(self, index: int, move: BlindMove, host: int) -> None:
        """``move``'s positions (the ``moves`` check's own part): a draw takes the boneyard's
        next; a play comes from a position its seat holds that holds its tile."""
        where = f"move {index + 1}"
        if isinstance(move.action, Draw):
            want = self.order[self.drawn] if self.drawn < len(self.order) else None
            if want is not None and move.position != want:
                raise _Failed("moves", host, f"{where}: the draw was given position "
                              f"{move.position}, not the boneyard's next ({want})", index)
            if want is not None:
                self.drawn += 1
                self.held[want] = move.seat  # (an empty boneyard: the engine refuses the draw)
        elif isinstance(move.action, Play):
            p = move.position
            if p is None or self.held.get(p) != move.seat:
                raise _Failed("moves", move.seat, f"{where}: played {move.action.tile} from "
                              f"position {p}, which it does not hold", index)
            if p in self.tiles and self.tiles[p] != move.action.tile.index:
                raise _Failed("moves", move.seat, f"{where}: position {p} holds another tile "
                              f"than the {move.action.tile} it played", index)
            del self.held[p]


def walk_moves(state: GameState, walk: Walk, moves: Sequence[BlindMove], start: int, host: int,
               resignations: Sequence[Resignation] = (), clock: bool = False
               ) -> HandEnded | None:
    """The moves from ``start`` on (and the resignations after ``start`` of them), replayed by
    the full engine on ``state``, every tile they touch known (``walk``)."""
    ended: HandEnded | None = None
    pending = [r for r in resignations if r.at >= start]
    for index, move in enumerate((*moves[start:], None), start):
        while pending and pending[0].at == index:
            resignation = pending.pop(0)
            if ended is not None and ended.end is HandEnd.BLOCKED and state.phase is Phase.OVER:
                continue  # (the block, unseen, ended the match before it: nothing to leave)
            ended = _resign(state, resignation, host, clock) or ended
        if move is None:
            break
        where = f"move {index + 1}"
        if move.away and not clock:  # (the host runs the move clock; without one, no bot)
            raise _Failed("moves", host, f"{where}: marked as the table's bot's, at a table "
                          "without a move clock", index)
        if ended is not None:
            # Nobody can see that a hand is blocked: the table learns it as every seat passes.
            # Those passes, after the engine (knowing every hand) ended it, are true claims.
            if isinstance(move.action, Pass) and ended.end is HandEnd.BLOCKED:
                continue
            raise _Failed("moves", host, f"{where}: the log goes on after the hand ended",
                          index)
        walk.take(index, move, host)
        seen = _public_refusal(state, move)
        if seen is not None:  # the host runs the rules on public state: it had to refuse it
            raise _Failed("moves", host, f"{where}: the host let in a move the table could see "
                          f"is not allowed: {seen}", index)
        try:
            events = apply(state, move.seat, move.action)
        except EngineError as exc:  # what only the hands tell: a claim, the seat's word
            raise _Failed("moves", move.seat, f"{where}: {exc}", index) from None
        ended = next((e for e in events if isinstance(e, HandEnded)), ended)
    return ended


def _public_refusal(state: GameState, move: BlindMove) -> str | None:
    """Why the rules refuse ``move`` on public facts alone (the turn, the line, the boneyard's
    count: what the host's public view checks, ``engine/public.py``), or None."""
    action, seat = move.action, move.seat
    try:
        check_turn(state, seat, action)
        if isinstance(action, Play):
            lay(state.copy(), seat, action)
    except IllegalActionError as exc:
        return str(exc)
    if isinstance(action, Draw):
        why = draw_refusal(state, seat)
        return None if why is None else f"{seat_name(seat)} may not draw: {why}"
    if isinstance(action, Pass):
        why = pass_refusal(state)
        return None if why is None else f"{seat_name(seat)} may not pass: {why}"
    return None


def _resign(state: GameState, resignation: Resignation, host: int, clock: bool
            ) -> HandEnded | None:
    """A resignation in its place: the engine's to allow, the host's to sign only for a seat that
    left or, at a table with a move clock, one away. The hand's end it makes, if any."""
    seat, signer = resignation.seat, resignation.signer(host)
    where = f"the resignation of {seat_name(seat)} after move {resignation.at}"
    if resignation.by == "away" and not clock:
        raise _Failed("moves", host, f"{where} is signed by the host as the seat's time running "
                      "out, at a table without a move clock")
    try:
        events = apply(state, seat, RESIGN)
    except EngineError as exc:
        raise _Failed("moves", signer, f"{where}: {exc}") from None
    return next((e for e in events if isinstance(e, HandEnded)), None)


def _score(record: BlindHand, ended: HandEnded | None) -> None:
    if ended is None:
        raise _Failed("score", record.host, "the hand did not end")
    if tuple(ended.points) != record.points:
        raise _Failed("score", record.host, f"signed points {list(record.points)}, the hand "
                      f"gave {list(ended.points)}")
