"""Which engine build is under test: CI sets LANOMINO_EXPECT_COMPILED when it re-runs the rules
tests against the installed, mypyc-compiled package (see setup.py and .ci/run)."""

from __future__ import annotations

import os

import pytest

import lanomino.engine.state as engine_state


def test_the_engine_build_is_the_one_ci_asked_for() -> None:
    expected = os.environ.get("LANOMINO_EXPECT_COMPILED")
    if expected is None:
        pytest.skip("LANOMINO_EXPECT_COMPILED not set: any build will do")
    compiled = not engine_state.__file__.endswith(".py")
    assert compiled == (expected == "1"), f"engine loaded from {engine_state.__file__}"
