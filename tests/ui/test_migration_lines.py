"""What a player is told while the table changes host: who takes over, that the game waits for a
majority, and that play goes on."""

from __future__ import annotations

from typing import Any

import pytest

from lanomino.client.lan import LanTable
from lanomino.client.seam import Headless
from lanomino.net.session import HostChanged, MigrationDone, MigrationPaused, SteppedDown
from lanomino.ui.screens import render_screen
from lanomino.ui.state import Screen, UiState


def screen(ui: UiState) -> str:
    return "".join(text for _, text in render_screen(ui, 80, 24))


def table(role: str) -> tuple[UiState, LanTable]:
    ui = UiState()
    lan = LanTable(ui, Headless(), lambda: None, role, "Kitchen",
                   lambda code, why: None)
    ui.names = ("Ana", "Bo", "Cy", "Di")
    return ui, lan


def handle(lan: LanTable, event: Any) -> None:
    lan._on_event(event)


def test_a_peer_is_told_who_takes_over_and_that_a_majority_is_awaited() -> None:
    ui, lan = table("peer")
    handle(lan, HostChanged(1, 1, "k" * 40, False))
    assert ui.message == "the host is gone: Bo (seat 2) takes the table over…"
    assert "Bo (seat 2) takes the table over" in screen(ui)  # the waiting screen's status line
    handle(lan, HostChanged(2, 2, "k" * 40, False))  # Bo did not answer: the next in line
    assert "Cy (seat 3) takes the table over…" in ui.message and "term" not in ui.message


def test_the_new_host_says_it_waits_for_a_majority_then_that_play_goes_on() -> None:
    ui, lan = table("peer")
    handle(lan, HostChanged(1, 1, "k" * 40, True))
    assert ui.message.startswith("the host is gone: you take the table over")
    handle(lan, MigrationPaused(1, 1, 2))
    assert ui.message == ("waiting for a majority: 1 of the 2 players needed is here; "
                          "play resumes when enough are back")
    assert ui.screen is Screen.WAITING and "waiting for a majority" in screen(ui)
    handle(lan, MigrationDone(1, 1, True))
    assert ui.message == "you host the table now; play goes on"
    assert ui.lan is not None and ui.lan.host_note == "you host"


def test_an_old_host_is_told_it_no_longer_hosts() -> None:
    ui, lan = table("host")
    handle(lan, SteppedDown(1, 2))
    assert ui.message.startswith("Cy (seat 3) hosts the table now: this machine")


def test_the_new_hosts_address_stays_under_its_hand_when_its_turn_comes() -> None:
    """Issue 30 item 8: the line saying where others join the new host was a message, and the
    turn that comes right after a take-over cleared it before anyone could read it."""
    from tablekit import game, play

    from lanomino.engine import Rules, observe

    ui, lan = table("peer")
    ui.names = ("Ana", "Bo")
    state = game(Rules.preset("block"), ["6-6 6-1 4-1 0-0 3-3 5-5 2-2",
                                         "6-4 6-2 6-0 5-2 2-0 5-0 3-2"])
    lan._observe(observe(state, 1))  # this client is Bo; Ana is to open
    assert ui.lan is not None
    ui.lan.short_address, ui.lan.fingerprint = "127.0.0.1:47311/3f9a0c12", "3f9a-0c12"
    handle(lan, MigrationDone(1, 1, True))
    play(state, 0, "6-6")
    lan._observe(observe(state, 1))  # Bo's turn: what was said while waiting goes
    assert ui.message == ""
    shown = " ".join(screen(ui).split())
    assert "▶ your turn" in shown, shown
    assert ("you host the table now; play goes on: others join or watch at "
            "127.0.0.1:47311/3f9a0c12") in shown, shown


def test_a_silent_host_at_a_table_of_two_is_said_to_leave_the_match_to_you() -> None:
    """Issue 30 item 1: the joiner of a killed host saw '▶ your turn' and 'the host has gone
    quiet…' (gone at the first key) until the match was decided; now the line stays, saying what
    happens, until the host speaks again."""
    from tablekit import game, play

    from lanomino.engine import Rules, observe
    from lanomino.net.session import HostSilent
    from lanomino.ui.lan import SeatInfo

    ui, lan = table("peer")
    ui.names = ("Ana", "Bo")
    state = game(Rules.preset("block"), ["6-6 6-1 4-1 0-0 3-3 5-5 2-2",
                                         "6-4 6-2 6-0 5-2 2-0 5-0 3-2"])
    lan._observe(observe(state, 1))
    assert ui.lan is not None
    ui.lan.roster = [SeatInfo(0, "Ana", "host"), SeatInfo(1, "Bo", "human")]
    ui.screen = Screen.TABLE
    handle(lan, HostSilent(0.0))
    quiet = ("the host has gone quiet: if it is not back within 30 s, it has left the table and "
             "the match is yours")
    assert ui.message == quiet
    ui.message = ""  # (a key pressed meanwhile)
    assert quiet in " ".join(screen(ui).split())
    play(state, 0, "6-6")  # the host speaks again
    lan._observe(observe(state, 1))
    assert "gone quiet" not in screen(ui)
    # then it is gone for good: this seat's node decides the match; the host ranks without a
    # place, saying how it left (it ranked second, as if it had played the match out)
    from lanomino.net.session import MatchOver

    handle(lan, MatchOver(1, (0, 0), 0, True, "the host left the table (silent for 30 s)"))
    over = " ".join(screen(ui).split())
    assert "you won because the host left the table (silent for 30 s)" in over, over
    assert "1. You 0 pts - Ana (did not come back) 0 pts" in over, over


@pytest.mark.parametrize("resigned_first", [False, True])
def test_a_hand_dealt_again_without_a_player_says_who_left_under_the_new_hand(
        resigned_first: bool) -> None:
    """A locked table deals a hand again under its number when a person left it before it could be
    scored: the table screen says who left and that the hand starts over (the tiles in the
    player's hand changed; the log of the hand starts again), as the line mode does. Also when
    the leaver was resigned as a move of the deal given up (``resigned_first``: lost in the round
    of passes after a block nobody could see, and found out at the hand's end)."""
    import random
    from dataclasses import replace

    from lanomino.bots import get_bot
    from lanomino.engine import HandStarted, Resigned, Rules
    from lanomino.localgame import LocalMatch, make_config
    from lanomino.ui.lan import LanView
    from lanomino.ui.state import on_new_observation

    match = LocalMatch(make_config(Rules.classic(target=0), 3, ("random",), "Ana", 4))
    ui = UiState(screen=Screen.TABLE, names=("Ana", "Bo", "Cy"),
                 lan=LanView("peer", "Kitchen", seats=3))
    match.deal()
    first = match.observe(0)
    on_new_observation(ui, first)
    turn = match.state.turn
    match.apply(turn, get_bot("random")(match.observe(turn), random.Random(4)))
    on_new_observation(ui, match.observe(0))
    assert "dealt again" not in screen(ui)
    started = first.history[0]
    assert isinstance(started, HandStarted)
    assert ui.lan is not None
    ui.lan.departures[2] = "did not come back"
    if resigned_first:
        now = match.observe(0)
        on_new_observation(ui, replace(now, active=(True, True, False),
                                       history=(*now.history, Resigned(2))))
        assert "dealt again" not in screen(ui)
    again = replace(first, active=(True, True, False), history=(started._replace(
        opener=1, hand_sizes=(*started.hand_sizes[:2], 0), boneyard=started.boneyard + 5),))
    on_new_observation(ui, again)
    said = "Cy did not come back: hand 1 is dealt again among the players left."
    assert said in " ".join(screen(ui).split())
    on_new_observation(ui, replace(again, hand_no=2))  # (said for that deal only)
    assert "dealt again" not in screen(ui)
