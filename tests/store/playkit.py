"""Helpers for play-log tests: whole local matches played by bots, without the UI."""

from __future__ import annotations

import random
from typing import Any

from lanomino.bots import get_bot
from lanomino.engine import Phase, Rules
from lanomino.localgame import LocalMatch, make_config
from lanomino.store import Player, PlayLog, bot_player


def play_local(seed: int, rules: Rules | None = None, players: int = 2, level: str = "random",
               you: str = "random", stop_after_hands: int | None = None) -> LocalMatch:
    """A local match where seat 0 ("You") is played by the ``you`` bot; every seat by seed."""
    config = make_config(rules or Rules.classic(target=30), players, (level,), "You", seed)
    match = LocalMatch(config)
    rng = random.Random(seed)
    while not match.is_over:
        if match.state.phase is Phase.DEAL:
            if stop_after_hands is not None and len(match.state.results) >= stop_after_hands:
                break
            match.deal()
            continue
        seat = match.state.turn
        bot = get_bot(you if seat == 0 else config.levels[seat])
        match.apply(seat, bot(match.observe(seat), rng))
    return match


def local_players(match: LocalMatch, me_id: str = "local:me") -> list[Player]:
    c = match.config
    bots = (bot_player(c.levels[s], c.names[s]) for s in range(1, c.players))
    return [Player(me_id, c.names[0]), *bots]


def log_local(log: PlayLog, match: LocalMatch, started_at: float | None = None) -> int:
    doc: dict[str, Any] = match.record.to_json()
    return log.log_match(doc, uid=f"local:{match.uid}", me=0, players=local_players(match),
                         started_at=started_at)
