"""The narrator over real local matches: every public event said exactly once, in order, however
the observations arrive; a watcher is never spoken to as "you"."""

from __future__ import annotations

import random
import re

import pytest

from lanomino.bots import get_bot
from lanomino.engine import Event, Passed, Phase, Rules, TileDrawn, TilePlayed
from lanomino.lines.narrator import Narrator
from lanomino.lines.say import Voice
from lanomino.localgame import LocalMatch, make_config

NAMES = ("Zoe", "Ana", "Ben", "Cleo")


def played_match(seed: int, rules: Rules, players: int, every: int, seat: int = 0,
                 plays: bool = True, words: bool = False) -> tuple[list[str], list[Event]]:
    """Bots play a whole match; the narrator hears seat ``seat``'s observation after every
    ``every``-th move and around each deal (only after it for a huge ``every``). Returns what it
    said and every event that happened."""
    match = LocalMatch(make_config(rules, players, ("random",), NAMES[0], seed))
    rng = random.Random(seed)
    narrator = Narrator(words=words, plays=plays)
    said: list[str] = []
    events: list[Event] = []
    moves = 0
    while not match.is_over:
        if match.state.phase is Phase.DEAL:
            if every < 1000:  # the hand's end is seen before the next deal, as the client sees it
                said += narrator.update(match.observe(seat), NAMES[:players])
            events += match.deal()
            said += narrator.update(match.observe(seat), NAMES[:players])
            continue
        turn = match.state.turn
        events += match.apply(turn, get_bot("random")(match.observe(turn), rng))
        moves += 1
        if moves % every == 0:
            said += narrator.update(match.observe(seat), NAMES[:players])
    said += narrator.update(match.observe(seat), NAMES[:players])
    return said, events


@pytest.mark.parametrize("every", [1, 3])
@pytest.mark.parametrize("preset,players", [("classic", 3), ("allfives", 2), ("partnership", 4)])
def test_every_play_draw_and_pass_is_said_once(preset: str, players: int, every: int) -> None:
    said, events = played_match(11, Rules.preset(preset, target=60), players, every)
    plays = [e for e in events if isinstance(e, TilePlayed)]
    assert len([s for s in said if re.match(r"\w+ (opened with|played) ", s)]) == len(plays)
    draws = [e for e in events if isinstance(e, TileDrawn)]
    assert len([s for s in said if re.match(r"\w+ drew ", s)]) == len(draws)
    passes = [e for e in events if isinstance(e, Passed)]
    assert len([s for s in said if re.match(r"\w+ passed: no ", s)]) == len(passes)
    hands = len([s for s in said if re.match(r"Hand \d+ is over: ", s)])
    assert hands == len([e for e in events if type(e).__name__ == "HandEnded"])
    assert len([s for s in said if s.startswith("The match is over: ")]) == 1


def test_the_plays_are_said_in_order_with_the_ends_after_each() -> None:
    said, events = played_match(4, Rules.classic(target=0), 2, 1)
    plays = [e for e in events if isinstance(e, TilePlayed)]
    spoken = [s for s in said if re.match(r"\w+ (opened with|played) ", s)]
    voice = Voice(NAMES[:2], 0)
    for event, sentence in zip(plays, spoken, strict=True):
        assert sentence.startswith(f"{voice.who(event.seat)} ")
        assert f" {event.tile}" in sentence and "Ends: " in sentence
        if not event.first:
            assert f" on the {event.end}." in sentence


def test_a_late_observation_still_reports_the_hand_it_skipped() -> None:
    """Seen only at deals: the plays in between are lost with the history, never the results."""
    said, events = played_match(7, Rules.classic(target=100), 2, every=10_000)
    results = [e for e in events if type(e).__name__ == "HandEnded"]
    assert len([s for s in said if s.startswith("Scores: ")]) == len(results)


def test_a_watcher_hears_names_and_never_you() -> None:
    said, _ = played_match(5, Rules.classic(target=60), 3, 1, plays=False)
    assert said and not [s for s in said if re.search(r"\b[Yy]ou(r)?\b", s)]
    assert any(s.startswith("Zoe ") for s in said)


def test_your_turn_names_your_hand_and_what_fits() -> None:
    said, _ = played_match(3, Rules.classic(target=0), 2, 1)
    turns = [i for i, s in enumerate(said) if s == "Your turn."]
    assert turns
    for i in turns:
        assert said[i + 1].startswith("Your hand: 1: ")
        assert re.match(r"(You lead\. )?Playable: \d+: |Nothing fits", said[i + 2])


def test_words_say_tiles_as_words() -> None:
    said, _ = played_match(3, Rules.classic(target=0), 2, 1, words=True)
    text = " ".join(said)
    assert not re.search(r"\b\d-\d\b", text)
    assert re.search(r"\b(blank|one|two|three|four|five|six)-(blank|one|two|three|four|five)\b"
                     r"|double-", text)


@pytest.mark.parametrize("preset", ["classic", "allfives"])
def test_the_board_reads_the_line_left_to_right_as_it_lies(preset: str) -> None:
    """Every neighbour on the board touches with the same number, and the outer numbers are the
    left and right ends (the spinner's arms go out from it the same way)."""
    checked = arms = 0
    for seed in range(12):
        match = LocalMatch(make_config(Rules.preset(preset, target=0), 2, ("random",), "You", seed))
        match.deal()
        rng = random.Random(seed)
        while match.state.phase is Phase.PLAY:
            turn = match.state.turn
            match.apply(turn, get_bot("random")(match.observe(turn), rng))
            obs = match.observe(0)
            if obs.phase != "play" or obs.line.is_empty:
                continue
            board = Narrator().board(obs, names=NAMES[:2])
            laid = re.fullmatch(r"The line from left to right: (.*)\.", board[0])
            assert laid, board
            tiles = [tuple(map(int, t.split("-"))) for t in laid[1].split(", ")]
            assert all(a[1] == b[0] for a, b in zip(tiles, tiles[1:], strict=False)), board
            assert (tiles[0][0], tiles[-1][1]) == (obs.line.ends[0], obs.line.ends[1])
            for line in board[1:]:
                arm = re.fullmatch(r"(Above|Below) the spinner, going out: (.*)\.", line)
                if arm:
                    arms += 1
                    out = [tuple(map(int, t.split("-"))) for t in arm[2].split(", ")]
                    assert all(a[1] == b[0] for a, b in zip(out, out[1:], strict=False))
                    assert out[-1][1] == obs.line.ends[2 if arm[1] == "Above" else 3]
            checked += 1
    assert checked > 100 and (arms > 0) == (preset == "allfives")


def test_a_reader_out_of_time_hears_their_moves_as_the_table_bots() -> None:
    """While the move clock has the table's bot play for the reader, the reader's own plays,
    draws and passes are said as the bot's, for them; back in time, as their own again; nobody
    else's moves change."""
    match = LocalMatch(make_config(Rules.classic(target=0), 2, ("random",), NAMES[0], 5))
    rng = random.Random(5)
    narrator = Narrator()
    match.deal()
    said: list[str] = narrator.update(match.observe(0), NAMES[:2])
    while match.state.phase is not Phase.DEAL and not match.is_over:
        narrator.away = len(match.state.history) < 6  # away for the first moves, then back
        turn = match.state.turn
        match.apply(turn, get_bot("random")(match.observe(turn), rng))
        said += narrator.update(match.observe(0), NAMES[:2])
    moves = r"(opened with|played|drew|passed)"
    bots = [s for s in said if re.match(rf"The table's bot, for you, {moves} ", s)]
    own = [s for s in said if re.match(rf"You {moves} ", s)]
    assert bots and own, said
    assert [s for s in said if re.match(rf"Ana {moves} ", s)], said  # the other seat: unchanged
    assert said.index(bots[-1]) < said.index(own[0])  # away first, then back


def test_a_draw_still_opening_is_said_with_its_tile_and_only_then_is_it_your_turn() -> None:
    """The locked deck opens the reader's drawn tile a moment after the draw: meanwhile the
    observation shows the draw without its tile and no move to make. The narrator waits: no
    "you drew a tile", no "your turn" with the old hand; once open, the draw with its tile, then
    the turn with the new hand, each said once."""
    from dataclasses import replace

    match = LocalMatch(make_config(Rules.classic(target=0), 2, ("random",), NAMES[0], 11))
    rng = random.Random(11)
    narrator = Narrator()
    match.deal()
    narrator.update(match.observe(0), NAMES[:2])
    checked = 0
    while match.state.phase is not Phase.DEAL and not match.is_over:
        turn = match.state.turn
        action = get_bot("random")(match.observe(turn), rng)
        match.apply(turn, action)
        obs = match.observe(0)
        last = obs.history[-1]
        if turn == 0 and isinstance(last, TileDrawn) and obs.is_my_turn:
            opening = replace(obs, hand=tuple(t for t in obs.hand if t != last.tile), legal=(),
                              history=(*obs.history[:-1], last._replace(tile=None)))
            assert narrator.update(opening, NAMES[:2]) == []  # nothing yet
            said = narrator.update(obs, NAMES[:2])  # the tile opened
            assert said[0].startswith(f"You drew {last.tile}, "), said
            hand = narrator.voice(obs, NAMES[:2]).numbered(obs.hand)
            assert said[1:3] == ["Your turn.", f"Your hand: {hand}."], said
            assert narrator.update(obs, NAMES[:2]) == []  # said once
            checked += 1
        else:
            narrator.update(obs, NAMES[:2])
    assert checked >= 2


@pytest.mark.parametrize("resigned_first", [False, True])
def test_a_hand_dealt_again_under_its_number_says_who_left_and_starts_over(
        resigned_first: bool) -> None:
    """A locked table deals a hand again, under the same number, without a person who left it
    before it could be scored: the narrator says who left and that the hand starts over, then
    the new deal as any, instead of staying silent on a history as long as the old one. Also
    when the leaver was resigned as a move of the deal given up (``resigned_first``: lost in the
    round of passes after a block nobody could see, and found out at the hand's end)."""
    from dataclasses import replace

    from lanomino.engine import HandStarted, Resigned

    match = LocalMatch(make_config(Rules.classic(target=0), 3, ("random",), NAMES[0], 4))
    rng = random.Random(4)
    narrator = Narrator()
    narrator.departures = ((2, "did not come back"),)
    match.deal()
    first = match.observe(0)
    narrator.update(first, NAMES[:3])
    turn = match.state.turn
    match.apply(turn, get_bot("random")(match.observe(turn), rng))
    narrator.update(match.observe(0), NAMES[:3])
    if resigned_first:
        now = match.observe(0)
        narrator.update(replace(now, active=(True, True, False),
                                history=(*now.history, Resigned(2))), NAMES[:3])
    started = first.history[0]
    assert isinstance(started, HandStarted)
    again = replace(first, active=(True, True, False), history=(started._replace(
        opener=1, hand_sizes=(*started.hand_sizes[:2], 0), boneyard=started.boneyard + 5),))
    said = narrator.update(again, NAMES[:3])
    assert said[0] == "Ben did not come back: hand 1 is dealt again among the players left."
    assert said[1].startswith("Hand 1: Ana to open"), said
    assert narrator.update(again, NAMES[:3]) == []  # said once
