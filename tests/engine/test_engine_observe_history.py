"""An observation's public history: shared per seat, never copied, and exactly what it was."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from lanomino.engine import (
    PRESETS,
    TILES,
    GameState,
    Phase,
    Rules,
    TileDrawn,
    apply,
    new_game,
    observe,
)
from lanomino.engine.dealing import deal_for
from lanomino.engine.line import Line
from lanomino.engine.observe import History, Observation, public_events
from lanomino.engine.state import start_hand


def _line_fields(line: Line) -> tuple[object, ...]:
    return (line.fives, tuple(line.ends), tuple(line.double), tuple(line.counted),
            frozenset(line.pending), line.spinner, line.tiles, line.first)


def _playouts(rules: Rules, players: int, seed: int) -> list[tuple[Observation, list[object]]]:
    """Random matches; after every move, each seat's observation and the full history then."""
    return [(obs, history) for obs, history, _ in _playouts_with_lines(rules, players, seed)]


def _playouts_with_lines(
    rules: Rules, players: int, seed: int
) -> list[tuple[Observation, list[object], tuple[object, ...]]]:
    """``_playouts``, with each moment's line as plain values too."""
    rng = random.Random(seed)
    state = new_game(rules, players)
    seen: list[tuple[Observation, list[object], tuple[object, ...]]] = []
    while state.phase is not Phase.OVER and state.hand_no < 30:
        deck = list(TILES)
        rng.shuffle(deck)
        start_hand(state, *deal_for(state, deck))
        while state.phase is Phase.PLAY:
            for seat in range(players):
                seen.append((observe(state, seat), list(public_events(state.history, seat)),
                             _line_fields(state.line)))
            obs = observe(state, state.turn)
            apply(state, state.turn, rng.choice(obs.legal))
    return seen


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_history_stays_the_public_history_of_its_moment(preset: str) -> None:
    players = 4 if preset == "partnership" else 3
    seen = _playouts(Rules.preset(preset, target=60), players, seed=len(preset))
    assert len(seen) > 50
    for obs, expected in seen:  # checked after the match: later moves changed nothing
        assert isinstance(obs.history, History)
        assert list(obs.history) == expected
        assert obs.history == tuple(expected) and tuple(expected) == obs.history
        assert len(obs.history) == len(expected)
        assert hash(obs.history) == hash(tuple(expected))
        if expected:
            assert obs.history[0] == expected[0] and obs.history[-1] == expected[-1]
            assert obs.history[1:3] == tuple(expected[1:3])
            assert list(reversed(obs.history)) == expected[::-1]
        for event in obs.history:
            if isinstance(event, TileDrawn) and event.seat != obs.seat:
                assert event.tile is None


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_line_stays_the_line_of_its_moment(preset: str) -> None:
    # Outside All Fives an observation's line shares what play no longer changes (Line.snapshot).
    players = 4 if preset == "partnership" else 3
    seen = _playouts_with_lines(Rules.preset(preset, target=60), players, seed=len(preset) + 1)
    assert len(seen) > 50
    for obs, _, line in seen:  # checked after the match: later moves changed nothing
        assert _line_fields(obs.line) == line
        trial = obs.line.copy()  # a copy of a snapshot is the caller's own
        if trial.tiles:
            trial.double[0] = not trial.double[0]
            trial.counted[1] = not trial.counted[1]
            assert _line_fields(obs.line) == line


def _dealt(seed: int) -> GameState:
    """A two-player Draw hand, just dealt."""
    state = new_game(Rules.classic(), 2)
    deck = list(TILES)
    random.Random(seed).shuffle(deck)
    start_hand(state, *deal_for(state, deck))
    return state


def test_a_history_refuses_an_index_past_its_moment() -> None:
    state = _dealt(3)
    before = observe(state, 0).history
    apply(state, state.turn, observe(state, state.turn).legal[0])
    after = observe(state, 0).history
    assert len(before) == 1 and len(after) == 2 and after[:1] == tuple(before)
    with pytest.raises(IndexError):
        before[1]
    with pytest.raises(IndexError):
        before[-2]
    assert before != after and repr(before) == f"History({tuple(before)!r})"


def test_a_history_answers_as_the_tuple_of_its_moment_does() -> None:
    # A Sequence by registration, with the ABC's mixin methods written out (observe.py).
    state = _dealt(4)
    for _ in range(3):
        apply(state, state.turn, observe(state, state.turn).legal[0])
    history = observe(state, 1).history
    later = history[-1]
    apply(state, state.turn, observe(state, state.turn).legal[0])
    events = tuple(history)
    assert isinstance(history, Sequence) and len(events) == 4
    assert history.index(events[2]) == 2 and history.index(events[2], 1, 3) == 2
    assert history.count(events[1]) == 1 and events[1] in history
    newest = state.history[-1]
    assert newest not in history and history.count(newest) == 0 and later in history
    with pytest.raises(ValueError):
        history.index(newest)
    with pytest.raises(ValueError):
        history.index(events[0], 1)


def test_a_copied_state_keeps_its_own_public_logs() -> None:
    state = _dealt(5)
    first = observe(state, 1).history
    trial = state.copy()
    apply(trial, trial.turn, observe(trial, trial.turn).legal[0])
    assert len(observe(trial, 1).history) == 2
    assert observe(state, 1).history == first and len(first) == 1


def test_observe_builds_the_same_frozen_value_as_the_class() -> None:
    # Compiled, observe stores the fields natively (observe.py): the value must be the same.
    seen = _playouts(Rules.classic(), 2, seed=9)
    for obs, _ in seen[::7]:
        assert isinstance(obs, Observation)
        again = Observation(**{f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)})
        assert again == obs and repr(again) == repr(obs)
        with pytest.raises(dataclasses.FrozenInstanceError):
            obs.turn = 5  # type: ignore[misc]
