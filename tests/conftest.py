"""The whole test run: what it starts ends with it, however it ends (tests/testrun.py); the slow
tests marked ``together`` run side by side within their group (tests/together.py)."""

from __future__ import annotations

from testrun import pytest_configure, pytest_unconfigure
from together import (
    pytest_addoption,
    pytest_collection_finish,
    pytest_collection_modifyitems,
    pytest_pyfunc_call,
    pytest_terminal_summary,
)

__all__ = ["pytest_addoption", "pytest_collection_finish", "pytest_collection_modifyitems",
           "pytest_configure", "pytest_pyfunc_call", "pytest_terminal_summary",
           "pytest_unconfigure"]
