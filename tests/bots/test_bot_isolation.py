"""Architecture: no bot can reach a full game state. Bots import only the engine's public values
(plus ``determinize`` to build their own guesses), never the global random source, and they play
from an Observation alone."""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path

import lanomino.bots
from lanomino.bots import bot_names, get_bot
from lanomino.engine import GameState, Observation, Rules, observe
from lanomino.engine.state import Phase

BOTS_DIR = Path(lanomino.bots.__file__).parent
STDLIB = {
    "__future__", "random", "_random", "math", "time", "importlib", "collections.abc",
    "dataclasses", "typing", "itertools", "functools", "bisect",
}
ENGINE_SUBMODULES = {"lanomino.engine.observe": {"determinize"}}


def imports_of(path: Path) -> list[tuple[str, list[str]]]:
    tree = ast.parse(path.read_text())
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", [alias.name for alias in node.names]))
    return found


def test_bots_import_only_the_public_engine_and_determinize() -> None:
    files = sorted(BOTS_DIR.glob("*.py"))
    assert len(files) >= 6
    for path in files:
        for module, names in imports_of(path):
            if module in STDLIB or module == "lanomino.engine":
                continue
            if module.startswith("lanomino.bots"):
                continue
            allowed = ENGINE_SUBMODULES.get(module)
            assert allowed is not None, f"{path.name} imports {module}"
            assert set(names) <= allowed, f"{path.name} imports {module} {names}"


def test_bots_never_touch_the_global_random_source() -> None:
    for path in sorted(BOTS_DIR.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == "random":
                    assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
                if node.value.id == "time":
                    assert node.attr == "perf_counter", f"{path.name} uses time.{node.attr}"


def test_an_observation_carries_no_game_state_and_bots_play_from_it_alone() -> None:
    from bot_positions import random_hand

    state = random_hand(Rules.classic(), 3, random.Random(4))
    obs = observe(state, state.turn)
    for field in dataclasses.fields(Observation):
        assert not isinstance(getattr(obs, field.name), GameState)
    from lanomino.bots.expert import make_expert

    for name in bot_names():
        bot = get_bot(name) if name != "expert" else make_expert(max_sims=20, clock=lambda: 0.0)
        action = bot(obs, random.Random(0))
        assert action in obs.legal
    assert state.phase is Phase.PLAY
