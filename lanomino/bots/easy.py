"""Easy: often plays its lightest tile and hangs on to its doubles."""

from __future__ import annotations

import random

from lanomino.engine import Action, Observation, Play

# How often Easy follows its habit; the rest of the time it plays any tile that fits.
HABIT = 0.8


def easy_bot(obs: Observation, rng: random.Random) -> Action:
    """The lightest non-double that fits (most of the time); draw or pass only when stuck."""
    plays = [a for a in obs.legal if isinstance(a, Play)]
    if not plays:
        return obs.legal[0]
    if rng.random() >= HABIT:
        return rng.choice(plays)
    best = min((a.tile.is_double, a.tile.pips) for a in plays)
    return rng.choice([a for a in plays if (a.tile.is_double, a.tile.pips) == best])
