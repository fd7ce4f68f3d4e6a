"""The History and stats screen and the replay viewer: drawing at 80x24, keys, the controller."""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from playkit import log_local, play_local  # noqa: E402
from test_keys import DOWN, LEFT, RIGHT, UP, run_keys  # noqa: E402

from lanomino.client.controller import Controller  # noqa: E402
from lanomino.client.replay import document_view  # noqa: E402
from lanomino.engine import Rules, TilePlayed, parse_tile  # noqa: E402
from lanomino.localgame import LocalMatch, make_config  # noqa: E402
from lanomino.store import PlayLog, open_store  # noqa: E402
from lanomino.ui.app import build_app  # noqa: E402
from lanomino.ui.history import HistoryView, ReplayView  # noqa: E402
from lanomino.ui.screens import render_screen  # noqa: E402
from lanomino.ui.settings import Settings
from lanomino.ui.state import OpenHistory, OpenReplay, QuitApp, Screen, UiState


def screen_text(ui: UiState, w: int = 80, h: int = 24) -> list[str]:
    text = "".join(t for _, t in render_screen(ui, w, h))
    lines = text.split("\n")
    assert len(lines) == h and all(len(line) <= w for line in lines)
    return lines


@pytest.fixture
def logged(tmp_path: Path) -> tuple[HistoryView, PlayLog]:
    store = open_store(tmp_path)
    log = PlayLog(store)
    for seed in range(14):
        log_local(log, play_local(seed, level="greedy"), started_at=1_700_000_000.0 + seed)
    log_local(log, play_local(99, Rules.preset("allfives", target=60), players=4, level="normal"),
              started_at=1_700_001_000.0)
    view = HistoryView([m.to_json() for m in log.matches()], log.stats().to_json())
    yield view, log
    store.close()


def test_the_menu_offers_history_and_h_asks_for_it() -> None:
    ui = UiState()
    assert "History and stats" in "\n".join(screen_text(ui))
    assert run_keys(ui, ["h"]) == [OpenHistory()]


def test_history_fits_80x24_with_the_selected_match_in_detail(logged) -> None:
    view, _ = logged
    ui = UiState(screen=Screen.HISTORY, history=view)
    lines = screen_text(ui)
    assert "History and stats" in lines[0] and "Matches" in lines[1] and "Stats" in lines[1]
    assert lines[2].split()[:3] == ["ID", "Date", "Table"]
    assert lines[3].startswith(" #15") and "You, Ana, Ben" in lines[3]
    assert any("Match #15" in line for line in lines)
    assert any("bot:normal" in line for line in lines)
    assert "Enter replay" in lines[-1]
    view.selected = 14  # the oldest: the list scrolls to keep it in sight
    lines = screen_text(ui)
    assert any(line.startswith(" #1 ") for line in lines[3:])
    assert any("Match #1 " in line for line in lines)


def test_the_stats_tab_fits_80x24(logged) -> None:
    view, log = logged
    view.tab = "stats"
    lines = screen_text(UiState(screen=Screen.HISTORY, history=view))
    body = "\n".join(lines)
    assert f"Matches {log.stats().matches}" in body and "computer level greedy" in body
    assert "Most played tiles:" in body and "points per hand" in body


def test_history_keys_move_switch_tabs_and_ask_for_a_replay(logged) -> None:
    view, _ = logged
    ui = UiState(screen=Screen.HISTORY, history=view)
    intents = run_keys(ui, [DOWN, DOWN, UP, "\r"])
    assert intents == [OpenReplay(view.rows[1]["id"])]
    run_keys(ui, ["\t"])
    assert ui.history.tab == "stats"
    assert run_keys(ui, ["\r"]) == []  # Enter on the stats tab replays nothing
    run_keys(ui, ["\x1b"])
    assert ui.screen is Screen.MENU


def _replay(log: PlayLog, match_id: int) -> ReplayView:
    return document_view(log.get(match_id).document, f"Match #{match_id}")


def test_a_replay_reveals_every_hand_and_steps_move_by_move(logged) -> None:
    _, log = logged
    match_id = log.matches()[0].id
    view = _replay(log, match_id)
    doc = log.get(match_id).document
    first = view.frame()
    assert [sorted(str(t) for t in h) for h in first.hands] == [
        sorted(str(parse_tile(t)) for t in h) for h in doc["hands"][0]["deal"]]
    assert first.move == 0 and not any(isinstance(e, TilePlayed) for e in first.line)
    view.step(1)
    assert view.move == 1 and view.frame().text
    played = sum(1 for h in view.frame().hands for _ in h)
    assert played == sum(len(h) for h in first.hands) - 1  # the first tile left a hand
    for _ in range(len(view.hands[0]) - 1):  # from move 1 past the end of hand 1: into hand 2
        view.step(1)
    assert (view.hand, view.move) == (1, 0)
    view.step(-1)
    assert (view.hand, view.move) == (0, len(view.hands[0]) - 1)
    view.jump(1)
    view.jump(-5)
    assert (view.hand, view.move) == (0, 0)


def test_the_replay_screen_fits_80x24_with_four_seats(logged) -> None:
    _, log = logged
    ui = UiState(screen=Screen.REPLAY, settings=Settings(colour=False))
    ui.replay = _replay(log, log.matches()[0].id)
    for _ in range(6):
        ui.replay.step(1)
    lines = screen_text(ui)
    assert "Match #15" in lines[0] and "move 6/" in lines[0]
    for name in ("You", "Ana", "Ben", "Cleo"):
        assert any(line[2:].startswith(name) for line in lines[1:6])
    assert "[" in lines[1] and "←/→ move" in lines[-1]


def test_replay_keys_step_and_q_goes_back_or_quits(logged) -> None:
    _, log = logged
    ui = UiState(screen=Screen.REPLAY)
    ui.replay = _replay(log, log.matches()[0].id)
    run_keys(ui, [RIGHT, RIGHT, RIGHT, LEFT])
    assert ui.replay.move == 2
    run_keys(ui, [DOWN])
    assert (ui.replay.hand, ui.replay.move) == (1, 0)
    run_keys(ui, ["q"])
    assert ui.screen is Screen.HISTORY and ui.replay is None
    ui = UiState(screen=Screen.REPLAY)
    ui.replay = _replay(log, log.matches()[0].id)
    ui.replay.quit_on_leave = True
    intents: list[object] = []

    async def main() -> None:
        with create_pipe_input() as pipe:
            app = build_app(ui, lambda i: (intents.append(i),
                                           isinstance(i, QuitApp) and app.exit(result=0)),
                            input=pipe, output=DummyOutput())
            task = asyncio.ensure_future(app.run_async())
            await asyncio.sleep(0.05)
            pipe.send_text("q")
            await asyncio.wait_for(task, 5)

    asyncio.run(main())
    assert intents == [QuitApp()]


def test_the_controller_logs_a_finished_match_and_opens_it(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    writer = ThreadPoolExecutor(max_workers=1)
    ui = UiState(settings=Settings(pause_s=0.0))
    controller = Controller(ui, store, writer, seed=None, player_id="local:test")
    match = LocalMatch(make_config(Rules.classic(target=20), 2, ("random",), "Me", 21))
    controller.open_local(match)
    table = controller.table
    assert table is not None

    async def play() -> None:
        for _ in range(3000):
            if match.is_over:
                return
            while await table.step():
                pass
            obs = ui.obs
            assert obs is not None
            if obs.phase == "deal":
                table.next_hand()
            elif obs.is_my_turn:
                table.submit(obs.legal[0])

    asyncio.run(play())
    controller.handle(OpenHistory())
    assert ui.screen is Screen.HISTORY and len(ui.history.rows) == 1
    row = ui.history.rows[0]
    assert row["finished"] and row["players"][0]["peer_id"] == "local:test"
    assert row["hands"] == len(match.state.results)
    controller.handle(OpenReplay(row["id"]))
    assert ui.screen is Screen.REPLAY and ui.replay is not None
    assert len(ui.replay.hands) >= len(match.state.results)
    controller.handle(OpenReplay(999))
    assert "Cannot replay match #999" in ui.history.message
    controller.close()
    writer.shutdown(wait=True)
    store.close()


def test_the_local_table_reports_every_finished_hand_to_the_log() -> None:
    from lanomino.client.local import LocalTable
    from lanomino.client.seam import Headless

    calls: list[tuple[int, bool]] = []
    ui = UiState(settings=Settings(pause_s=0.0))
    match = LocalMatch(make_config(Rules.classic(target=60), 2, ("random",), "Me", 5))
    table = LocalTable(match, ui, lambda r: None, Headless(),
                       log=lambda m: calls.append((len(m.state.results), m.is_over)))
    table.start()

    async def play() -> None:
        for _ in range(3000):
            if match.is_over:
                return
            while await table.step():
                pass
            obs = ui.obs
            assert obs is not None
            if obs.phase == "deal":
                table.next_hand()
            elif obs.is_my_turn:
                table.submit(obs.legal[0])

    asyncio.run(play())
    hands = len(match.state.results)
    assert hands > 1
    assert calls == [(n, n == hands) for n in range(1, hands + 1)]


def test_history_and_stats_are_not_cut_at_60x20(logged: tuple[HistoryView, PlayLog]) -> None:
    from lanomino.ui.render import Canvas
    from lanomino.ui.screens import draw_screen

    view, _ = logged
    ui = UiState(screen=Screen.HISTORY, history=view)
    for tab in ("matches", "stats"):
        view.tab = tab
        for width, height in ((80, 24), (60, 20)):
            canvas = draw_screen(ui, Canvas(width, height))
            assert canvas.cut == [], f"{tab} at {width}x{height}:\n{canvas.text()}"
