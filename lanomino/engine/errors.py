"""Engine errors. Each is also a ``ValueError`` so callers may catch either."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of everything the engine raises for bad input."""


class RulesError(EngineError):
    """An impossible rule option or combination of options."""


class TileError(EngineError):
    """A tile that does not exist or cannot be parsed."""


class IllegalActionError(EngineError):
    """An action that the rules do not allow in this position."""


def seat_name(seat: int) -> str:
    """A seat as a person reads it in a message: "seat N", counted from 1 (JSON counts from 0)."""
    return f"seat {seat + 1}"
