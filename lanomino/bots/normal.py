"""Normal: tries to shed heavy tiles and doubles, but often plays without much thought."""

from __future__ import annotations

import random

from lanomino.engine import Action, Observation, Play

# How often Normal thinks before playing; the rest of the time it plays any tile that fits.
CARE = 0.7
DOUBLE_BONUS = 3


def shed_weight(play: Play) -> int:
    """Pips, plus a bonus for a double (the hardest kind of tile to get rid of)."""
    return play.tile.pips + (DOUBLE_BONUS if play.tile.is_double else 0)


def normal_bot(obs: Observation, rng: random.Random) -> Action:
    """The heaviest tile that fits, doubles first (most of the time); draw or pass when stuck."""
    plays = [a for a in obs.legal if isinstance(a, Play)]
    if not plays:
        return obs.legal[0]
    if rng.random() >= CARE:
        return rng.choice(plays)
    best = max(shed_weight(a) for a in plays)
    return rng.choice([a for a in plays if shed_weight(a) == best])
