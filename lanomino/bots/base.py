"""The bot protocol and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable

from lanomino.engine import Action, Observation

# A bot sees only an observation and its own random source; it returns one legal action.
Bot = Callable[[Observation, random.Random], Action]

_REGISTRY: dict[str, str] = {
    # name -> "module:function"; imported on first use so start-up stays light.
    "random": "lanomino.bots.simple:random_bot",
    "greedy": "lanomino.bots.simple:greedy_bot",
    "easy": "lanomino.bots.easy:easy_bot",
    "normal": "lanomino.bots.normal:normal_bot",
    "hard": "lanomino.bots.hard:hard_bot",
    "expert": "lanomino.bots.expert:expert_bot",
}


def bot_names() -> list[str]:
    return list(_REGISTRY)


def get_bot(name: str) -> Bot:
    """The bot called ``name``. Raises ValueError naming the known bots."""
    import importlib

    try:
        target = _REGISTRY[name.lower()]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(_REGISTRY)}") from None
    module_name, _, attr = target.partition(":")
    bot: Bot = getattr(importlib.import_module(module_name), attr)
    return bot
