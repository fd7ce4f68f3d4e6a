"""The hot path's prebuilt tables say what the general code says: the compiled build's place-indexed
plays, the shared events of plays and passes, and the counts of a hand's tiles. (The builders are
called here directly, so these run in the interpreted build too, where some tables stay empty.)"""

from __future__ import annotations

import random
import sys

import pytest

from lanomino.engine import End, Passed, Play, TilePlayed, apply, legal_actions
from lanomino.engine.tiles import TILES, WITH, tiles_in

legal = sys.modules["lanomino.engine.legal"]
observe_module = sys.modules["lanomino.engine.observe"]
play_module = sys.modules["lanomino.engine.play"]


def random_hands(count: int) -> list[int]:
    rng = random.Random(14)
    return [rng.getrandbits(len(TILES)) for _ in range(count)] + [0, (1 << len(TILES)) - 1]


def test_place_indexed_plays_are_the_plays_of_the_tiles_that_fit() -> None:
    for n in range(len(WITH)):
        bits = legal._place_bits(n)
        for e in (0, 1):
            by_place = legal._by_place(e, n)
            for hand in random_hands(400):
                place = (
                    bits[0][hand & 127] | bits[1][hand >> 7 & 127] | bits[2][hand >> 14 & 127]
                    | bits[3][hand >> 21 & 127]
                )
                expected = tuple(Play(t, End(e)) for t in tiles_in(hand & WITH[n]))
                assert by_place[place] == expected == legal._plays_table(e, n)[hand & WITH[n]]


def test_shared_play_and_pass_events_equal_events_built_afresh() -> None:
    from lanomino.engine import Rules, new_game, start_hand
    from lanomino.engine.dealing import deal_for

    rng = random.Random(5)
    for _ in range(300):  # play enough hands that many events are shared
        state = new_game(Rules.partnership_game(), 4)
        deck = list(TILES)
        rng.shuffle(deck)
        start_hand(state, *deal_for(state, deck))
        while state.phase.value == "play":
            moves = legal_actions(state, state.turn)
            apply(state, state.turn, moves[rng.randrange(len(moves))])
    kept = 0
    for seat in range(4):
        for tile in TILES:
            for end in (End.LEFT, End.RIGHT):
                for n in range(len(WITH)):
                    shared = play_module._PLAYED[seat][tile.index][end][n]
                    if shared is not None:
                        kept += 1
                        assert tile.has(n)
                        assert shared == TilePlayed(seat, tile, end, False, n, False)
                        assert type(shared) is TilePlayed and shared.end is end
        for left in range(len(WITH)):
            for right in range(len(WITH)):
                shared_pass = play_module._PASSED[seat][left][right]
                if shared_pass is not None:
                    kept += 1
                    ends = (left,) if left == right else (left, right)
                    assert shared_pass == Passed(seat, ends) and type(shared_pass) is Passed
    assert kept > 300


def test_a_play_whose_end_is_a_plain_number_records_that_number() -> None:
    from enginekit import game, play

    from lanomino.engine import Rules, parse_tile

    try:
        action = Play(parse_tile("5-1"), 1)  # type: ignore[arg-type]
    except TypeError:  # the compiled build's Play takes an End and nothing else
        pytest.skip("the compiled Play refuses an end that is not an End")
    state = game(Rules.preset("block", hand_size=2), ["5-2 1-0", "5-1 3-0"])
    play(state, 0, "5-2", "right")  # ends 2 and 5
    events = apply(state, 1, action)
    assert events[0] == TilePlayed(1, parse_tile("5-1"), End.RIGHT, False, 1, False)
    assert type(events[0].end) is int and events[0].end == 1


def test_tile_counts_and_held_tiles_match_the_plain_python() -> None:
    for hand in random_hands(2000):
        assert observe_module._tile_count(hand) == hand.bit_count()
    rng = random.Random(3)
    for _ in range(200):
        deck = list(TILES)
        rng.shuffle(deck)
        hands = [sum(t.bit for t in deck[i * 7 : i * 7 + 7]) for i in range(rng.randrange(2, 5))]
        assert play_module._held(hands) == sum(hands)


def test_legal_plays_on_a_two_ended_line_follow_the_hand() -> None:
    from lanomino.engine import Rules, new_game, start_hand
    from lanomino.engine.dealing import deal_for

    rng = random.Random(8)
    for _ in range(200):
        state = new_game(Rules.partnership_game(), 4)
        deck = list(TILES)
        rng.shuffle(deck)
        start_hand(state, *deal_for(state, deck))
        while state.phase.value == "play":
            seat = state.turn
            moves = legal_actions(state, seat)
            if state.line.tiles:
                ends = state.line.ends[:2]
                fits = [
                    Play(t, End(e)) for e in (0, 1) if e == 0 or ends[1] != ends[0]
                    for t in tiles_in(state.hands[seat] & WITH[ends[e]])
                ]
                assert list(moves) == (fits or [moves[0]])
            apply(state, seat, moves[rng.randrange(len(moves))])
