"""The whole test run: what it starts ends with it, however it ends (tests/testrun.py)."""

from __future__ import annotations

from testrun import pytest_configure, pytest_unconfigure

__all__ = ["pytest_configure", "pytest_unconfigure"]
