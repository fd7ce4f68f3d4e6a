"""Who leads a locked hand: the public rounds find the engine's opener on every deal, without
reading a hand; a void deal shows as every seat saying "not me" to every question."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from lanomino.blind.group import BlindError
from lanomino.blind.lead_rounds import LeadRounds, needs_rounds, questions
from lanomino.engine import TILES, Phase, Rules, new_game, start_hand
from lanomino.engine.dealing import split_deck


def rounds_for(rules: Rules, hands: list[list[int]]) -> LeadRounds:
    """Every seat answers truthfully from its own hand, in seat order."""
    lead = LeadRounds(rules, tuple(range(len(hands))))
    while (tile := lead.question()) is not None:
        for seat, hand in enumerate(hands):
            if tile.index in hand:
                lead.lead(seat, tile)
                break
            lead.not_me(seat)
    return lead


@pytest.mark.parametrize("no_double", ["heaviest", "reshuffle"])
@pytest.mark.parametrize("hand_size", [None, 1, 2])
def test_the_rounds_find_the_engines_opener(no_double: str, hand_size: int | None) -> None:
    rules = replace(Rules.classic(), no_double=no_double, hand_size=hand_size)
    voids = 0
    for n in (2, 3, 4):
        for game in range(60):
            deck = list(TILES)
            random.Random(game * 10 + n).shuffle(deck)
            hands, boneyard = split_deck(deck, [True] * n, rules.hand_size_for(n))
            state = new_game(rules, n)
            assert needs_rounds(state)
            start_hand(state, hands, boneyard)
            lead = rounds_for(rules, [[t.index for t in h] for h in hands])
            if state.phase is Phase.DEAL:  # the engine voided the deal
                voids += 1
                assert lead.void and lead.leader is None
            else:
                assert lead.leader == (state.opener, state.must_lead)
    if no_double == "heaviest":
        assert voids == 0
    elif hand_size == 1:
        assert voids > 0  # the void path was taken


def test_the_questions_follow_the_engines_order() -> None:
    order = questions(Rules.classic())
    assert [str(t) for t in order[:8]] == ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0",
                                           "6-5"]
    assert len(order) == 28 and str(order[-1]) == "1-0"
    assert len(questions(replace(Rules.classic(), no_double="reshuffle"))) == 7


def test_answers_out_of_turn_are_refused() -> None:
    lead = LeadRounds(Rules.classic(), (0, 1, 2))
    lead.not_me(0)
    with pytest.raises(BlindError, match="seat 1 already answered for 6-6"):
        lead.not_me(0)
    with pytest.raises(BlindError, match="seat 1 said it does not hold 6-6"):
        lead.lead(0, TILES[27])
    with pytest.raises(BlindError, match="seat 2 led 5-5, but the question is 6-6"):
        lead.lead(1, TILES[20])
    with pytest.raises(BlindError, match="seat 4 has no hand"):
        lead.not_me(3)
    lead.lead(1, TILES[27])
    assert lead.leader == (1, TILES[27]) and lead.question() is None
    with pytest.raises(BlindError, match="the rounds are over"):
        lead.not_me(2)
    assert lead.claims == [(0, TILES[27])]


def test_later_hands_need_no_rounds_unless_the_highest_double_always_leads() -> None:
    state = new_game(Rules.classic(), 2)
    state.dealt_hands, state.last_opener, state.last_winner_seat = 1, 0, 1
    assert not needs_rounds(state)
    # A hand nobody won (a blocked tie): the classic rules go back to the first hand's rule.
    state.last_winner_seat = None
    assert needs_rounds(state)
    state = new_game(replace(Rules.classic(), no_winner_opener="next-seat"), 2)
    state.dealt_hands, state.last_opener = 1, 0
    assert not needs_rounds(state)
    state = new_game(replace(Rules.classic(), next_opener="highest-double"), 2)
    state.dealt_hands = 3
    assert needs_rounds(state)
