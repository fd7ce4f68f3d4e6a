"""A person who leaves a locked table before a hand is dealt, when that leaves one side (issue 29):
at a table of two people, the other one; in a partnership game, a partner. The match ends as a
fair table's does (the engine's rule: the side left wins), not "won by nobody": the host's
closing statement keeps the departures (``end.departures``: no hand entry can, as the hand was
never dealt), every seat that stayed is told the result (``blind_over``) and holds the host's
transcript, and ``lanomino verify`` accepts it, listing the departure as not checked. Edits to
the new field are caught."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table, leave  # noqa: E402
from test_blind_dealleave import MUTED, last_transcript, waiting  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.identity import Identity  # noqa: E402
from lanomino.fair.statements import end_statement  # noqa: E402
from lanomino.fair.transcript import TranscriptError  # noqa: E402
from lanomino.fair.transcript2 import parse_transcript2  # noqa: E402
from lanomino.fair.verify import to_record, verify_transcript  # noqa: E402
from lanomino.net.host.table import Phase  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    HostCaught,
    MatchOver,
    ProtocolProblem,
    SeatLeft,
    TranscriptUpdated,
)
from lanomino.record.format import parse_record  # noqa: E402
from lanomino.record.replay import replay  # noqa: E402
from lanomino.store.facts import derive  # noqa: E402


def leave_before_a_hand(rules: Rules, players: int, hand: int, step: str = "keys",
                        blind: bool = True) -> Table:
    """Seat 2 (slot 0) quits once hand ``hand``'s deal began (the first hand's: once it waits
    for that seat alone at ``step``); the match runs to its end."""
    table = Table(rules, players, blind=blind, seed=1)
    slot = table.slots[0]
    if blind:
        locked = table.host.blind
        assert locked is not None
        if hand == 1:
            slot.mute = frozenset(MUTED[step])
        due = waiting(table, step, 1)

        def there() -> bool:
            if hand == 1:
                return due()
            return locked.number == hand and locked.hand is not None \
                and locked.hand.view is None
    else:
        shared = table.host.shared

        def there() -> bool:
            return shared.phase is Phase.DEAL and len(shared.doc["hands"] if shared.doc
                                                      else []) == hand - 1
    table.run(lambda: there() or table.over())
    assert there(), f"the table never got to hand {hand}'s {step}"
    leave(table, slot, quits=True)
    table.run(table.over)
    return table


def ended(table: Table) -> tuple[MatchOver, dict[str, Any]]:
    over = [e for e in table.host_events if isinstance(e, MatchOver)]
    assert len(over) == 1, over
    return over[0], last_transcript(table.host_events)


@pytest.mark.parametrize(("hand", "step"), [(1, "keys"), (1, "shares"), (2, "keys")])
def test_the_other_person_leaving_a_two_person_locked_table_in_a_deal_ends_it_as_a_fair_one(
        hand: int, step: str) -> None:
    """The host stays: the match is over, won by the host's seat (as the fair table says), the
    transcript closes with the departure in its closing statement and verifies."""
    table = leave_before_a_hand(Rules.preset("classic"), 2, hand, step)
    fair = leave_before_a_hand(Rules.preset("classic"), 2, hand, "keys", blind=False)
    fair_over, _ = ended(fair)
    over, doc = ended(table)
    assert [e.seat for e in table.host_events if isinstance(e, SeatLeft)] == [1]
    assert over.verified and not over.reason, over
    assert (over.winner, fair_over.winner) == (0, 0) and fair_over.verified
    assert over.hands == hand - 1 == len(doc["hands"])
    end = doc["end"]
    assert end["finished"] and end["winner"] == 0 and end["hands"] == hand - 1
    assert [(d["seat"], d["by"], d["at"]) for d in end["departures"]] == [(1, "left", 0)]
    assert end["departures"][0]["attempt"] == 2  # (its attempt 1 given up as it left)
    report = verify_transcript(doc)
    assert report.ok, report.failure
    said = " ".join(report.lines())
    assert "that seat 2 had left (the host resigned it" in said, said
    assert derive(doc).verified
    if hand == 1:  # (a record's resignation is a move of a hand: none was dealt)
        with pytest.raises(TranscriptError, match="before it was dealt"):
            to_record(doc)
        return
    record = to_record(doc)  # the game record: the seat resigns after the hand before
    assert record["hands"][-1]["moves"][-1] == {"seat": 1, "resign": True}
    result = replay(parse_record(record))
    assert list(result.scores) == end["scores"]


def test_a_partner_who_leaves_in_a_deal_concedes_and_the_people_left_are_told() -> None:
    """A partnership game of four people: seat 2 leaves hand 2's deal, its side concedes (the
    engine's rule). The two peers left are told by the host's ``blind_over``, checked against
    the departure each of them holds: the same result and the same verified transcript as the
    host's."""
    table = leave_before_a_hand(Rules.preset("partnership"), 4, 2)
    over, doc = ended(table)
    assert over.verified and over.winner == 0
    for slot in table.slots[1:]:
        theirs = [e for e in slot.events if isinstance(e, MatchOver)]
        assert len(theirs) == 1 and theirs[0].winner == 0, theirs
        assert theirs[0].scores == over.scores and theirs[0].verified
        assert not [e for e in slot.events if isinstance(e, HostCaught)]
        assert json.dumps(last_transcript(slot.events), sort_keys=True) == \
            json.dumps(doc, sort_keys=True)
        # (a message of the attempt given up, sent before its seat knew: refused as stale)
        assert all(e.code == "stale" for e in slot.events if isinstance(e, ProtocolProblem))
        assert any(isinstance(e, TranscriptUpdated) and e.finished for e in slot.events)
    report = verify_transcript(doc)
    assert report.ok, report.failure


def departed_doc() -> tuple[dict[str, Any], Identity]:
    table = leave_before_a_hand(Rules.preset("classic"), 2, 2)
    return ended(table)[1], table.host.shared.identity


def signed_again(doc: dict[str, Any], host: Identity) -> dict[str, Any]:
    """The host signs its closing statement again over the file as it now is."""
    doc = copy.deepcopy(doc)
    head, _ = parse_transcript2(doc)
    e = head.end
    doc["end"]["signature"] = host.sign_statement(end_statement(
        head.header_digest, e.host, e.hands, e.finished, e.winner, e.scores,
        [d.statement_json() for d in e.departures])).hex()
    return doc


def test_the_closing_departures_are_the_hosts_word_and_each_one_its_signers() -> None:
    """Dropped from the file: the closing signature fails (edited, nobody named); dropped and
    the closing signed again: the match was not over, as the host says (the host); a departure
    whose signature is not the host's, or two of them, or an empty list: refused."""
    doc, host = departed_doc()
    dropped = copy.deepcopy(doc)
    del dropped["end"]["departures"]
    report = verify_transcript(dropped)
    assert report.failure is not None and report.failure.check == "end"
    assert report.failure.seat is None
    report = verify_transcript(signed_again(dropped, host))
    assert report.failure is not None and report.failure.check == "end"
    assert report.failure.seat == 0 and "unfinished" in report.failure.message
    forged = copy.deepcopy(doc)
    forged["end"]["departures"][0]["signature"] = "00" * 64
    report = verify_transcript(signed_again(forged, host))
    assert report.failure is not None and report.failure.check == "signature"
    assert report.failure.seat == 0
    twice = copy.deepcopy(doc)
    twice["end"]["departures"] *= 2
    report = verify_transcript(signed_again(twice, host))
    assert report.failure is not None and report.failure.seat == 0
    empty = copy.deepcopy(doc)
    empty["end"]["departures"] = []
    with pytest.raises(TranscriptError, match="end.departures"):
        verify_transcript(empty)
