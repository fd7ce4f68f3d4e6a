"""A seat's dispute of a move the host made for it is said in a plain sentence on every screen:
the full-screen client's message line and the screen-reader line mode (issue 28)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tablekit import game  # noqa: E402

from lanomino.client.lan import LanTable
from lanomino.client.seam import Headless
from lanomino.engine import TILES, Rules, observe
from lanomino.lines.talk import LanHeard, lan_news
from lanomino.net.session import MoveDisputed
from lanomino.ui.screens import render_screen
from lanomino.ui.state import Screen, UiState


def table() -> tuple[UiState, LanTable]:
    ui = UiState()
    lan = LanTable(ui, Headless(), lambda: None, "peer", "Kitchen", lambda code, why: None)
    ui.names = ("Ann", "Bo", "Cy")
    rules = Rules.preset("classic")
    size = rules.hand_size_for(3)
    tiles = [str(t) for t in TILES]
    ui.obs = observe(game(rules, [" ".join(tiles[i * size:(i + 1) * size]) for i in range(3)]), 2)
    ui.screen = Screen.TABLE
    return ui, lan


def test_a_dispute_is_said_once_in_plain_words_on_the_full_screen_and_in_the_line_mode() -> None:
    ui, lan = table()
    heard = LanHeard()
    assert ui.lan is not None
    lan_news(ui.lan, heard)
    lan._on_event(MoveDisputed(2, 13, 0, False))
    said = ("Ann disputes move 14 of hand 2: the host played it for them while they were at the "
            "table.")
    assert ui.message == said
    shown = " ".join("".join(text for _, text in render_screen(ui, 80, 24)).split())
    assert said in shown  # (wrapped on two rows under the hand)
    assert said in lan_news(ui.lan, heard)
    assert said not in lan_news(ui.lan, heard)  # once
    lan._on_event(MoveDisputed(2, 20, 1, True))
    assert lan_news(ui.lan, heard)[0] == ("Bo disputes move 21 of hand 2: the host resigned for "
                                          "them while they were at the table.")


def test_the_disputer_reads_its_own_dispute_as_you() -> None:
    ui, lan = table()  # this terminal sits at seat 3 (Cy)
    lan._on_event(MoveDisputed(1, 4, 2, False))
    assert ui.message == ("You dispute move 5 of hand 1: the host played it for you while you "
                          "were at the table.")


def test_the_line_mode_says_a_seat_that_lost_touch_is_back() -> None:
    """Issue 30 item 7: 'Bea lost touch' was said and never taken back when Bea came back (as
    every joiner does when the table changes host); the line mode says so, once."""
    from lanomino.ui.lan import LanView, SeatInfo

    lan = LanView("peer", "Kitchen", 2, roster=[SeatInfo(0, "Ana", "host"),
                                                 SeatInfo(1, "Bea", "human", connected=False)])
    lan.dropped[1] = 1e12
    heard = LanHeard()
    assert "Bea lost touch: their seat is kept" in " ".join(lan_news(lan, heard))
    lan.roster[1], lan.dropped = SeatInfo(1, "Bea", "human"), {}
    said = lan_news(lan, heard)
    assert "Bea is back." in said, said
    assert "Bea is back." not in lan_news(lan, heard)
    lan.dropped[1] = 1e12  # lost again, and this time gone for good: not back
    lan_news(lan, heard)
    lan.dropped, lan.departures[1] = {}, "did not come back"
    assert not [s for s in lan_news(lan, heard) if "back" in s]


def test_a_full_table_is_said_full_once() -> None:
    """'At the table: …; every seat is taken.' came before 'Every seat is taken (3/3): the match
    starts.', and again at every change of the roster during the match."""
    from lanomino.ui.lan import LanView, SeatInfo

    lan = LanView("peer", "Kitchen", 2, roster=[SeatInfo(0, "Ana", "host")])
    lan.status = lan.waiting_line()
    heard = LanHeard()
    assert lan_news(lan, heard)[:2] == ["At the table: Ana (seat 1); 1 seat free.",
                                        "Waiting for players (1/2)."]
    lan.roster.append(SeatInfo(1, "Bea", "human"))
    lan.status = lan.waiting_line()
    said = lan_news(lan, heard)
    assert said == ["At the table: Ana (seat 1) and Bea (seat 2).",
                    "Every seat is taken (2/2): the match starts."], said
