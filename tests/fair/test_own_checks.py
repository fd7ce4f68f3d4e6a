"""A seat's own checks come first, on its own screen: a real host session patched to cheat in one
message (a dealt tile, a drawn tile, a published secret) against real peer sessions; the victim's
hand check names the host with its own evidence, and the verifier never blames the victim."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from sessionkit import Table  # noqa: E402

from lanomino.engine import Rules, Tile  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.host import deal as host_deal  # noqa: E402
from lanomino.net.session import HandVerified  # noqa: E402

Deal = tuple[Any, list[list[Tile]], list[Tile]]


def _cheating_deal(monkeypatch: pytest.MonkeyPatch, change: Callable[[Deal], None]) -> None:
    """The host deals hand 1 from a deal it changed (``change``), then deals honestly."""
    honest = host_deal.derive_deal
    done = [False]

    def derive(*args: Any) -> Any:
        deck, hands, boneyard = honest(*args)
        out: Deal = (deck, [list(h) for h in hands], list(boneyard))
        if not done[0]:
            done[0] = True
            change(out)
        return out

    monkeypatch.setattr(host_deal, "derive_deal", derive)


def _first_check(table: Table, slot: int) -> HandVerified:
    events = table.slots[slot].events
    table.run(lambda: any(isinstance(e, HandVerified) for e in events), max_time=600)
    return next(e for e in events if isinstance(e, HandVerified))


def _host_blamed_in_file(table: Table, always: bool = True) -> None:
    """The file blames the host for hand 1 (unless ``always`` is False and the changed tile never
    showed in the moves or the score: then the file alone is fair, and only the victim knew)."""
    doc = table.host.shared.doc
    assert doc is not None
    failure = verify_transcript(doc).failure
    if failure is None and not always:
        return
    assert failure is not None and failure.hand == 1 and failure.seat == 0, failure
    assert failure.blame == "the host (seat 1)"


def test_a_swapped_dealt_tile_is_named_first_on_the_victims_screen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def swap(deal: Deal) -> None:  # seat 2 (the first peer) gets a tile of the boneyard's
        hands, boneyard = deal[1], deal[2]
        hands[1][0], boneyard[-1] = boneyard[-1], hands[1][0]

    _cheating_deal(monkeypatch, swap)
    table = Table(Rules.preset("classic", target=30), 3, seed=2)
    check = _first_check(table, 0)
    assert not check.ok
    assert check.detail.startswith("the host dealt this seat ")
    assert "where the committed shuffle gives it" in check.detail
    assert check.detail.endswith("[blame: the host]")
    _host_blamed_in_file(table, always=False)


def test_a_drawn_tile_that_is_not_the_boneyards_front_is_named_by_the_seat_that_drew_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def swap(deal: Deal) -> None:  # the boneyard's front and its last tile change places
        boneyard = deal[2]
        boneyard[0], boneyard[-1] = boneyard[-1], boneyard[0]

    for seed in range(3, 23):  # (a table whose first draw of hand 1 is a peer's: the deal is
        _cheating_deal(monkeypatch, swap)  # random, as the table id is)
        table = Table(Rules.preset("classic", target=30, hand_size=3), 3, seed=seed)
        checks = [_first_check(table, 0), _first_check(table, 1)]
        doc = table.host.shared.doc
        assert doc is not None
        drawer = next((m["seat"] for m in doc["hands"][0]["moves"] if m.get("draw")), 0)
        if drawer != 0:
            break
    else:
        raise AssertionError("no peer drew first in hand 1 at 20 tables")
    own = checks[drawer - 1]
    assert not own.ok and own.detail.startswith("the host gave this seat "), own.detail
    assert "but the boneyard's front was" in own.detail and own.detail.endswith(
        "[blame: the host]")
    _host_blamed_in_file(table, always=False)


def test_a_wrong_published_secret_is_named_on_its_seats_screen() -> None:
    table = Table(Rules.preset("classic", target=30), 3, seed=12)
    table.run(lambda: table.host.phase.value == "play")
    a = table.host.deal.current  # type: ignore[union-attr]
    a.round.secrets[1] = bytes(32)  # the host publishes another secret for seat 2 (a peer)
    check = _first_check(table, 0)
    assert not check.ok
    assert check.detail == ("the host published a secret for this seat that is not the one it "
                            "revealed (deal 1) [blame: the host]")
    other = _first_check(table, 1)  # the other peer: the verifier's words, the host to blame
    assert not other.ok and other.detail.endswith("[check: secret; blame: the host (seat 1)]")
    _host_blamed_in_file(table)


def test_a_log_whose_signature_fails_is_the_hosts_on_the_seat_that_received_it() -> None:
    """In a file, a signature that does not verify says the file was changed; a seat that had the
    log from the host itself knows who sent it."""
    from fairkit import make_transcript

    from lanomino.fair.own_checks import own_checks
    from lanomino.fair.transcript import parse_transcript

    doc = make_transcript("classic", 3, 1, target=30)
    doc["hands"][0]["log_signature"] = "00" * 64
    report = verify_transcript(doc)
    assert report.failure is not None and report.failure.blame == "whoever changed the file"
    own = own_checks(report, parse_transcript(doc).hands[0], 1)
    assert own == ("the host sent this seat a transcript whose signatures do not verify: it sent "
                   "words it did not sign (log check) [blame: the host]")
