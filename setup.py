"""Optional compiled engine and bots.

The rules engine and the bots are plain Python. When it can, installation also compiles their hot
modules with mypyc (they are written to ``mypy --strict``): same code, same behaviour, several
times fewer interpreter steps per move, which self-play, the engine benchmark and Expert's search
(its simulations per move, hence its strength) feel directly. ``lanomino/botmatch.py`` is compiled
too: its loop is the self-play hot path. Compiled, a module calls the others' functions directly,
so a test cannot patch one from outside (write the position instead). The compiled extensions are
optional: without a C compiler, or with ``LANOMINO_PURE=1`` in the environment, the pure-Python
package is installed instead.
"""

from __future__ import annotations

import os

from setuptools import setup

HOT_MODULES = [
    "lanomino/engine/tiles.py",
    "lanomino/engine/rules.py",
    "lanomino/engine/actions.py",
    "lanomino/engine/line.py",
    "lanomino/engine/opening.py",
    "lanomino/engine/scoring.py",
    "lanomino/engine/dealing.py",
    "lanomino/engine/state.py",
    "lanomino/engine/legal.py",
    "lanomino/engine/moves.py",
    "lanomino/engine/play.py",
    "lanomino/engine/observe.py",
    "lanomino/botmatch.py",
    "lanomino/bots/chance.py",
    "lanomino/bots/simple.py",
    "lanomino/bots/easy.py",
    "lanomino/bots/normal.py",
    "lanomino/bots/hard.py",
    "lanomino/bots/knowledge.py",
    "lanomino/bots/belief.py",
    "lanomino/bots/odds.py",
    "lanomino/bots/playout.py",
    "lanomino/bots/tree.py",
    "lanomino/bots/paired.py",
    "lanomino/bots/expert.py",
]


def compiled_extensions() -> list[object]:
    if os.environ.get("LANOMINO_PURE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    try:
        extensions = mypycify(HOT_MODULES, opt_level="3")
    except Exception as exc:  # a mypyc that cannot handle this code: fall back, loudly
        print(f"lanomino: not compiling the engine ({exc}); installing pure Python")
        return []
    for extension in extensions:
        extension.optional = True  # a failed C build falls back to the .py modules
    return extensions


setup(ext_modules=compiled_extensions())
