"""Resigning (seed 000), and what one seat may know (observe)."""

from __future__ import annotations

import pytest
from enginekit import deal_hand, game, play

from lanomino.engine import (
    DRAW,
    PASS,
    RESIGN,
    HandEnded,
    HandStarted,
    IllegalActionError,
    MatchEnd,
    MatchEnded,
    Phase,
    Resigned,
    Rules,
    TileDrawn,
    apply,
    can_resign,
    legal_actions,
    new_game,
    observe,
    parse_tile,
    start_hand,
)
from lanomino.engine.dealing import deal_for
from lanomino.engine.tiles import TILES


def test_two_players_resigning_hands_the_other_the_match() -> None:
    state = game(
        Rules.preset("classic"), ["6-6 5-5 6-5 1-0 2-0 3-0 4-0", "6-4 6-3 6-2 6-1 6-0 5-4 5-3"]
    )
    play(state, 0, "6-6")
    events = apply(state, 0, RESIGN)  # a seat may resign out of turn
    assert events[0] == Resigned(0)
    ended, outcome = events[1], events[2]
    assert isinstance(ended, HandEnded) and (ended.end, ended.winner) == ("resigned", 1)
    assert isinstance(outcome, MatchEnded) and outcome.winner == 1
    assert outcome.standings == (1, 0)
    assert state.phase is Phase.OVER
    assert not can_resign(state, 1)


def test_two_players_resigning_between_hands_ends_the_match() -> None:
    state = game(Rules.preset("classic", hand_size=1), ["6-6", "1-0"])
    play(state, 0, "6-6")
    assert state.phase is Phase.DEAL
    events = apply(state, 0, RESIGN)
    assert events[-1] == MatchEnded(1, (1, 0), (1, 0), MatchEnd.RESIGNED)


def test_three_players_resigning_takes_the_seat_and_its_tiles_off_the_table() -> None:
    state = game(Rules.preset("block", hand_size=2), ["5-5 5-1", "6-2 3-0", "5-4 5-3"])
    play(state, 0, "5-5")
    assert apply(state, 1, RESIGN) == [Resigned(1)]
    assert state.turn == 2 and state.phase is Phase.PLAY
    assert legal_actions(state, 1) == ()
    with pytest.raises(IllegalActionError):
        apply(state, 1, PASS)
    with pytest.raises(
        IllegalActionError, match="^seat 2 may not resign: that seat is not in the match$"
    ):
        apply(state, 1, RESIGN)
    play(state, 2, "5-3", "left")
    assert state.turn == 0  # seat 1 is skipped
    ended = play(state, 0, "5-1")[-1]
    assert isinstance(ended, HandEnded)
    assert ended.pips_left == (0, None, 9)
    assert ended.points == (9, 0, 0)  # the departed 6-2 and 3-0 do not count
    # The next deal gives the departed seat nothing.
    deal, rest = deal_for(state, list(TILES))
    assert [len(h) for h in deal] == [2, 0, 2]
    started = deal_hand(state, ["6-6 6-5", "", "5-5 4-4"])[0]
    assert isinstance(started, HandStarted) and started.hand_sizes == (2, 0, 2)


def test_last_seat_standing_wins_and_the_departed_rank_by_leaving_last_first() -> None:
    state = game(Rules.preset("block", hand_size=2), ["5-5 5-1", "6-2 3-0", "5-4 5-3"])
    play(state, 0, "5-5")
    apply(state, 1, RESIGN)
    events = apply(state, 2, RESIGN)
    ended, outcome = events[-2], events[-1]
    assert isinstance(ended, HandEnded) and (ended.end, ended.winner) == ("resigned", 0)
    assert ended.pips_left == (6, None, None)
    assert outcome == MatchEnded(0, (0, 0, 0), (0, 2, 1), MatchEnd.RESIGNED)


def test_resigning_with_the_only_playable_tiles_blocks_the_hand() -> None:
    state = game(Rules.preset("block", hand_size=2), ["6-6 1-0", "6-1 2-0", "3-3 2-1"])
    play(state, 0, "6-6")
    events = apply(state, 1, RESIGN)
    ended = events[-1]
    assert isinstance(ended, HandEnded) and ended.end == "blocked"
    assert ended.pips_left == (1, None, 9)
    assert (ended.winner, ended.points) == (0, (8, 0, 0))


def test_opener_resigning_before_leading_passes_the_lead_on_with_any_tile() -> None:
    state = game(Rules.preset("block", hand_size=2), ["6-6 1-0", "5-5 2-0", "3-3 2-1"])
    assert state.must_lead == parse_tile("6-6")
    apply(state, 0, RESIGN)
    assert (state.turn, state.opener, state.must_lead) == (1, 1, None)
    assert set(map(str, legal_actions(state, 1))) == {"play 5-5 left", "play 2-0 left"}


def test_partnership_resigning_concedes_for_the_team() -> None:
    state = new_game(Rules.preset("partnership"), 4)
    deal, rest = deal_for(state, list(TILES))
    from lanomino.engine import start_hand

    start_hand(state, deal, rest)
    events = apply(state, 2, RESIGN)
    assert events[-1] == MatchEnded(1, (0, 0), (1, 0), MatchEnd.RESIGNED)


# ----- observe -----------------------------------------------------------------------------------


def test_observation_holds_own_tiles_and_only_counts_of_others() -> None:
    state = game(
        Rules.preset("classic", hand_size=2), ["5-5 1-0", "6-3 2-0"], boneyard_front="4-1 5-2"
    )
    play(state, 0, "5-5")
    apply(state, 1, DRAW)
    apply(state, 1, DRAW)
    mine, theirs = observe(state, 1), observe(state, 0)
    assert {str(t) for t in mine.hand} == {"6-3", "2-0", "4-1", "5-2"}
    assert {str(t) for t in theirs.hand} == {"1-0"}
    assert theirs.hand_sizes == mine.hand_sizes == (1, 4)
    assert theirs.boneyard == 22
    drawn_seen_by_0 = [e for e in theirs.history if isinstance(e, TileDrawn)]
    drawn_seen_by_1 = [e for e in mine.history if isinstance(e, TileDrawn)]
    assert [e.tile for e in drawn_seen_by_0] == [None, None]
    assert [str(e.tile) for e in drawn_seen_by_1] == ["4-1", "5-2"]
    assert drawn_seen_by_0[0].ends == (5,)
    assert mine.legal == tuple(legal_actions(state, 1))
    assert theirs.legal == ()


def test_only_the_opener_sees_the_tile_it_must_lead() -> None:
    state = game(Rules.preset("classic", hand_size=2), ["1-0 2-0", "6-6 6-3"])
    assert observe(state, 1).must_lead == parse_tile("6-6")
    assert observe(state, 0).must_lead is None


def test_hands_are_public_once_the_hand_has_ended() -> None:
    state = game(Rules.preset("block", hand_size=2), ["6-6 3-1", "5-5 4-1"])
    play(state, 0, "6-6")
    ended = observe(state, 0).results[-1]
    assert [list(map(str, h)) for h in ended.hands] == [["3-1"], ["4-1", "5-5"]]


def test_observations_share_the_finished_hands_until_another_hand_ends() -> None:
    """The finished hands are not copied at every move: observations between two hand ends hold
    the very same tuple, equal to the state's results, and a new one once a hand has ended."""
    import random

    state = new_game(Rules.preset("classic", target=60), 2)
    rng = random.Random(7)
    seen: list[tuple[HandEnded, ...]] = []
    while state.phase is not Phase.OVER:
        deck = list(TILES)
        rng.shuffle(deck)
        dealt, boneyard = deal_for(state, deck)
        start_hand(state, dealt, boneyard)
        before = observe(state, 0).results
        while state.phase is Phase.PLAY:
            obs = observe(state, state.turn)
            assert obs.results is before and obs.results == tuple(state.results)
            apply(state, state.turn, rng.choice(obs.legal))
        seen.append(before)
    assert len(state.results) >= 2
    assert [len(r) for r in seen] == list(range(len(seen)))  # one more finished hand each time
    assert observe(state, 1).results == tuple(state.results)
