from __future__ import annotations

import re

from lanomino.engine import End, Play, Rules, apply, new_game, observe, parse_tile, start_hand
from lanomino.engine.tiles import TILES
from lanomino.ui.board import Placed, draw_chain, draw_line, line_view
from lanomino.ui.render import Canvas, draw_hand, tile_fragments
from lanomino.ui.screens import render_screen
from lanomino.ui.settings import Settings
from lanomino.ui.state import Screen, UiState, on_new_observation


def tiles(text: str) -> list:
    return [parse_tile(t) for t in text.split()]


HANDS = ["6-6 6-4 2-1 0-0 3-3 5-5 1-1", "6-5 4-3 6-2 2-2 0-1 0-2 0-3"]  # two seats' first hands


def deal_state(rules: Rules, hands: list[str]):
    state = new_game(rules, len(hands))
    dealt = [tiles(h) for h in hands]
    used = {t for h in dealt for t in h}
    start_hand(state, dealt, [t for t in TILES if t not in used])
    return state


def text_of(fragments) -> str:
    return "".join(text for _, text in fragments)


def test_tile_is_drawn_flat_with_its_numbers_in_order() -> None:
    assert text_of(tile_fragments(6, 4, colour=True)) == "[6|4]"
    assert text_of(tile_fragments(4, 6, colour=False)) == "[4|6]"


def test_coloured_pips_get_a_class_per_number_and_plain_ones_none() -> None:
    coloured = tile_fragments(6, 4, colour=True)
    assert any("pip.6" in style for style, _ in coloured)
    assert any("pip.4" in style for style, _ in coloured)
    plain = tile_fragments(6, 4, colour=False)
    assert not any("pip." in style for style, _ in plain)


def test_line_view_keeps_each_tile_facing_its_neighbours() -> None:
    state = deal_state(Rules.block(), HANDS)
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-5"), End.LEFT))
    apply(state, 0, Play(parse_tile("6-4"), End.RIGHT))
    apply(state, 1, Play(parse_tile("4-3"), End.RIGHT))
    view = line_view(observe(state, 0).history)
    assert [(p.near, p.far) for p in view.chain] == [(5, 6), (6, 6), (6, 4), (4, 3)]
    assert view.chain[1].is_double
    text = draw_chain(view.chain, 40, 3, colour=False).text()
    assert "[5|6]├─┤[6|4][4|3]" in text
    assert "╭6╮" in text.splitlines()[0] and "╰6╯" in text.splitlines()[2]


def test_long_line_turns_a_corner_and_runs_back() -> None:
    chain = tuple(Placed(i % 7, (i + 1) % 7, False) for i in range(12))
    canvas = draw_chain(chain, 30, 9, colour=False)
    rows = canvas.text().splitlines()
    # the first track reads left to right (two columns kept free for the left end's mark) ...
    assert rows[1].startswith("  [0|1][1|2][2|3][3|4][4|5]")
    # ... the next tile stands at the edge (three rows, like any standing tile), its top
    # matching the last flat tile and its bottom right above the next track's first tile ...
    corner_x = rows[1].index("╭")
    assert rows[1][corner_x + 1] == "5" and rows[3][corner_x : corner_x + 3] == "╰6╯"
    assert rows[4][corner_x + 1] == "6"
    # ... and the track below runs right to left, each tile facing the one before it
    assert rows[4][: corner_x + 3].endswith("[1|0][0|6]")
    flat = re.findall(r"\[(\d)\|(\d)\]", canvas.text())
    assert len(flat) == 10 and canvas.text().count("╭") == 2  # 12 tiles: two stand at corners
    assert "│ │" not in canvas.text()  # no corner is drawn four rows tall
    assert rows[4].startswith("  ╭4╮[4|3]") and rows[6].startswith("  ╰5╯")  # the second corner


def spinner_state(more: bool = False):
    """All Fives: 6-6 spins, 6-5 left, 6-4 right, 6-2 up, 6-1 down (and, with ``more``, 2-2 and
    2-5 up, 1-1 down)."""
    state = deal_state(Rules.allfives(),
                       ["6-6 6-4 6-1 0-0 3-3 5-5 1-1", "6-5 4-3 6-2 2-2 0-1 0-2 2-5"])
    moves = [(0, "6-6", None), (1, "6-5", End.LEFT), (0, "6-4", End.RIGHT), (1, "6-2", End.UP),
             (0, "6-1", End.DOWN)]
    if more:
        moves += [(1, "2-2", End.UP), (0, "1-1", End.DOWN), (1, "2-5", End.UP)]
    for seat, tile, end in moves:
        apply(state, seat, Play(parse_tile(tile), end))
    return state


def column_below(rows: list[str], x: int, y: int, n: int) -> list[str]:
    return [rows[y + i][x : x + 3] if y + i < len(rows) else "" for i in range(n)]


def test_spinner_arms_stand_above_and_below_the_spinner() -> None:
    view = line_view(observe(spinner_state(), 0).history)
    assert view.spinner is not None and view.spinner.is_double
    assert [(p.near, p.far) for p in view.up] == [(6, 2)]
    assert [(p.near, p.far) for p in view.down] == [(6, 1)]
    rows = draw_line(view, 80, 11, colour=False).text().splitlines()
    mid = next(i for i, r in enumerate(rows) if "├─┤" in r)
    x = rows[mid].index("├─┤")
    assert rows[mid][x - 5 : x + 8] == "[5|6]├─┤[6|4]"
    # up: 2 at the open end on top, 6 touching the spinner; down: 6 touching, 1 at the bottom
    assert column_below(rows, x, mid - 3, 7) == ["╭2╮", "╰6╯", "╭6╮", "├─┤", "╰6╯", "╭6╮", "╰1╯"]
    assert "up" not in "".join(rows) and "spinner" not in "".join(rows)  # no labelled row


def test_a_double_lies_across_its_arm_and_a_long_arm_keeps_its_open_end() -> None:
    view = line_view(observe(spinner_state(more=True), 0).history)
    rows = draw_line(view, 80, 11, colour=False).text().splitlines()
    mid = next(i for i, r in enumerate(rows) if "├─┤" in r)
    x = rows[mid].index("├─┤")
    assert rows[mid + 4][x - 1 : x + 4] == "[1|1]"  # below 6-1, across the arm
    assert column_below(rows, x, mid - 6, 5) == ["╭5╮", "╰2╯", "2|2", "╭2╮", "╰6╯"]
    # with little room the tile next to the spinner gives way and the rest are counted
    small = draw_line(view, 80, 8, colour=False).text().splitlines()
    mid = next(i for i, r in enumerate(small) if "├─┤" in r)
    assert small[mid - 3][x : x + 3] == "╭5╮" and "+2" in small[mid - 2]


def test_an_arm_with_no_room_is_listed_on_the_last_row() -> None:
    view = line_view(observe(spinner_state(), 0).history)
    text = draw_line(view, 80, 4, colour=False).text()
    assert text.splitlines()[-1].startswith("up ↑ [6|2]  down ↓ [6|1]")


def test_all_fives_table_at_80x24_shows_the_four_arms() -> None:
    state = spinner_state(more=True)
    ui = UiState(screen=Screen.TABLE, names=("You", "Ana"), seat_levels=("", "greedy"),
                 settings=Settings(colour=False))
    on_new_observation(ui, observe(state, 0))
    lines = text_of(render_screen(ui, 80, 24)).split("\n")
    mid = next(i for i, r in enumerate(lines) if "├─┤[6|4]" in r)
    x = lines[mid].index("├─┤[6|4]")
    assert lines[mid][x - 5 : x] == "[5|6]"
    assert lines[mid - 2][x : x + 3] == "╰6╯" and lines[mid + 2][x : x + 3] == "╭6╮"
    assert lines[mid + 4][x - 1 : x + 4] == "[1|1]"


def test_hand_marks_playable_tiles_and_the_selected_one() -> None:
    hand = tuple(tiles("0-0 3-1 5-4 6-4"))
    playable = {parse_tile("5-4"), parse_tile("6-4")}
    canvas = draw_hand(hand, playable, selected=3, width=80, colour=True)
    styles = {}
    for x in range(0, 24, 6):
        styles[canvas.cells[0][x + 1][0] + canvas.cells[0][x + 3][0]] = canvas.cells[0][x + 1][1]
    assert "tile.selected" in styles["64"]
    assert "tile.playable" in styles["54"]
    assert "tile.dim" in styles["00"] and "tile.dim" in styles["31"]
    assert canvas.text().splitlines()[1].split() == ["1", "2", "3", "▲"]


def test_monochrome_table_has_no_colour_classes_but_keeps_the_selection() -> None:
    state = deal_state(Rules.classic(), HANDS)
    ui = UiState(settings=Settings(colour=False), screen=Screen.TABLE, names=("You", "Ana"),
                 seat_levels=("", "normal"))
    on_new_observation(ui, observe(state, 0))
    fragments = render_screen(ui, 80, 24)
    assert not any("pip." in style for style, _ in fragments)
    assert any("tile.selected" in style for style, _ in fragments)


def test_table_shows_own_hand_and_never_an_opponents_tile() -> None:
    state = deal_state(Rules.classic(), HANDS)
    apply(state, 0, Play(parse_tile("6-6")))
    ui = UiState(screen=Screen.TABLE, names=("You", "Ana"), seat_levels=("", "normal"))
    on_new_observation(ui, observe(state, 0))
    canvas = Canvas(80, 24)
    screen = text_of(render_screen(ui, 80, 24))
    assert canvas.width == 80
    for t in state.hand_of(0):
        assert f"[{t.high}|{t.low}]" in screen
    for t in state.hand_of(1):
        assert f"[{t.high}|{t.low}]" not in screen and f"[{t.low}|{t.high}]" not in screen
    assert "Ana (normal)" in screen and "7 tiles" in screen
    lines = screen.split("\n")
    assert len(lines) == 24 and all(len(line) == 80 for line in lines)


def test_small_terminal_asks_for_more_room() -> None:
    assert "at least 40x16" in " ".join(text_of(render_screen(UiState(), 30, 10)).split())
