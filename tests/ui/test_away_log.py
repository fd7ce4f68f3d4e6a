"""The full-screen table's log while the move clock has the table's bot play for this seat: the
seat's plays, draws and passes made meanwhile read as the bot's, for you, in the table's log and
in the match's log panel; once the player is back, their moves are their own again; nobody
else's moves change. (The line mode says the same: tests/lines/test_narrator.py.)"""

from __future__ import annotations

import random
import re

from test_table_words import screen

from lanomino.bots import get_bot
from lanomino.engine import Phase, Rules
from lanomino.localgame import LocalMatch, make_config
from lanomino.ui.lan import LanView, SeatInfo
from lanomino.ui.settings import Settings
from lanomino.ui.state import Screen, UiState, on_new_observation
from lanomino.ui.summary import _log_rows

MOVES = r"(opened with|played|drew|passed)"


def test_moves_the_bot_made_while_you_were_away_read_as_the_bots_in_both_logs() -> None:
    match = LocalMatch(make_config(Rules.classic(target=0), 2, ("random",), "You", 5))
    rng = random.Random(5)
    ui = UiState(screen=Screen.TABLE, names=("You", "Ana"), seat_levels=("", "random"),
                 settings=Settings(colour=False))
    ui.lan = LanView("peer", "Kitchen", seats=2, roster=[
        SeatInfo(0, "You", "human", away=True), SeatInfo(1, "Ana", "host")])
    match.deal()
    on_new_observation(ui, match.observe(0))
    screens: list[str] = []
    while match.state.phase is not Phase.DEAL and not match.is_over:
        ui.lan.roster[0] = SeatInfo(0, "You", "human", away=len(match.state.history) < 6)
        turn = match.state.turn
        match.apply(turn, get_bot("random")(match.observe(turn), rng))
        on_new_observation(ui, match.observe(0))
        screens.append(" ".join(screen(ui, 100, 40).split()))
    assert ui.obs is not None
    log = [text for _, text in _log_rows(ui, ui.obs, 200)]
    bots = [i for i, s in enumerate(log) if re.match(rf"The table's bot, for you, {MOVES} ", s)]
    own = [i for i, s in enumerate(log) if re.match(rf"You {MOVES} ", s)]
    assert bots and own and max(bots) < min(own), log  # away first, then back
    assert any(re.match(rf"Ana {MOVES} ", s) for s in log), log  # the other seat: unchanged
    # the table's own log (the last few lines under the hand) said the same while it showed them
    assert any("The table's bot, for you," in s for s in screens)
