"""PeerSession.presign: a move signed ahead goes out without signing again, only for that move."""

from __future__ import annotations

from typing import Any

import pytest
from sessionkit import PeerSlot, Table, bot_policy

from lanomino.engine import Rules
from lanomino.fair.identity import Identity, KeyRing
from lanomino.fair.transcript import move_statement
from lanomino.net.session import YourTurn


def my_turn(table: Table, slot: PeerSlot) -> Any:
    table.run(lambda: any(isinstance(e, YourTurn) for e in slot.events))
    obs = next(e.observation for e in reversed(slot.events) if isinstance(e, YourTurn))
    slot.events.clear()
    return obs


def sent_move(slot: PeerSlot) -> dict[str, Any]:
    (message,) = [m for m in slot.session.take_outgoing() if m["type"] == "move"]
    return message["body"]  # type: ignore[no-any-return]


def signs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = Identity.sign_statement

    def counting(self: Identity, statement: dict[str, Any]) -> bytes:
        calls.append(1)
        return original(self, statement)

    monkeypatch.setattr(Identity, "sign_statement", counting)
    return calls


def test_a_presigned_move_goes_out_without_signing_and_the_match_verifies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(Rules.preset("classic", target=60), 2)
    slot = table.slots[0]
    slot.bot = None
    peer = slot.session
    obs = my_turn(table, slot)
    calls = signs(monkeypatch)
    peer.presign(obs.legal[-1])
    assert len(calls) == 2 and not peer.take_outgoing()  # (the move and the log head it saw)
    peer.submit(obs.legal[-1], table.now)
    assert len(calls) == 2  # not signed again
    body = sent_move(slot)
    statement = move_statement(peer.digest, body["hand"], body["index"], body["move"])
    signature = bytes.fromhex(body["signature"])
    assert KeyRing().verify_statement(peer.identity.public_key, signature, statement)
    table.to_host(slot, {"v": 1, "type": "move", "term": 0, "seq": peer.my_seq, "body": body})
    slot.bot = bot_policy("greedy", 3)
    table.run(table.over)
    assert peer.verified_all and table.host.phase.value == "over"


@pytest.mark.parametrize("change", ["index", "move", "hand"])
def test_a_signature_made_for_another_move_or_point_is_not_used(monkeypatch: pytest.MonkeyPatch,
                                                                change: str) -> None:
    table = Table(Rules.preset("classic", target=60), 2)
    slot = table.slots[0]
    slot.bot = None
    peer = slot.session
    obs = my_turn(table, slot)
    calls = signs(monkeypatch)
    peer.presign(obs.legal[0])
    assert peer._presigned is not None
    digest, hand, index, move, _, seen = peer._presigned
    other = {"index": (digest, hand, index + 1, move), "hand": (digest, hand + 1, index, move),
             "move": (digest, hand, index, {**move, "seat": 1 - peer.seat})}[change]
    peer._presigned = (*other, b"\0" * 64, seen)  # signed for something else: must not be sent
    peer.submit(obs.legal[0], table.now)
    assert len(calls) == 4 and peer._presigned is None  # (a move and the head it saw, twice)
    body = sent_move(slot)
    statement = move_statement(peer.digest, body["hand"], body["index"], body["move"])
    signature = bytes.fromhex(body["signature"])
    assert KeyRing().verify_statement(peer.identity.public_key, signature, statement)
