"""The host session's phase has one owner (net/host/table.py): a transition the table does not
list is refused and changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import lanomino.net.host as host
from lanomino.engine import Rules
from lanomino.fair.identity import Identity
from lanomino.net.errors import LocalProtocolError
from lanomino.net.host.table import TRANSITIONS, Phase, Table
from lanomino.net.session_base import Timings


def _table() -> Table:
    rules = Rules.preset("classic")
    return Table(Identity.generate(), "curve", rules, 2, rules_spec=rules.to_spec(),
                 timings=Timings(), term=0, table_id=b"\x01" * 16,
                 secret_source=lambda: b"\x02" * 32)


def test_every_phase_has_a_row_and_stepping_down_is_final() -> None:
    assert set(TRANSITIONS) == set(Phase)
    assert TRANSITIONS[Phase.STEPPED_DOWN] == frozenset()
    assert all(Phase.STEPPED_DOWN in TRANSITIONS[p] for p in Phase if p is not Phase.STEPPED_DOWN)


def test_a_transition_the_table_does_not_list_is_refused_and_changes_nothing() -> None:
    table = _table()
    with pytest.raises(LocalProtocolError, match="from lobby to play"):
        table.go(Phase.PLAY)
    assert table.phase is Phase.LOBBY
    table.go(Phase.HEADER)
    table.go(Phase.DEAL)
    table.go(Phase.PLAY)
    with pytest.raises(LocalProtocolError):
        table.go(Phase.HEADER)  # once a hand was dealt the table never goes back to its header
    assert table.phase is Phase.PLAY


def test_the_host_parts_never_set_the_phase_themselves() -> None:
    """Only Table.go writes the phase (and Table.__init__ starts it): no part assigns it."""
    folder = Path(host.__file__).parent
    writes = {path.name: len(re.findall(r"\._?phase = ", path.read_text(encoding="utf-8")))
              for path in folder.glob("*.py")}
    assert writes.pop("table.py") == 2  # ``self._phase = Phase.LOBBY`` and, in go, ``= to``
    assert set(writes) >= {"session.py", "deal.py", "play.py", "takeover.py", "seating.py"}
    assert sum(writes.values()) == 0, writes
