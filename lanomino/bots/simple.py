"""The engine's plain bots: ``random`` (any legal move) and ``greedy`` (heaviest tile first)."""

from __future__ import annotations

import random

from lanomino.bots.chance import choice
from lanomino.engine import Action, Observation, Play


def random_bot(obs: Observation, rng: random.Random) -> Action:
    """Any legal move, uniformly."""
    return choice(rng, obs.legal)


def greedy_bot(obs: Observation, rng: random.Random) -> Action:
    """The heaviest playable tile (doubles first among equals); draw or pass only when stuck."""
    plays = [a for a in obs.legal if isinstance(a, Play)]
    if not plays:
        return obs.legal[0]
    best = max((a.tile.pips, a.tile.is_double) for a in plays)
    choices = [a for a in plays if (a.tile.pips, a.tile.is_double) == best]
    return choice(rng, choices)
