"""The rules engine: pure, deterministic, no I/O.

A hand is determined by (rules, deck order, actions). Chance comes in as the deal; the engine
never shuffles, reads a clock or logs.
"""

from lanomino.engine.actions import DRAW, PASS, RESIGN, Action, Draw, End, Pass, Play, Resign
from lanomino.engine.errors import EngineError, IllegalActionError, RulesError, TileError
from lanomino.engine.events import (
    DealVoided,
    Event,
    HandEnd,
    HandEnded,
    HandStarted,
    HandTally,
    MatchEnd,
    MatchEnded,
    Passed,
    PointsScored,
    Resigned,
    TileDrawn,
    TilePlayed,
)
from lanomino.engine.legal import can_resign, fitting_ends, legal_actions
from lanomino.engine.observe import Observation, observe
from lanomino.engine.play import apply
from lanomino.engine.rules import PRESETS, Rules, rules_from_cli
from lanomino.engine.state import GameState, Phase, new_game, start_hand
from lanomino.engine.tiles import TILES, Tile, parse_tile

__all__ = [
    "DRAW", "PASS", "PRESETS", "RESIGN", "TILES", "Action", "DealVoided", "Draw", "End",
    "EngineError", "Event", "GameState", "HandTally", "HandEnd", "HandEnded", "HandStarted",
    "IllegalActionError", "MatchEnd", "MatchEnded", "Observation", "Pass", "Passed", "Phase",
    "Play", "PointsScored", "Resign", "Resigned", "Rules", "RulesError", "Tile", "TileDrawn",
    "TileError", "TilePlayed", "apply",
    "can_resign", "fitting_ends", "legal_actions", "new_game", "observe", "parse_tile",
    "rules_from_cli", "start_hand",
]
