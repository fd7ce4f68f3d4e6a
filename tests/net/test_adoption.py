"""A new host adopts the bots' seats under its own keys; verify checks the chain of adoption."""

from __future__ import annotations

import copy
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from migrationkit import MigratingTable  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.adoption import Adoption, AdoptionError, check, parse_adoption  # noqa: E402
from lanomino.fair.identity import Identity  # noqa: E402
from lanomino.fair.verify import StreamVerifier, verify_transcript  # noqa: E402

KEY = "ab" * 32


def test_an_adoption_record_is_parsed_strictly() -> None:
    a = parse_adoption({"host": 1, "term": 2, "keys": [[3, KEY]]}, "adopted", 4)
    assert a == Adoption(1, 2, ((3, bytes.fromhex(KEY)),)) and a.adopts(3) and not a.adopts(1)
    assert parse_adoption(a.to_json(), "adopted", 4) == a
    for bad in (
        {"host": 1, "term": 0, "keys": [[3, KEY]]},
        {"host": 4, "term": 1, "keys": [[3, KEY]]},
        {"host": 1, "term": 1, "keys": []},
        {"host": 1, "term": 1, "keys": [[3, KEY.upper()]]},
        {"host": 1, "term": 1, "keys": [[3, "ab"]]},
        {"host": 1, "term": 1},
    ):
        with pytest.raises(AdoptionError):
            parse_adoption(bad, "adopted", 4)


def test_the_chain_of_adoption() -> None:
    a = Adoption(1, 2, ((3, b"k" * 32),))
    assert check(a, log_host=1, migration_term=2, last_terms=[0, 0, 0, 0]) is None
    assert check(a, 2, 2, [0, 0, 0, 0]) == "seat 2 adopts seats, but seat 3 signs this hand's log"
    assert "migration of term 3" in (check(a, 1, 3, [0, 0, 0, 0]) or "")
    assert check(a, 1, 2, [0, 0, 0, 2]) == ("seat 4 is adopted in term 2, but that seat was "
                                            "adopted in term 2 already")
    assert check(Adoption(1, 2, ((1, b"k" * 32),)), 1, 2, [0] * 4) == (
        "the host (seat 2) adopts the host's own seat")


def _migrated_match() -> dict[str, Any]:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=31, bots=1)
    table.run(
        lambda: (
            (h := table.by_seat(0).host) is not None
            and h.deal is not None
            and h.deal.hand == 2
            and h.phase.value == "play"
            and len(h.deal.moves) >= 3
        )
    )
    table.crash(0)
    table.run(table.over)
    host = table.by_seat(1).host
    assert host is not None and host.doc is not None
    NEW_HOST[:] = [host.identity]
    return host.doc


NEW_HOST: list[Identity] = []  # the new host's key (a cheating new host signs its log again)


@pytest.fixture(scope="module")
def adopted_doc() -> dict[str, Any]:
    return _migrated_match()


def _record(doc: dict[str, Any]) -> dict[str, Any]:
    return next(h for h in doc["hands"] if "adopted" in h)


def test_a_transcript_with_an_adoption_verifies_offline_and_streamed(
    adopted_doc: dict[str, Any],
) -> None:
    assert verify_transcript(adopted_doc).ok
    stream = StreamVerifier()
    for n in range(1, len(adopted_doc["hands"])):  # hand by hand, as a peer checks it (the
        stream.check({**adopted_doc, "hands": adopted_doc["hands"][:n]})  # end fits the whole only)
    assert stream.check(adopted_doc).ok


def test_without_the_record_the_bots_new_signatures_do_not_verify(
    adopted_doc: dict[str, Any],
) -> None:
    doc = copy.deepcopy(adopted_doc)
    del _record(doc)["adopted"]
    failure = verify_transcript(doc).failure
    assert failure is not None and failure.check in ("move-signature", "commitment", "log")


def test_an_adoption_claimed_by_another_seat_is_refused(adopted_doc: dict[str, Any]) -> None:
    from lanomino.fair.checker import hand_log_statement
    from lanomino.fair.transcript import parse_transcript

    doc = copy.deepcopy(adopted_doc)
    _record(doc)["adopted"]["host"] = 2
    failure = verify_transcript(doc).failure  # changed after the new host signed the log
    assert failure is not None and failure.check == "log"
    t = parse_transcript(doc)  # the new host signs it again: the adoption check names it
    _record(doc)["log_signature"] = NEW_HOST[0].sign_statement(
        hand_log_statement(t, t.hands[_record(doc)["hand"] - 1])).hex()
    failure = verify_transcript(doc).failure
    assert (
        failure is not None
        and failure.check == "adoption"
        and "signs this hand's log" in failure.message
    )


def test_another_key_in_the_record_breaks_the_hosts_log_signature(
    adopted_doc: dict[str, Any],
) -> None:
    doc = copy.deepcopy(adopted_doc)
    _record(doc)["adopted"]["keys"][0][1] = KEY
    failure = verify_transcript(doc).failure
    assert failure is not None and failure.check in ("move-signature", "commitment", "log")


def test_a_new_host_that_adopts_a_persons_seat_fails_that_persons_check() -> None:
    """Only host-side bots' seats may be adopted. A new host that also lists a person's seat (here
    seat 2, still at the table) could sign that player's moves: seat 2 fails the hand at once,
    and the verifier, switching seat 2 to the new key, refuses seat 2's own later signatures."""
    from lanomino.fair.identity import Identity
    from lanomino.net.session import HandVerified, MatchOver

    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=31, bots=1)
    table.run(lambda: (h := table.by_seat(0).host) is not None and h.deal is not None
              and h.deal.hand == 2 and h.phase.value == "play" and len(h.deal.moves) >= 3)
    table.crash(0)
    table.run(lambda: (h := table.by_seat(1).host) is not None and h.adoption is not None)
    new = table.by_seat(1).host
    assert new is not None and new.adoption is not None
    assert [n for n, _ in new.adoption.keys] == [3]  # the bot's seat, as it should be
    person = (2, Identity.generate().public_key)  # and a person's
    new.shared.adoption = replace(new.adoption, keys=(*new.adoption.keys, person))
    seat2 = table.by_seat(2)
    seen = len(seat2.events)
    table.run(lambda: any(isinstance(e, HandVerified) for e in seat2.events[seen:]))
    check = next(e for e in seat2.events[seen:] if isinstance(e, HandVerified))
    assert not check.ok and "adopted this seat's key" in check.detail
    table.run(table.over)
    over = [e for e in seat2.events if isinstance(e, MatchOver)]
    assert over and not over[-1].verified
    assert new.doc is not None
    failure = verify_transcript(new.doc).failure
    assert failure is not None and failure.check in ("move-signature", "commitment")
    assert "seat 3" in failure.message and "host (seat 2)" in failure.blame  # (words from 1)
