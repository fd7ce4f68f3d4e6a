"""``random.Random``'s own draws, without its interpreted layers: ``choice``, ``shuffle`` and a
seeded generator, each giving exactly what the ``random.Random`` method gives from the same state
and leaving the generator in the same state (tests/bots/test_bot_chance.py checks both).

Why: a random bot's whole move is one ``rng.choice``, which is two interpreted calls around one
``getrandbits``; self-play spends as long there as in the engine. Compiled with mypyc when
installed (see setup.py). A generator of another type, which may draw differently, is left to its
own methods.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Sequence
from typing import Any, Final, TypeVar, cast

T = TypeVar("T")
# Typed loosely: typeshed does not know gauss_next.
_NEW: Final[Any] = random.Random.__new__
_C_SEED: Final[Any] = _random.Random.seed
# Held here rather than looked up at each draw: the class (a module attribute) and its C method,
# which random.Random does not override (a subclass that does fails the type check first).
_RANDOM: Final = random.Random
_GETRANDBITS: Final[Any] = _random.Random.getrandbits


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)``. ``Random.choice`` takes ``_randbelow(len(seq))``: ``getrandbits(k)``,
    k = len(seq).bit_length(), until it is below len(seq). Raises IndexError when seq is empty."""
    if type(rng) is not _RANDOM:
        return rng.choice(seq)
    n = len(seq)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    k = n.bit_length()
    r: int = _GETRANDBITS(rng, k)
    while r >= n:
        r = _GETRANDBITS(rng, k)
    if isinstance(seq, tuple):  # compiled, a native tuple index (a random bot's legal moves)
        return cast("T", seq[r])
    return seq[r]


def shuffle(rng: random.Random, deck: list[T]) -> None:
    """``rng.shuffle(deck)``: each place i, from the last down, swaps with ``_randbelow(i + 1)``."""
    if type(rng) is not _RANDOM:
        rng.shuffle(deck)
        return
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = _GETRANDBITS(rng, k)
        while j >= n:
            j = _GETRANDBITS(rng, k)
        deck[i], deck[j] = deck[j], deck[i]


def _seeds_alike() -> bool:
    """Whether seeding the C generator directly gives the state ``Random(seed)`` gives. For an
    integer, ``Random.__init__`` and ``Random.seed`` (both interpreted) come down to the C type's
    ``seed`` and ``gauss_next = None``; this checks that the installed Python still does so."""
    try:
        fresh = _NEW(random.Random)
        _C_SEED(fresh, 2**63 + 12345)
        fresh.gauss_next = None
        return bool(fresh.getstate() == random.Random(2**63 + 12345).getstate())
    except (AttributeError, TypeError):
        return False


_SEEDS_ALIKE: Final = _seeds_alike()


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)`` for a non-negative integer seed."""
    if not _SEEDS_ALIKE:
        return random.Random(seed)
    rng = _NEW(_RANDOM)
    _C_SEED(rng, seed)
    rng.gauss_next = None
    made: random.Random = rng
    return made
