"""Watching in the client: the lobby's w (Watch beside Join) and the table seen from no seat."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table  # noqa: E402
from test_lobby import FULL, LOCKED, lobby_ui, run_keys, screen  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.ui.lan import JoinTable, LanView  # noqa: E402
from lanomino.ui.state import Screen, UiState, on_new_observation  # noqa: E402


def test_w_in_the_lobby_watches_the_selected_table_even_a_full_one() -> None:
    ui = lobby_ui(FULL)
    assert run_keys(ui, ["\r"]) == []  # full: no seat to take
    assert "w watches it" in ui.lobby.message
    ui = lobby_ui(FULL)
    assert run_keys(ui, ["w"]) == [JoinTable(FULL.address, None, "Barn", watch=True)]
    assert "w watch" in screen(lobby_ui(FULL))


def test_watching_a_locked_table_asks_for_its_passphrase_first() -> None:
    ui = lobby_ui(LOCKED)
    joined = JoinTable(LOCKED.address, "sesame", "Attic", watch=True)
    assert run_keys(ui, ["w", *"sesame", "\r"]) == [joined]


def watched_table(partnership: bool = False) -> UiState:
    """A watcher's screen in the middle of a 4-seat hand (its real observation, from no seat)."""
    t = Table(Rules.preset("partnership" if partnership else "classic"), 4, seed=2)
    w = t.add_watcher("ada")
    t.run(lambda: t.host.deal is not None and len(t.host.deal.moves) >= 4, max_time=60)
    obs = w.session.observation()
    assert obs is not None and obs.seat == -1 and obs.phase == "play"
    ui = UiState(screen=Screen.TABLE)
    ui.lan = LanView("peer", "Kitchen", seats=4, watching=True, watchers=2)
    ui.names = ("host", "peer1", "peer2", "peer3")
    on_new_observation(ui, obs)
    return ui


def test_the_table_seen_from_no_seat_shows_every_player_and_no_hand() -> None:
    text = screen(watched_table())
    assert "Watching · no seat" in text and "2 watching" in text
    assert "Your hand" not in text and "your turn" not in text
    for name in ("host", "peer1", "peer2", "peer3"):
        assert name in text
    assert "watching: every hand is shown when it ends" in text


def test_a_watcher_has_no_partner() -> None:
    assert "(partner)" not in screen(watched_table(partnership=True))


def test_the_header_shows_the_move_clock_and_an_away_seat_is_marked() -> None:
    ui = watched_table()
    assert ui.lan is not None
    ui.lan.move_clock_s = 30.0
    ui.seat_levels = ("", "away", "", "")  # (the client marks a seat the move clock gave the bot)
    text = screen(ui)
    assert "30 s a move" in text and "peer1 (away)" in text


def test_the_waiting_room_says_how_many_watch() -> None:
    lan = LanView("host", "Kitchen", seats=2)
    assert lan.waiting_line() == "waiting for players (0/2)"
    lan.watchers = 2
    assert lan.waiting_line() == "waiting for players (0/2) · 2 watching"


def test_a_watcher_arriving_between_hands_is_not_told_the_last_hand_is_being_checked() -> None:
    """Issue 30 item 11: the hands over before a watcher arrived were never sent it to check:
    their summary says so instead of "Deal check: checking…" for ever."""
    from lanomino.client.lan import LanTable
    from lanomino.client.seam import Headless
    from lanomino.net.session import ObservationChanged

    t = Table(Rules.preset("classic", target=500), 2, seed=3)
    t.run(lambda: t.host.doc is not None and len(t.host.doc["hands"]) >= 1, max_time=120)
    w = t.add_watcher("ada")
    t.run(lambda: w.session.observation() is not None, max_time=30)
    obs = w.session.observation()
    assert obs is not None and obs.results
    ui = UiState()
    table = LanTable(ui, Headless(), lambda: None, "peer", "Kitchen",  # type: ignore[arg-type,return-value]
                     lambda code, reason: None)
    table.watch()
    table._on_event(ObservationChanged(obs))
    text = screen(ui)
    assert f"Hand {len(obs.results)} is over" in text, text
    assert "checking…" not in text and "ended before you arrived" in text, text
