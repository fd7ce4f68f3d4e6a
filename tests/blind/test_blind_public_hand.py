"""The host on public state (``engine/public.py``) and the scores after the reveal
(``blind/settle.py``): random hands of every preset where the public view, fed the public part of
a full-information game, agrees with the full engine move by move and then on the points; a seat
that lies in a claim is named, by ``settle`` and by ``check_blind_hand`` alike; and a locked hand
driven end to end with the host on the public view only."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from blindkit import TABLE, draw, public_shares, run_deal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanomino.blind.deck import deck_digest
from lanomino.blind.gate import DealLayout
from lanomino.blind.hand_check import check_blind_hand
from lanomino.blind.hand_record import BlindHand, BlindMove, NotMe, ShuffleEntry
from lanomino.blind.lead_rounds import LeadRounds, needs_rounds
from lanomino.blind.rounds import Share, check_play, open_all
from lanomino.blind.settle import Settlement, settle
from lanomino.engine import (
    DRAW,
    PASS,
    RESIGN,
    TILES,
    Action,
    DealVoided,
    Draw,
    End,
    Event,
    GameState,
    HandEnd,
    HandEnded,
    MatchEnded,
    Pass,
    Phase,
    Play,
    Resign,
    Rules,
    Tile,
    TileDrawn,
    apply,
    legal_actions,
    new_game,
    start_hand,
)
from lanomino.engine.dealing import deal_for
from lanomino.engine.play import draw_refusal, pass_refusal
from lanomino.engine.public import PublicHand, public_opener
from lanomino.engine.tiles import tiles_in

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *[(p, n, {}) for p in ("classic", "block", "allfives") for n in (2, 3, 4)],
    ("partnership", 4, {}),
    ("partnership", 4, {"game": "allfives", "round_to_5": True}),
    ("classic", 2, {"boneyard_reserve": 2, "draw_when_playable": True}),
    ("classic", 3, {"no_double": "reshuffle", "next_opener": "highest-double"}),
    ("classic", 4, {"next_opener": "alternate", "no_winner_opener": "next-seat"}),
    ("allfives", 2, {"draw_when_playable": True, "boneyard_reserve": 2}),
    ("block", 2, {"target": 0, "blocked_tie": "lightest-tile"}),
    ("allfives", 3, {"target": 15}),  # hands that end at the target during play
]


@dataclass
class Table:
    """One hand at a table of seats that each keep their own tiles; the host has only ``view``.
    ``referee`` is the full engine fed the same moves, while every move has been honest."""

    view: PublicHand
    deck: list[Tile]
    layout: DealLayout
    hands: list[int]  # each seat's own tiles, as a mask (the seat's knowledge, not the host's)
    referee: GameState | None
    moves: list[BlindMove] = field(default_factory=list)
    drawn: int = 0
    lie_at: int | None = None  # the move at which a seat lied in a claim

    def position_of(self, tile: Tile) -> int:
        return self.deck.index(tile)

    def act(self, seat: int, action: Action) -> list[Event]:
        """The seat's move: the host's public view takes it, the seat's own tiles follow."""
        events = self.view.apply(seat, action)
        position = None
        if isinstance(action, Play):
            position = self.position_of(action.tile)
            self.hands[seat] &= ~action.tile.bit
        elif isinstance(action, Draw):
            position = self.layout.boneyard[self.drawn]
            self.drawn += 1
            self.hands[seat] |= self.deck[position].bit
        elif isinstance(action, Resign):  # in the log, not among the record's moves
            self.hands[seat] = 0
            return events
        self.moves.append(BlindMove(seat, action, position))
        return events


def deal(before: GameState, rng: random.Random) -> tuple[Table | None, GameState]:
    """A random deal: the referee engine dealt it, the public view opens as it says. (None for
    a void deal, which the opening's rounds find without a hand to play; the referee)."""
    deck = list(TILES)
    rng.shuffle(deck)
    referee = before.copy()
    if isinstance(start_hand(referee, *deal_for(referee, deck))[0], DealVoided):
        return None, referee
    if not needs_rounds(before):  # the opener follows from public facts: the view finds it
        assert public_opener(before) == (referee.opener, referee.must_lead)
    # (else the lead rounds find the engine's opener: tests/blind/test_blind_lead_rounds.py)
    view = PublicHand(before, referee.opener, referee.must_lead)
    assert view.started == referee.history[0]
    layout = DealLayout.for_deal(len(TILES), before.active,
                                 before.rules.hand_size_for(before.players))
    return Table(view, deck, layout, list(referee.hands), referee), referee


def assert_same_position(view: PublicHand, full: GameState) -> None:
    """The host's public view shows what the full engine shows."""
    for part in ("ends", "double", "counted", "pending", "spinner", "tiles", "first"):
        assert getattr(view.line, part) == getattr(full.line, part), part
    assert view.counts == [len(full.hand_of(s)) for s in range(full.players)]
    assert view.boneyard_left() == full.boneyard_left()
    assert view.core.drawable == full.drawable
    assert view.core.active == full.active and view.core.hand_points == full.hand_points
    if full.phase is Phase.PLAY:  # (the end's points come with the reveal)
        assert view.turn == full.turn and view.outcome is None
        assert view.core.scores == full.scores


def public_part(events: list[Event]) -> list[Event]:
    """What the table sees of a full engine's events: no hand's end (that comes with the
    reveal) and no drawn tile."""
    out: list[Event] = []
    for e in events:
        if isinstance(e, HandEnded | MatchEnded):
            continue
        out.append(TileDrawn(e.seat, None, e.ends, e.boneyard) if isinstance(e, TileDrawn) else e)
    return out


def false_claim(view: PublicHand, seat: int, legal: Sequence[Action]) -> Action | None:
    """The claim ``seat``, whose legal moves are ``legal``, could make falsely now: it holds a
    tile that fits, yet says it cannot play (a draw, where the rules forbid drawing then; else
    a pass)."""
    if not any(isinstance(a, Play) for a in legal) or view.line.tiles == 0:
        return None
    if not view.core.rules.draw_when_playable and draw_refusal(view.core, seat) is None:
        return DRAW
    return PASS if pass_refusal(view.core) is None else None


def play_hand(table: Table, rng: random.Random, lie: bool = False, resign: bool = False
              ) -> None:
    """Random moves until the public view says the hand is over, each seat choosing from its own
    tiles with the view's ``legal_for``; while nobody has lied, the referee engine takes every
    move too and the two must agree. With ``lie``, the first seat that can lies once; with
    ``resign``, now and then a seat leaves (not necessarily the one to move)."""
    view = table.view
    while view.outcome is None:
        seat = view.turn
        legal = view.legal_for(seat, tiles_in(table.hands[seat]))
        full = table.referee
        if full is not None and full.phase is Phase.PLAY:
            assert tuple(legal) == tuple(legal_actions(full, seat))
        action: Action = rng.choice(list(legal))
        if lie and table.lie_at is None and (false := false_claim(view, seat, legal)) is not None:
            action, table.lie_at, table.referee = false, view.moves, None
            full = None
        if resign and full is not None and full.phase is Phase.PLAY and rng.random() < 0.05:
            action = RESIGN
            seat = rng.choice([s for s in range(full.players) if full.active[s]])
        public = table.act(seat, action)
        if full is None:
            continue
        if full.phase is Phase.PLAY:
            assert public == public_part(apply(full, seat, action))
        else:  # the engine, knowing every hand, ended it blocked: the seats pass in turn
            assert full.results[-1].end is HandEnd.BLOCKED and isinstance(action, Pass)
        assert_same_position(view, full)


def check_end(table: Table, full: GameState, settled: Settlement) -> None:
    """The end the table saw is the engine's, and the scores after the reveal are its scores."""
    ended = full.results[-1]
    assert table.view.outcome is not None and table.view.outcome.end is ended.end
    if ended.end in (HandEnd.DOMINO, HandEnd.TARGET):
        assert table.view.outcome.seat == ended.tally.seat
    assert settled.verdict.ok, settled.verdict.describe()
    assert settled.ended == ended
    assert settled.points == tuple(ended.points)
    assert settled.state.scores == full.scores and settled.state.phase is full.phase


def tiles_of(table: Table) -> tuple[int, ...]:
    return tuple(t.index for t in table.deck)


def playouts(examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A random-playout test: ``match`` a new match of one of CONFIGS, ``rng`` its chance."""
    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                        suppress_health_check=[HealthCheck.too_slow])(
            given(match=st.sampled_from(CONFIGS).map(lambda c: new_game(
                Rules.preset(c[0], **c[2]), c[1])),
                  rng=st.integers(0, 2**32 - 1).map(random.Random))(test))
    return decorate


@playouts(120)
def test_the_public_view_agrees_with_the_full_engine_move_by_move(
    match: GameState, rng: random.Random
) -> None:
    before = match
    for _ in range(3):  # a few hands: later hands open by the public rules
        table, full = deal(before, rng)
        if table is None:
            before = full  # as the void deal left it
            continue
        play_hand(table, rng)
        settled = settle(table.view, before, table.layout, tiles_of(table), table.moves, 0)
        check_end(table, full, settled)
        if full.phase is Phase.OVER:
            break
        before = settled.state


@playouts(60)
def test_a_seat_that_lies_in_a_claim_is_named(match: GameState, rng: random.Random) -> None:
    before = match
    table, _full = deal(before, rng)
    if table is None:
        return
    play_hand(table, rng, lie=True)
    settled = settle(table.view, before, table.layout, tiles_of(table), table.moves, 0)
    if table.lie_at is None:  # nobody ever held a tile that fits at a moment to claim
        assert settled.verdict.ok
        return
    liar = table.moves[table.lie_at].seat
    verdict = settled.verdict
    assert (verdict.check, verdict.culprit, verdict.move) == ("moves", liar, table.lie_at)
    assert "fits" in verdict.reason
    assert settled.false_claim is not None
    assert (settled.false_claim.seat, settled.false_claim.move) == (liar, table.lie_at)
    assert settled.ended is None


@playouts(60)
def test_resignations_agree_with_the_full_engine(match: GameState, rng: random.Random) -> None:
    table, full = deal(match, rng)
    if table is None:
        return
    play_hand(table, rng, resign=True)
    ended, outcome = full.results[-1], table.view.outcome
    assert outcome is not None and outcome.end is ended.end
    if ended.end is HandEnd.RESIGNED:
        assert outcome.winner == ended.winner and outcome.seat == full.departed[-1]


# ----- a locked hand, end to end -------------------------------------------------------------


def locked_hand(n: int, seed: int, lie: bool = False, rules: Rules | None = None
                ) -> tuple[BlindHand, GameState, Settlement, int | None]:
    """The blind core deals; the host runs only the public view; each seat keeps its own tiles,
    answers the opening's rounds from them and proves each play, which the host checks; each
    draw opens through the holders' gates for the drawer alone. At the end the keys are
    revealed, the hand settled and its record written. (record, before, settlement, lie's
    move)."""
    rules = rules or Rules.classic()
    dealt = run_deal(n)
    before = new_game(rules, n)
    layout = dealt.round.layout
    own: list[dict[int, int]] = [dict(zip(layout.dealt[s], dealt.hands[s], strict=True))
                                 for s in range(n)]  # each seat's positions -> tile index

    def tiles_held(seat: int) -> list[Tile]:
        return [TILES[t] for t in own[seat].values()]

    lead = LeadRounds(rules, tuple(range(n)))
    while lead.leader is None and (asked := lead.question()) is not None:
        for seat in range(n):
            if asked.index in own[seat].values():
                lead.lead(seat, asked)
                break
            lead.not_me(seat)
    assert lead.leader is not None  # the classic rules lead the heaviest tile with no double
    view = PublicHand(before, *lead.leader)
    moves: list[BlindMove] = []
    rng = random.Random(seed)
    lie_at = None
    while view.outcome is None:
        seat = view.turn
        legal = list(view.legal_for(seat, tiles_held(seat)))
        action = rng.choice(legal)
        if lie and lie_at is None and (false := false_claim(view, seat, legal)) is not None:
            action, lie_at = false, view.moves  # "I cannot play", holding a tile that fits
        position = None
        if isinstance(action, Play):
            position = next(p for p, t in own[seat].items() if t == action.tile.index)
            share = dealt.holders[seat].play(position)
            assert isinstance(share, Share)
            check_play(dealt.ctx, dealt.deck, seat, position, action.tile.index, share,
                       public_shares(dealt, position), seat)  # the host checks the proof
            view.apply(seat, action)
            del own[seat][position]
        elif isinstance(action, Draw):
            view.apply(seat, action)
            position, tile = draw(dealt, seat)  # the holders read the log, the drawer opens
            own[seat][position] = tile
        else:
            view.apply(seat, action)
        moves.append(BlindMove(seat, action, position))
    reveals = tuple(h.reveal() for h in dealt.holders)
    tiles = open_all(dealt.ctx, dealt.deck, {r.seat: r.secret for r in reveals})
    settled = settle(view, before, layout, tiles, moves, 0)
    points = settled.points if settled.ended is not None else (0,) * n
    record = BlindHand(
        TABLE, 1, 1, len(TILES), 0, dealt.ctx.holders,
        tuple(h.announce() for h in dealt.holders),
        tuple(ShuffleEntry(t.seat, deck_digest(t.deck)) for t in dealt.round.turns),
        tuple(NotMe(s, t) for s, t in lead.claims), tuple(moves), reveals, points)
    return record, before, settled, lie_at


@pytest.mark.parametrize(("n", "seed"), [(2, 3), (3, 1), (4, 2)])
def test_a_locked_hand_runs_on_the_public_view_and_verifies(n: int, seed: int) -> None:
    record, before, settled, _ = locked_hand(n, seed)
    assert settled.verdict.ok, settled.verdict.describe()
    verdict = check_blind_hand(record, before)
    assert verdict.ok, verdict.describe()
    assert settled.verdict.tiles == verdict.tiles
    assert sum(settled.points) > 0 or settled.ended.end is HandEnd.BLOCKED  # type: ignore[union-attr]


def test_a_locked_hand_blocked_by_passes_verifies() -> None:
    record, before, settled, _ = locked_hand(2, 7, rules=Rules.block())
    assert settled.ended is not None and settled.ended.end is HandEnd.BLOCKED
    # The table learnt it as both seats passed in turn, after the engine had ended it.
    assert [(m.seat, m.action) for m in record.moves[-2:]] in (
        [(0, PASS), (1, PASS)], [(1, PASS), (0, PASS)])
    assert check_blind_hand(record, before).ok


@pytest.mark.parametrize(("n", "seed"), [(3, 4), (4, 5)])
def test_a_false_i_cannot_play_in_a_locked_hand_is_named_alike(n: int, seed: int) -> None:
    record, before, settled, lie_at = locked_hand(n, seed, lie=True)
    assert lie_at is not None
    liar = record.moves[lie_at].seat
    verdict = check_blind_hand(record, before)
    assert (verdict.check, verdict.culprit) == ("moves", liar)
    assert (settled.verdict.check, settled.verdict.culprit, settled.verdict.reason) == (
        verdict.check, verdict.culprit, verdict.reason)
    assert settled.false_claim is not None and settled.false_claim.seat == liar
    did = "draw" if isinstance(record.moves[lie_at].action, Draw) else "pass"
    assert f"may not {did}" in verdict.reason and "fits" in verdict.reason


def test_the_public_view_refuses_what_the_table_can_see_and_keeps_claims() -> None:
    """What public facts decide is refused on the spot, in the engine's words; an "I cannot
    play, so I draw" is kept as a claim and the drawn tile stays out of the log."""
    before = new_game(Rules.classic(), 2)
    view = PublicHand(before, 0, TILES[27])
    with pytest.raises(ValueError, match="seat 1 may not draw: the hand has not been opened"):
        view.apply(0, DRAW)
    with pytest.raises(ValueError, match="must be opened with 6-6"):
        view.apply(0, Play(TILES[26], End.LEFT))
    view.apply(0, Play(TILES[27], End.LEFT))
    with pytest.raises(ValueError, match="seat 2 may not pass: the boneyard has tiles to draw"):
        view.apply(1, PASS)
    with pytest.raises(ValueError, match="seat 2 may not play 6-6: it is on the line"):
        view.apply(1, Play(TILES[27], End.LEFT))
    with pytest.raises(ValueError, match="it is seat 2's turn"):
        view.apply(0, DRAW)
    view.apply(1, DRAW)
    assert view.counts == [6, 8] and view.boneyard_left() == 13 and view.turn == 1
    assert [str(c) for c in view.claims] == ["seat 2 drew at move 2: no tile with 6"]
    assert isinstance(view.log[-1], TileDrawn) and view.log[-1].tile is None
