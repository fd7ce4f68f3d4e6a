"""A locked hand re-shuffled blind after a holder left without escrow, judged at its end. Pure.

The lost holder's key went with it, so not every position of the deal opens: the tiles it held
and the boneyard's undrawn ones stay shut for good. What opens: every position some survivor
held at the loss (the survivors reveal their keys; the lost holder's shares of those positions
were published during the hand and are kept, ``UnheldEntry.shares``), every tile played, and
every slot of the new deck (under the survivors' keys alone). Judged in this order, the first
failure naming its signer:

1. ``unheld`` each survivor's values of the round, made again from its revealed key and seed
   (``unheld_round.py``), are the ones it signed: its hand vector made from the hand it really
   held at the loss (else: it lied about its hand, or its seed does not make its value: that
   survivor), then its shuffle, its blinding, its opening shares; a kept share of a lost holder
   that does not hold, or one that is missing, is the host's (which kept them);
2. ``moves`` before the loss as far as the known tiles allow (``engine/placeholders.world_at``:
   the survivors' moves in full, the lost holder's tiles placeholders that must fit its moves);
   then the new deck takes the place of the boneyard (its first ``left`` tiles stand for those
   that left with the lost holder, as any resigned seat's tiles leave the table), and every move
   after the loss is checked in full, as in any locked hand (``hand_check.walk_moves``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lanomino.blind.deck import (
    Deck,
    aggregate_key,
    deck_bytes,
    deck_digest,
    opened,
    share_of,
    tile_of,
)
from lanomino.blind.gate import DealLayout
from lanomino.blind.group import BlindError, Point, base_mul, scalar_bytes
from lanomino.blind.hand_check import (
    HandVerdict,
    Walk,
    _Failed,
    _keys,
    _opening,
    _reveals,
    _score,
    _shuffles,
    walk_moves,
)
from lanomino.blind.hand_record import BlindHand, BlindMove, Resignation
from lanomino.blind.hashing import Context
from lanomino.blind.key_escrow import share_key, standing_context, standing_secret
from lanomino.blind.lead_rounds import needs_rounds
from lanomino.blind.rounds import BlindFault, Reveal, ShuffleTurn, check_share
from lanomino.blind.shuffle_proof import shuffle_with_argument
from lanomino.blind.unheld import blind, combine, hand_vector, opening_share, unheld_deck
from lanomino.blind.unheld_record import UnheldEntry
from lanomino.blind.unheld_round import (
    STEPS,
    blinding_bytes,
    opening_bytes,
    statement_digest,
    unheld_seed,
)
from lanomino.engine import RESIGN, Action, Draw, GameState, HandEnded, Pass, Play, Resign
from lanomino.engine.errors import seat_name
from lanomino.engine.placeholders import WorldError, world_at
from lanomino.engine.public import public_opener
from lanomino.engine.tiles import TILES, Tile


class _Claim:
    """A survivor seat's part of the deal, from the positions that opened (``world_at``)."""

    __slots__ = ("seat", "dealt", "drawn")

    def __init__(self, seat: int, dealt: tuple[Tile, ...], drawn: tuple[Tile, ...]) -> None:
        self.seat, self.dealt, self.drawn = seat, dealt, drawn


def survivors_of(ctx: Context, lost: Sequence[int]) -> Context:
    """The survivors' context: the deal's holders but the lost ones, with their keys."""
    seats = tuple(s for s in ctx.holders if s not in lost)
    return Context(ctx.table, ctx.hand, ctx.attempt, ctx.tiles, seats,
                   tuple(ctx.key_of(s) for s in seats))


def opened_positions(ctx: Context, deck: Deck, secrets: Mapping[int, int],
                     entry: UnheldEntry, host: int) -> dict[int, int]:
    """The tile of every position of the deal that opens: the survivors' revealed keys and one
    kept share of each lost holder (at an escrow table whose escrow a first loss spent, a
    position drawn since opens with the keys the others stood in with: each survivor's key and
    its sub-share, and the second lost holder's kept share under them)."""
    late: frozenset[int] = frozenset()
    standing, stood = ctx, dict(secrets)
    spent = entry.escrow
    if spent is not None:
        owner, commitments = spent.owner, spent.commitments
        if not commitments or commitments[0] != ctx.key_of(owner):
            raise _Failed("unheld", host, "kept escrow commitments that are not for the key of "
                          f"{seat_name(owner)}")
        standing = standing_context(ctx, owner, commitments)
        for seat, sub in zip(secrets, spent.sub_shares, strict=True):
            if base_mul(sub) != share_key(commitments, seat):
                raise _Failed("unheld", host, f"kept a sub-share of {seat_name(seat)} that does "
                              "not fit the commitments")
            stood[seat] = standing_secret(ctx, owner, seat, secrets[seat], sub)
        late = frozenset(spent.late)
    kept: dict[int, dict[int, Point]] = {}
    for share in entry.shares:
        if share.seat not in entry.lost:
            raise _Failed("unheld", host, f"kept a share of {seat_name(share.seat)}, which did "
                          "not leave")
        try:
            point = check_share(standing if share.position in late else ctx, deck, share)
        except BlindFault as fault:
            raise _Failed("unheld", host, f"kept a share that does not hold: {fault}") from None
        kept.setdefault(share.position, {})[share.seat] = point
    tiles = {}
    for p, c in enumerate(deck):
        lost = kept.get(p, {})
        gone = [s for s in entry.lost if p not in late or s in standing.holders]
        if set(lost) == set(gone):
            keys = stood if p in late else secrets
            points = [share_of(x, c) for x in keys.values()] + list(lost.values())
            tiles[p] = tile_of(opened(c, points), ctx.tiles)
    return tiles


def _remade(ctx: Context, entry: UnheldEntry, reveals: Mapping[int, Reveal],
            hands: Mapping[int, set[int]], on_line: frozenset[int], count: int) -> Deck:
    """The round made again from the survivors' keys and seeds, each value's digest checked
    against the one its survivor signed; the new deck."""
    seats, key = ctx.holders, aggregate_key(ctx.keys)

    def signed(step: int, i: int, value: bytes, what: str) -> None:
        if statement_digest(entry.number, STEPS[step], value) != entry.sent[step][i]:
            raise _Failed("unheld", seats[i], f"its {what} is not the one it signed")

    seeds = {}
    for s in seats:
        seed = reveals[s].seed
        if seed is None:
            raise _Failed("unheld", s, "withheld its seed, which makes its re-shuffle")
        seeds[s] = unheld_seed(seed, entry.number)
    vectors = []
    subs = () if entry.escrow is None else entry.escrow.sub_shares
    for i, s in enumerate(seats):
        vectors.append(hand_vector(ctx, hands[s], seeds[s]))
        kept = scalar_bytes(subs[i]) if subs else b""
        signed(0, i, deck_bytes(vectors[-1]) + kept, "hand vector, made from the tiles it held "
               "at the loss and its seed,")
    deck = combine(ctx, vectors, on_line)
    for i, s in enumerate(seats):
        before = deck
        deck, argument = shuffle_with_argument(ctx, s, before, key, seeds[s])
        signed(1, i, ShuffleTurn(s, deck_digest(before), deck, argument).to_bytes(), "shuffle")
    shuffled, blinded = deck, deck
    for i, s in enumerate(seats):
        after, proofs = blind(ctx, s, blinded, seeds[s])
        signed(2, i, blinding_bytes(after, proofs), "blinding")
        blinded = after
    openings = {}
    for i, s in enumerate(seats):
        openings[s] = tuple(opening_share(ctx, s, reveals[s].secret, blinded, slot)
                            for slot in range(len(blinded)))
        signed(3, i, opening_bytes(openings[s]), "opening")
    try:
        return unheld_deck(ctx, shuffled, blinded, openings, count, checked=True)
    except BlindError as exc:  # (cannot be, with every vector true: said, naming nobody)
        raise _Failed("unheld", None, str(exc)) from None


def judge_reshuffled(record: BlindHand, before: GameState, clock: bool,
                     dealer: int | None = None) -> tuple[HandVerdict, GameState]:
    """``judge_blind_hand`` of a hand re-shuffled blind after a holder left (``unheld_check``):
    ``keys``, ``reveal`` (of the survivors), ``shuffle``, then ``unheld`` and ``moves``, then
    ``opening`` (of the tiles that opened) and ``score``. No deck by position: not every
    position opens. ``dealer``: the host that dealt the hand (``_unheld_deal``)."""
    assert record.unheld is not None
    try:
        ctx, deck, layout = _unheld_deal(record, before, dealer)
        verdict, state, ended, tiles = _reshuffled(
            before, layout, ctx, deck, {r.seat: r for r in record.reveals}, record.unheld,
            record.moves, record.host, record.resignations, clock)
        if not verdict.ok:
            return verdict, state
        _opening(record, layout, tiles)
        _score(record, ended)
    except _Failed as failed:
        return failed.verdict, before.copy()
    except BlindError as exc:
        return HandVerdict("deck", None, str(exc)), before.copy()
    except Unscorable as exc:  # (given up at the table: no record keeps such a hand)
        return HandVerdict("moves", record.host, f"it is kept with points, but {exc}"), \
            before.copy()
    return HandVerdict(), state


def _unheld_deal(record: BlindHand, before: GameState, dealer: int | None = None
                 ) -> tuple[Context, Deck, DealLayout]:
    """A re-shuffled hand's keys, survivors' reveals and shuffles checked: its context, its
    deal's final deck and its layout. Raises ``_Failed``, BlindError."""
    assert record.unheld is not None
    ctx = _keys(record)
    _reveals(record, ctx, record.unheld.lost)
    deck = _shuffles(record, ctx)
    # (who opens each seat's tiles: a seat that holds no key is a host-side bot, whose tiles the
    # host that dealt the hand opened, ``dealer``: a host lost in the hand took them with it, and
    # the hand vectors are made from the tiles each survivor opened)
    bots = record.host if dealer is None else dealer
    openers = tuple(n if n in record.holders else bots for n in range(before.players))
    return ctx, deck, DealLayout.for_deal(record.tiles, before.active,
                                          before.rules.hand_size_for(before.players), openers)


def reshuffled_world(record: BlindHand, before: GameState, dealer: int | None = None
                     ) -> tuple[GameState, int]:
    """The match state of a hand re-shuffled blind (``record.unheld``) once the new deck is the
    boneyard: the moves before the loss walked with the lost holder's tiles as placeholders
    (``unheld_check.unheld_world``); and how many moves came before it. For a replay of a
    verified transcript (``fair/walk2.py``; ``dealer`` as ``judge_reshuffled``'s). Raises
    BlindError when the record does not hold."""
    assert record.unheld is not None
    try:
        ctx, deck, layout = _unheld_deal(record, before, dealer)
        state, _walk, _tiles, cut = unheld_world(
            before, layout, ctx, deck, {r.seat: r for r in record.reveals}, record.unheld,
            record.moves, record.host, record.resignations)
    except _Failed as failed:
        raise BlindError(failed.verdict.describe()) from None
    except Unscorable as exc:
        raise BlindError(str(exc)) from None
    return state, cut


def replay_reshuffled(before: GameState, layout: DealLayout, ctx: Context, deck: Deck,
                      reveals: Mapping[int, Reveal], entry: UnheldEntry,
                      moves: Sequence[BlindMove], host: int,
                      resignations: Sequence[Resignation] = (), clock: bool = False,
                      ) -> tuple[HandVerdict, GameState, HandEnded | None]:
    """``replay_moves`` of a hand re-shuffled blind after a holder left: the round's checks and
    the moves (``unheld_check.replay_unheld``); ``deck`` is the deal's final deck, ``reveals``
    the survivors'."""
    verdict, state, ended, _tiles = _reshuffled(before, layout, ctx, deck, reveals, entry, moves,
                                                host, resignations, clock)
    return verdict, state, ended


def _reshuffled(before: GameState, layout: DealLayout, ctx: Context, deck: Deck,
                reveals: Mapping[int, Reveal], entry: UnheldEntry, moves: Sequence[BlindMove],
                host: int, resignations: Sequence[Resignation], clock: bool
                ) -> tuple[HandVerdict, GameState, HandEnded | None, Mapping[int, int]]:
    try:
        state, ended, tiles = replay_unheld(before, layout, ctx, deck, reveals, entry, moves,
                                            host, resignations, clock)
    except _Failed as failed:
        return failed.verdict, before.copy(), None, {}
    except BlindError as exc:
        return HandVerdict("deck", None, str(exc)), before.copy(), None, {}
    return HandVerdict(), state, ended, tiles


def _opener(before: GameState, moves: Sequence[BlindMove]) -> int:
    """Who opened the hand: the public rule's seat, else the seat that led (the rounds)."""
    if not needs_rounds(before):
        return public_opener(before)[0]
    if not moves:
        raise BlindError("a hand whose opening asked the table has no lead")
    return moves[0].seat


def replay_unheld(before: GameState, layout: DealLayout, ctx: Context, deck: Deck,
                  reveals: Mapping[int, Reveal], entry: UnheldEntry,
                  moves: Sequence[BlindMove], host: int, resignations: Sequence[Resignation],
                  clock: bool) -> tuple[GameState, HandEnded | None, dict[int, int]]:
    """The round's checks and the moves (the module docstring), on a copy of ``before``: the
    state they led to, the hand's end if it came, every tile known by position (the new deck's
    slots after the deal's positions). Raises ``_Failed``."""
    state, after, tiles, cut = unheld_world(before, layout, ctx, deck, reveals, entry, moves,
                                            host, resignations)
    later = [r for r in resignations if r.at > entry.at]
    return state, walk_moves(state, after, moves, cut, host, later, clock), tiles


def unheld_world(before: GameState, layout: DealLayout, ctx: Context, deck: Deck,
                 reveals: Mapping[int, Reveal], entry: UnheldEntry, moves: Sequence[BlindMove],
                 host: int, resignations: Sequence[Resignation]
                 ) -> tuple[GameState, Walk, dict[int, int], int]:
    """The round's checks and the moves before the loss (``replay_unheld``'s first part), on a
    copy of ``before``: the state once the new deck is the boneyard, where its tiles are, every
    tile known by position, and the number of moves before it (the later ones are walked from
    there: a draw the loss cut short among them). Raises ``_Failed``."""
    rest = survivors_of(ctx, entry.lost)
    secrets = {s: reveals[s].secret for s in rest.holders}
    known = opened_positions(ctx, deck, secrets, entry, host)
    cut = entry.at if entry.redrawn is None else entry.redrawn
    if entry.redrawn is not None and entry.redrawn != entry.at - 1:
        raise _Failed("unheld", host, "the draw given again is not the last move before the loss")
    walk = Walk({p: seat for seat, ps in enumerate(layout.dealt) for p in ps},
                list(layout.boneyard), known)
    for index in range(cut):
        walk.take(index, moves[index], host)
    ours = {p: seat for p, seat in walk.held.items() if layout.openers[seat] in rest.holders}
    if any(p not in known for p in ours):
        raise _Failed("unheld", host, "the record lacks a lost holder's share of a tile a "
                      "survivor held")
    hands = {s: {known[p] for p, seat in ours.items() if layout.openers[seat] == s}
             for s in rest.holders}
    on_line = frozenset(m.action.tile.index for m in moves[:cut] if isinstance(m.action, Play))
    new = _remade(rest, entry, reveals, hands, on_line, ctx.tiles - len(on_line) - len(ours))
    base = len(deck)
    new_tiles = [tile_of(opened(c, [share_of(x, c) for x in secrets.values()]), ctx.tiles)
                 for c in new]
    state = before.copy()
    claims = {}
    for seat, positions in enumerate(layout.dealt):
        if positions and layout.openers[seat] in rest.holders:
            drawn = [m.position for m in moves[:cut]
                     if isinstance(m.action, Draw) and m.seat == seat]
            if any(p not in known for p in (*positions, *drawn)):
                raise _Failed("unheld", host, "the record lacks a lost holder's share of a "
                              f"tile {seat_name(seat)} held")
            claims[seat] = _Claim(seat, tuple(TILES[known[p]] for p in positions),
                                  tuple(TILES[known[p]] for p in drawn if p is not None))
    early = [r for r in resignations if r.at <= entry.at]  # (the lost holder's among them)
    played: list[tuple[int, Action]] = []
    for index in range(cut + 1):
        played += [(r.seat, RESIGN) for r in early if min(r.at, cut) == index]
        if index < cut:
            played.append((moves[index].seat, moves[index].action))
    try:
        world = world_at(state, 1, _opener(before, moves), claims, played)
    except WorldError as exc:
        if exc.check == "blocked" and exc.move is not None:
            _blocked_unseen(exc.move, played, moves[cut:], entry, host)
        raise _Failed("moves", host if exc.seat is None else exc.seat,
                      f"before the re-shuffle: {exc}") from None
    state = world.state
    boneyard = [TILES[t] for t in new_tiles[entry.left:]]
    if len(state.boneyard) - state.drawn != len(boneyard):
        raise _Failed("unheld", host, f"the new deck gives {len(boneyard)} tiles to the "
                      f"boneyard, which has {len(state.boneyard) - state.drawn}")
    state.boneyard = state.boneyard[:state.drawn] + boneyard
    tiles = {**known, **{base + i: t for i, t in enumerate(new_tiles)}}
    after = Walk(walk.held, [*layout.boneyard[:walk.drawn],
                             *range(base + entry.left, base + len(new))], tiles, walk.drawn)
    return state, after, tiles, cut



class Unscorable(Exception):
    """The hand was blocked before a holder left it, and nobody could see it: the table learns of
    a block only as every seat passes, and the holder left during that round of passes. The
    block's points need the lost holder's tiles, locked under the key that went with it, so the
    hand cannot be counted by the rules: it is given up and dealt again among the people left,
    as a hand a holder leaves at its end without escrow (``leave_rule``), decided alike at every
    side once the survivors' keys are out (``table_leave.settle_unheld``)."""


def _blocked_unseen(at: int, played: Sequence[tuple[int, Action]], later: Sequence[BlindMove],
                    entry: UnheldEntry, host: int) -> None:
    """``world_at`` found the hand blocked at ``played[at]``, whatever the lost holder held:
    raises Unscorable when every move after it is a pass (or a resignation): the table learning
    of the block. Anything else goes on after the hand's end: the host let it in."""
    if any(not isinstance(a, (Pass, Resign)) for _s, a in played[at + 1:]) \
            or any(not isinstance(m.action, Pass) for m in later):
        raise _Failed("moves", host, "the log goes on after the hand was blocked")
    who = " and ".join(seat_name(s) for s in entry.lost)
    raise Unscorable(f"the hand was blocked before {who} left, which nobody could see; the "
                     "block's points need the tiles that left locked under that key, so the "
                     "hand cannot be counted and is dealt again")
