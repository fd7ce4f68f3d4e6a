"""What a whole match at 60x20 and 80x24 showed still cut or left behind: the target in your
hand's row cut to "(to 100", the header's "hand 6 is…", "(playing to" parted from "100)", and the
"fits 2 places" question still on screen in the next hand once answered."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from tablekit import four_one_fits_both_ends, game, play
from test_table_words import FOUR, PARTNER_HANDS, at_table, screen

from lanomino.engine import RESIGN, End, Rules, apply
from lanomino.ui.board import LineView, Placed, draw_chain, tracks
from lanomino.ui.chrome import wrap
from lanomino.ui.state import confirm


def own_row(text: str) -> str:
    return next(row for row in text.splitlines() if "Your hand" in row)


def test_your_row_shows_the_target_whole_or_not_at_all() -> None:
    state = game(Rules.preset("partnership"), PARTNER_HANDS)
    play(state, 0, "6-6")
    play(state, 1, "6-5", End.LEFT)
    play(state, 2, "6-2", End.RIGHT)  # Cleo's turn: her name is the longest "to play"
    wide, narrow = (own_row(screen(at_table(state, FOUR), w, h)) for w, h in ((80, 24), (60, 20)))
    assert wide.endswith("· 0 pts (to 100)   Cleo to play")
    assert narrow.endswith("· 0 pts   Cleo to play") and "(to 100" not in narrow


def test_a_narrow_header_keeps_the_hand_whole() -> None:
    state = game(Rules.preset("partnership"), PARTNER_HANDS)
    events = apply(state, 0, RESIGN)
    top = screen(at_table(state, FOUR, events), 60, 20).splitlines()[0]
    assert "Partnership Block to 100 · hand 1 is over" in top
    assert "Partnership Block game to 100 · hand 1 is over" in screen(
        at_table(state, FOUR, events)).splitlines()[0]


def test_answering_where_to_play_takes_the_question_away() -> None:
    state = four_one_fits_both_ends()
    ui = at_table(state, ("You", "Ana"))
    assert ui.obs is not None
    ui.selected = [str(t) for t in ui.obs.hand].index("4-1")
    assert confirm(ui) is None and "4-1 fits 2 places" in ui.message  # where?
    assert confirm(ui) is not None and ui.message == ""  # answered: nothing left to say


def test_a_line_breaks_between_the_parts_and_never_inside_brackets() -> None:
    assert wrap("Match score: You and Ben 92 · Ana and Cleo 0 (playing to 100)", 56) == [
        "Match score: You and Ben 92 ·", "Ana and Cleo 0 (playing to 100)"]
    points = ("Points this hand: You 10 (10 for the ends) · Ana 0 · Ben 30 (10 for the pips, "
              "20 for the ends)")
    assert wrap(points, 76) == ["Points this hand: You 10 (10 for the ends) · Ana 0 ·",
                                "Ben 30 (10 for the pips, 20 for the ends)"]
    assert wrap("Each player gets 7 tiles (28 in all).", 30) == ["Each player gets 7 tiles",
                                                                  "(28 in all)."]
    check = ("Deal check: verified ✓ (hand 1: fair: 2 commitments, 28 tiles, 11 draws, "
             "scores 16-0)")
    assert wrap(check, 76) == ["Deal check: verified ✓",  # (the mark stays with its word)
                               "(hand 1: fair: 2 commitments, 28 tiles, 11 draws, scores 16-0)"]
    row = f"{'Against':34} {'Matches':>7} {'Wins':>5} {'Win rate':>9}"  # the stats table's
    assert wrap(row, 76) == [row]  # a line that fits keeps its columns


@given(st.lists(st.sampled_from(["a", "Ben", "65", "(55", "pips)", "·", "(to 100)", "tiles,",
                                 "abcdefghijklmnop"]), max_size=30),
       st.integers(min_value=1, max_value=90))
def test_wrapping_loses_no_word_and_keeps_every_line_in_width(words: list[str],
                                                             width: int) -> None:
    text = " ".join(words)
    lines = wrap(text, width)
    assert all(len(line) <= width for line in lines)
    assert "".join(" ".join(lines).split()) == "".join(text.split())


def test_a_line_too_long_for_the_board_says_it_goes_on_over_whole_tiles_only() -> None:
    """The end-of-hand board at 60x20 showed "[2|5][ …line goes on": half a tile, and a note
    where only the lower halves of doubles were missing."""
    chain = tuple(Placed(i % 7, (i + 1) % 7, False) for i in range(20))
    needed = tracks(LineView(chain), 30)
    last_middle = 3 * (needed - 1) + 1  # the row the last track's flat tiles sit on
    assert needed >= 3
    for height in range(2, 3 * needed + 1):
        text = draw_chain(chain, 30, height, colour=False).text()
        for row in text.splitlines():
            assert not re.search(r"[\[|]", re.sub(r"\[\d\|\d\]", "", row)), (height, row)
        assert ("line goes on" in text) == (last_middle >= height), (height, text)
