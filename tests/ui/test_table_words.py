"""What the table says and shows: the right facts on the right screen, nothing lost at a hand's
end, the help that matches the table, partners, All Fives counts, marks on the board."""

from __future__ import annotations

from collections.abc import Sequence

from tablekit import deal_hand, four_one_fits_both_ends, game, play, show, went_out

from lanomino.engine import (
    DRAW,
    RESIGN,
    End,
    Event,
    GameState,
    Play,
    Rules,
    apply,
    observe,
    parse_tile,
)
from lanomino.ui.lan import LanView
from lanomino.ui.render import Canvas
from lanomino.ui.screens import draw_screen
from lanomino.ui.settings import Settings
from lanomino.ui.state import Screen, UiState, confirm, on_new_observation

FOUR = ("Tess", "Ana", "Ben", "Cleo")
PARTNER_HANDS = ["6-6 6-3 1-0 0-0 1-1 2-0 5-5", "6-5 3-2 6-0 2-1 2-2 3-1 3-3",
                 "5-4 6-2 5-3 5-2 4-4 3-0 4-1", "6-4 6-1 4-0 4-2 4-3 5-0 5-1"]


def at_table(state: GameState, names: tuple[str, ...], events: Sequence[Event] = ()) -> UiState:
    ui = UiState(screen=Screen.TABLE, names=names, seat_levels=("", *["normal"] * 3),
                 settings=Settings(colour=False))
    return show(ui, state, events)


def screen(ui: UiState, width: int = 80, height: int = 24) -> str:
    canvas = draw_screen(ui, Canvas(width, height))
    assert canvas.cut == []
    return canvas.text()


def test_after_you_resign_in_partnership_the_summary_says_so_and_ranks_fairly() -> None:
    state = game(Rules.preset("partnership"), PARTNER_HANDS)
    state.scores = [9, 0]
    events = apply(state, 0, RESIGN)
    text = " ".join(screen(at_table(state, FOUR, events)).split())
    assert "The match is over: Ana and Cleo won because you resigned." in text
    assert "the other side resigned" not in text
    assert "1. Ana and Cleo 0 pts" in text and "- You and Ben (resigned) 9 pts" in text


def test_partners_are_marked_on_the_table() -> None:
    state = game(Rules.preset("partnership"), PARTNER_HANDS)
    text = screen(at_table(state, FOUR))
    assert "Ben (partner)" in text and "Ana (partner)" not in text
    assert "Your hand · Tess · with Ben" in text


def test_the_block_game_shows_no_boneyard_and_the_draw_game_does() -> None:
    block = game(Rules.preset("block", hand_size=5), ["6-6 6-4 2-1 0-0 3-3", "6-5 4-3 6-2 2-2 0-1",
                                                      "5-5 1-1 4-4 0-3 0-4"])
    assert "boneyard" not in screen(at_table(block, ("You", "Ana", "Bo"))).splitlines()[0]
    draw = game(Rules.classic(), ["6-6 6-4 2-1 0-0 3-3 5-5 1-1", "6-5 4-3 6-2 2-2 0-1 0-2 0-3"])
    assert "boneyard 14" in screen(at_table(draw, ("You", "Ana"))).splitlines()[0]


def test_help_at_a_three_seat_table_counts_three_players_and_five_tiles() -> None:
    state = game(Rules.classic(), ["6-6 6-4 2-1 0-0 3-3", "6-5 4-3 6-2 2-2 0-1",
                                   "5-5 1-1 4-4 0-3 0-4"])
    ui = at_table(state, ("You", "Ana", "Bo"))
    ui.back, ui.screen = Screen.TABLE, Screen.HELP
    text = " ".join(screen(ui).split())
    assert "3 players" in text and "Each player gets 5 tiles" in text
    # hosting a three-seat table, before the first deal
    host = UiState(screen=Screen.HELP, back=Screen.WAITING, lan=LanView("host", "Den", seats=3))
    host.host_form.seats = 3
    text = " ".join(screen(host).split())
    assert "3 players" in text and "Each player gets 5 tiles" in text and "7 tiles" not in text


def test_help_away_from_a_table_shows_any_preset_and_settings_help_explains_settings() -> None:
    ui = UiState(screen=Screen.HELP, back=Screen.MENU)
    assert "the Draw game" in screen(ui) and "←/→ other rules" in screen(ui)
    from lanomino.ui.menus import step_help_preset

    seen = set()
    for _ in range(4):
        step_help_preset(ui, 1)
        seen.add(screen(ui).splitlines()[0].split("·")[1].strip())
    assert {"Block game to 100", "All Fives to 150", "Draw game to 100"} <= seen
    ui = UiState(screen=Screen.HELP, back=Screen.SETTINGS)
    text = screen(ui)
    assert "Auto-draw" in text and "Coloured pips" in text and "boneyard" not in text.lower()[:200]


def test_settings_names_the_level_a_new_game_will_use() -> None:
    ui = UiState(screen=Screen.SETTINGS, levels=["random", "greedy", "normal", "hard"])
    assert "‹ Normal (default) ›" in screen(ui) and "best available" not in screen(ui)


def test_all_fives_shows_the_running_count_and_the_open_arms() -> None:
    state = game(Rules.allfives(), ["6-6 6-4 1-1 0-0 3-3 5-5 4-4", "6-5 4-3 6-2 2-2 0-1 0-2 2-5"])
    events = play(state, 0, "6-6") + play(state, 1, "6-5", End.LEFT)
    events += play(state, 0, "6-4", End.RIGHT)
    ui = at_table(state, ("You", "Ana"), events)
    text = screen(ui)
    assert "ends 5 + 4 = 9: no score" in text
    rows = text.splitlines()
    mid = next(i for i, r in enumerate(rows) if "├─┤" in r)
    x = rows[mid].index("├─┤")
    assert rows[mid - 2][x + 1] == "↑" and rows[mid + 2][x + 1] == "↓"  # the arms are open


def test_the_last_tile_played_is_highlighted_and_the_ends_marked_when_choosing() -> None:
    state = four_one_fits_both_ends()
    ui = at_table(state, ("You", "Ana"))
    canvas = draw_screen(ui, Canvas(80, 24))
    last = "".join(ch for row in canvas.cells for ch, style in row if "tile.last" in style)
    assert last == "[6|1]"  # the tile played last, and only it
    assert ui.obs is not None
    ui.selected = ui.obs.hand.index(parse_tile("4-1"))
    assert confirm(ui) is None and len(ui.places) == 2  # 4-1 fits both ends: where?
    canvas = draw_screen(ui, Canvas(80, 24))
    rows = canvas.text().splitlines()
    marks = {(x, y): ch for y, row in enumerate(canvas.cells) for x, (ch, style) in enumerate(row)
             if "class:mark" in style}
    assert sorted(marks.values()) == ["1", "2"]
    (lx, ly), (rx, ry) = sorted(marks, key=lambda p: marks[p])
    assert rows[ly][lx + 1 : lx + 4] == "[4|"  # 1 marks the left end, before the 4
    assert rows[ry][rx - 3 : rx] == "|1]"  # 2 marks the right end, after the 1
    assert "Play where?  1: left (4)   2: right (1)" in canvas.text()


def test_auto_draw_says_what_it_did_for_you() -> None:
    state = game(Rules.classic(), ["0-0 1-0 1-1 2-0 2-1 2-2 3-0", "6-6 5-5 4-4 3-3 5-4 5-3 4-3"])
    play(state, 1, "6-6")
    drew = 0
    while not any(isinstance(a, Play) for a in observe(state, 0).legal):
        apply(state, 0, DRAW)  # what the client does for you when auto-draw is on
        drew += 1
    ui = at_table(state, ("You", "Ana"))
    assert "Auto-draw" not in screen(ui)  # the setting is off: nothing to explain
    ui.settings = Settings(colour=False, auto_draw=True)
    assert f"Auto-draw for you: drew {drew}." in screen(ui)


def test_the_end_of_a_hand_keeps_the_board_and_a_lan_header_shows_the_hand_that_ended() -> None:
    state, events = went_out()
    ui = at_table(state, ("You", "Ana"), events)
    text = screen(ui)
    assert "hand 1 is over" in text.splitlines()[0]
    assert "[5|6]" in text and "╭6╮" in text  # the final line, winning tile included
    assert "You went out and score the 1 pip Ana has left." in " ".join(text.split())
    # a LAN table deals the next hand before Enter: the summary still shows hand 1
    ui.lan = LanView("peer", "Den", seats=2)
    deal_hand(state, ["3-3 2-1", "4-4 0-1"])
    on_new_observation(ui, observe(state, 0))
    text = screen(ui)
    assert "hand 1 is over" in text.splitlines()[0] and "hand 2" not in text.splitlines()[0]
    assert "[5|6]" in text and "[3|3]" not in text


def test_the_score_sheet_and_the_log_are_a_key_away() -> None:
    state, events = went_out()
    ui = at_table(state, ("You", "Ana"), events)
    ui.view.toggle("sheet")
    text = screen(ui)
    assert "How it ended" in text and "you went out" in text and "Total" in text
    ui.view.toggle("log")
    text = screen(ui)
    assert "Ana passed: no 6." in text and "You opened with 6-6." in text


def test_a_big_terminal_centres_the_board() -> None:
    state = game(Rules.classic(), ["6-6 6-4 2-1 0-0 3-3 5-5 1-1", "6-5 4-3 6-2 2-2 0-1 0-2 0-3"])
    play(state, 0, "6-6")
    rows = screen(at_table(state, ("You", "Ana")), 120, 35).splitlines()
    top = next(i for i, r in enumerate(rows) if "╭6╮" in r)
    first_sep = next(i for i, r in enumerate(rows) if r.startswith("───"))
    last_sep = max(i for i, r in enumerate(rows) if r.startswith("───"))
    assert abs((top - first_sep) - (last_sep - top - 2)) <= 2  # as much room above as below


def test_help_at_a_lan_table_says_how_it_deals() -> None:
    """? at a LAN table says whether its deal is locked (and who still sees what), or fair."""
    from lanomino.ui.lan import SeatInfo
    from lanomino.ui.menus import help_lines

    def said(lan: LanView) -> str:
        ui = UiState(screen=Screen.HELP, back=Screen.WAITING, lan=lan)
        return " ".join(" ".join(text for _, text in help_lines(ui, 76)[1]).split())

    joiner = LanView("peer", "Den", seats=3, locked=True,
                     roster=[SeatInfo(0, "Ana", "host"), SeatInfo(1, "Me", "human"),
                             SeatInfo(2, "hard bot 1", "bot")])
    assert ("The deal is locked: nobody, the host included, sees your tiles until they are "
            "played; every hand is checked when it ends. The host does see its computer "
            "players' tiles.") in said(joiner)
    host = LanView("host", "Den", seats=2, locked=True)
    assert "nobody, you included, sees another person's tiles" in said(host)
    assert "computer players" not in said(host)
    fair = LanView("peer", "Den", seats=2, locked=False)
    assert "The deal is fair" in said(fair) and "the host's program works out" in said(fair)
    assert "The deal is" not in said(LanView("peer", "Den", seats=2))  # (not known yet)
