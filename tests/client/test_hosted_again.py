"""A member that hosts the table at the match's end (after a migration) opens it again as the
table was: the same deal among them (a table opened with ``--deal fair`` stays fair, a locked one
stays locked), not whatever a new table would deal by default."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
from sessionkit import Table  # noqa: E402

from lanomino.client.rematch import hosted_again
from lanomino.engine import Rules
from lanomino.runtime.base import Hosting


class TookOver:
    """A node that took ``table``'s host session over: what ``hosted_again`` asks of a node."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def hosting(self) -> Hosting:
        return Hosting.of("Den", self.table.host, 1, None, took_over=True)


@pytest.mark.parametrize("blind", [False, True])
def test_a_rematch_after_a_migration_deals_as_the_table_did(blind: bool) -> None:
    table = Table(Rules.classic(), 3, blind=blind)
    again = hosted_again(TookOver(table))  # type: ignore[arg-type]
    assert again is not None and again.blind is blind and again.name == "Den"
