"""Nothing is ever cut: every screen, drawn at 80x24 and 60x20, keeps all its characters on the
screen (long text wraps or is shortened between words), for every preset and moment of a match."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from tablekit import show

from lanomino.bots import get_bot
from lanomino.engine import (
    PRESETS,
    TILES,
    Play,
    Rules,
    apply,
    new_game,
    observe,
    start_hand,
)
from lanomino.ui.render import Canvas
from lanomino.ui.screens import draw_screen
from lanomino.ui.settings import Settings
from lanomino.ui.state import Screen, UiState, confirm

SIZES = ((80, 24), (60, 20))
NAMES = ("Tess", "Ana", "Ben", "Cleo")


def cut_rows(ui: UiState, width: int, height: int) -> list[str]:
    """The rows of the screen where a character fell off; empty when nothing was cut."""
    canvas = draw_screen(ui, Canvas(width, height))
    rows = canvas.text().splitlines()
    return sorted({f"row {y}: {rows[y] if 0 <= y < len(rows) else ''!r}" for _, y in canvas.cut})


def players_for(preset: str) -> int:
    return 4 if Rules.preset(preset).partnership else 3 if preset == "block" else 2


def match_moments(preset: str, seed: int = 3) -> Iterator[UiState]:
    """A whole match of ``preset`` played by bots, seen from seat 0: the table before each of
    seat 0's moves, every hand's end and the match's end."""
    rules = Rules.preset(preset)
    players = players_for(preset)
    rng = random.Random(seed)
    state = new_game(rules, players)
    ui = UiState(screen=Screen.TABLE, names=NAMES[:players], seat_levels=("", *["normal"] * 3),
                 settings=Settings(colour=False, auto_draw=True))
    bot = get_bot("normal")
    while state.outcome is None:
        if state.phase.value == "deal":
            deck = list(TILES)
            rng.shuffle(deck)
            size = rules.hand_size_for(players)
            start_hand(state, [deck[i * size:(i + 1) * size] for i in range(players)],
                       deck[players * size:])
            ui.hand_result = None
        seat = state.turn
        obs = observe(state, seat)
        yield show(ui, state, apply(state, seat, bot(obs, rng)))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_moment_of_a_match_fits_at_80x24_and_60x20(preset: str) -> None:
    seen_end = False
    for n, ui in enumerate(match_moments(preset)):
        seen_end = seen_end or ui.hand_result is not None
        for width, height in SIZES:
            assert cut_rows(ui, width, height) == [], f"{preset}, step {n}, {width}x{height}"
            if n % 7 == 0:  # the panels too, now and then
                for panel in ("log", "sheet"):
                    ui.view.toggle(panel)
                    assert cut_rows(ui, width, height) == [], f"{panel} at step {n}"
                    ui.view.toggle(panel)
    assert seen_end


@pytest.mark.parametrize("size", SIZES)
def test_questions_and_refusals_wrap_instead_of_being_cut(size: tuple[int, int]) -> None:
    ui = next(u for u in match_moments("classic") if u.obs is not None and u.obs.is_my_turn
              and u.hand_result is None)
    assert ui.obs is not None
    ui.message = ("you may not pass while the boneyard has tiles: press d to draw; and this "
                  "sentence is long enough to need two rows at any width")
    assert cut_rows(ui, *size) == []
    ui.message, ui.confirm_quit = "", True
    assert cut_rows(ui, *size) == []
    ui.confirm_quit = False
    ui.selected = next((i for i, t in enumerate(ui.obs.hand)
                        if sum(isinstance(a, Play) and a.tile == t for a in ui.obs.legal) > 1), 0)
    confirm(ui)
    assert cut_rows(ui, *size) == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", [Screen.MENU, Screen.SETUP, Screen.SETTINGS, Screen.HELP])
def test_the_screens_around_the_table_fit(screen: Screen, size: tuple[int, int]) -> None:
    ui = UiState(screen=screen, levels=["random", "easy", "normal", "hard", "expert"])
    ui.notice = "You resigned: Ana won the match. The game is no longer saved, so Continue is gone."
    for preset in PRESETS:
        ui.setup.preset = preset
        ui.setup.players = players_for(preset)
        ui.setup.levels = ["expert"] * 3
        for row in range(len(ui.setup.rows())):
            ui.setup.row = row
            assert cut_rows(ui, *size) == [], f"{screen} {preset} row {row}"
    for back in (Screen.MENU, Screen.SETTINGS):
        ui.back = back
        for scroll in range(0, 40, 5):
            ui.help_scroll = scroll
            assert cut_rows(ui, *size) == [], f"help from {back}, scrolled {scroll}"


def test_the_replay_viewer_fits_every_step_of_a_golden_record() -> None:
    import json
    from pathlib import Path

    from lanomino.client.replay import replay_view
    from lanomino.record import parse_record

    golden = Path(__file__).resolve().parents[1] / "golden"
    for path in sorted(golden.glob("*.record.json")):
        try:
            record = parse_record(json.loads(path.read_text()))
            view = replay_view(record, "Match #1")
        except ValueError:
            continue  # the golden files of illegal moves do not replay
        ui = UiState(screen=Screen.REPLAY, replay=view, settings=Settings(colour=False))
        for hand in range(len(view.hands)):
            for move in range(len(view.hands[hand])):
                view.hand, view.move = hand, move
                for size in SIZES:
                    assert cut_rows(ui, *size) == [], f"{path.name} {hand}/{move} {size}"


def test_long_text_is_shortened_between_words() -> None:
    from lanomino.ui.chrome import fit, wrap

    assert fit("drew 6, played 5-1", 13) == "drew 6…"  # never "drew 6, playe"
    assert fit("You, Ana, Ben, Cleo", 14) == "You, Ana, Ben…"
    assert fit("short", 10) == "short"
    assert all(len(line) <= 20 for line in wrap("Deal check: verified ✓ (hand 1: fair: 3 "
                                                "commitments, 28 tiles, 2 draws, scores)", 20))


def test_a_line_that_turns_corners_marks_its_ends_where_they_lie() -> None:
    from lanomino.ui.board import line_view, tracks

    for ui in match_moments("partnership"):
        if ui.obs is None or ui.hand_result is not None:
            continue
        if tracks(line_view(ui.obs.history), 80) < 2:
            continue
        canvas = draw_screen(ui, Canvas(80, 24))
        marks = {ch for row in canvas.cells for ch, style in row if "class:mark" in style}
        assert marks == {"L", "R"}
        return
    pytest.fail("no hand's line turned a corner")


@pytest.mark.parametrize("size", SIZES)
def test_the_lan_screens_fit(size: tuple[int, int]) -> None:
    from lanomino.ui.lan import LanView, SeatInfo, TableInfo

    key = "127.0.0.1:4000/" + "a" * 52
    ui = UiState(screen=Screen.LOBBY)
    ui.lobby.tables = [TableInfo("k1", "The kitchen table by the window", "allfives", 4, 4, True,
                                 key),
                       TableInfo("k2", "Den", "partnership", 1, 4, False, key, compatible=False)]
    ui.lobby.searching = True
    ui.lobby.message = ("Could not join: nobody is listening at 127.0.0.1:9 (is the table still "
                        "open, and is that its port?)")
    assert cut_rows(ui, *size) == []
    ui.screen = Screen.HOST
    ui.host_form.message = "Could not open the table: the port 47311 is taken by another program"
    for row in range(7):
        ui.host_form.row = row
        assert cut_rows(ui, *size) == [], f"host form row {row}"
    ui.screen = Screen.WAITING
    ui.lan = LanView("host", "The kitchen table", seats=4, address=key,
                     short_address="127.0.0.1:4000/db17c004", fingerprint="db17-c004-aff5-78b4",
                     roster=[SeatInfo(0, "Me", "host", True),
                             SeatInfo(1, "A long name here", "human", False)],
                     status="waiting for players (2/4): Bo is on the way and so is someone else")
    assert cut_rows(ui, *size) == []
    ui.lan.closed = ("Could not join: no encrypted handshake with tcp://127.0.0.1:9 within 5.0 s "
                     "(the host did not answer)")
    assert cut_rows(ui, *size) == []


@pytest.mark.parametrize("size", SIZES)
def test_a_rematch_offer_and_the_seats_it_keeps_fit(size: tuple[int, int]) -> None:
    """A joiner's match end with the host's offer to play again, and the host's waiting screen
    with the seats it keeps, at both sizes: whole, and the offer's words all there."""
    from lanomino.ui.lan import LanView, SeatInfo

    *_, ui = match_moments("partnership")
    assert ui.match_result is not None
    ui.lan = LanView("peer", "Den", seats=4, over=True, rematch="Tess")
    assert cut_rows(ui, *size) == []
    text = " ".join(draw_screen(ui, Canvas(*size)).text().split())
    assert "Tess offers a rematch, everyone in the same seat: r to play on" in text
    ui.screen = Screen.WAITING
    ui.lan = LanView("host", "Den", seats=4, roster=[SeatInfo(0, "Tess", "host", True)],
                     kept={1: "Ana", 2: "Ben", 3: "A name longer than the screen is wide, at 60"})
    ui.lan.status = ui.lan.waiting_line()
    assert cut_rows(ui, *size) == []
    assert "2. (kept for Ana)" in draw_screen(ui, Canvas(*size)).text()
    assert ui.lan.waiting_line().startswith("rematch offered: waiting for Ana, Ben and A name")


@pytest.mark.parametrize("size", SIZES)
def test_the_host_form_explains_the_row_being_changed_even_on_a_short_screen(
        size: tuple[int, int]) -> None:
    """The deal's and escrow's notes say what the choice means; on a 60x20 screen with an error
    showing there is room for one of them, and it is the one of the row being changed."""
    from lanomino.ui.lan import HOST_ROWS
    from lanomino.ui.lobby import DEAL_LOCKED, ESCROW_OFF

    ui = UiState(screen=Screen.HOST)
    ui.host_form.message = "Could not open the table: the port 47311 is taken by another program"
    ui.host_form.blind = True
    for row, note in (("deal", DEAL_LOCKED), ("escrow", ESCROW_OFF)):
        ui.host_form.row = HOST_ROWS.index(row)
        text = " ".join(draw_screen(ui, Canvas(*size)).text().split())
        assert note.split(";")[0] in text, (row, size)
        assert "port 47311" in text
