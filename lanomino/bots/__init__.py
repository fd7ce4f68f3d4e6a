"""Computer players. A bot is a function of an observation and an injected ``random.Random``."""

from __future__ import annotations

from lanomino.bots.base import Bot, bot_names, get_bot

__all__ = ["Bot", "bot_names", "get_bot"]
