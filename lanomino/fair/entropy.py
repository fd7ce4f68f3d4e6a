"""The one place where lanomino makes secrets: commitment secrets, escrow pads, table ids."""

from __future__ import annotations

import secrets


def fresh_bytes(size: int = 32) -> bytes:
    """``size`` unpredictable bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(size)
