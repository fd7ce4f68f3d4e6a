"""An in-memory table: one HostSession and N PeerSessions on a fake clock, every message through the
real codec (encode to bytes, decode and validate), bots on every seat."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lanomino.bots import get_bot
from lanomino.engine import RESIGN, Action, IllegalActionError, Observation, Rules
from lanomino.fair.commit import TABLE_ID_BYTES
from lanomino.fair.identity import Identity
from lanomino.net.codec import decode_json, encode_json
from lanomino.net.session import (
    HostSession,
    LocalSeat,
    PeerSession,
    Sender,
    SessionEvent,
    Timings,
    YourTurn,
)

FAST = Timings(heartbeat_s=1.0, liveness_s=3.0, grace_s=10.0)
# A locked match to 50 points: it ends a hand or a few after a first hand's leave or loss (to
# 100, up to 13 hands, each one's shuffles and proofs paid for again, that show nothing the first
# hand after it does not)
SHORT = Rules.preset("classic", target=50)


def curve_key(n: int) -> str:
    """A well-formed Z85 CURVE public key, distinct per ``n`` (sessions never use the secret)."""
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return "".join(alphabet[(n * 7 + i) % len(alphabet)] for i in range(39)) + "0"


def table_id_of(seed: int) -> bytes:
    """A table id fixed by the test's seed: with counter secrets, the deals of a seed are the same
    on every run (a fresh id would deal differently each time, and a test could pass or fail by
    luck)."""
    import hashlib

    return hashlib.sha256(f"table/{seed}".encode()).digest()[:TABLE_ID_BYTES]


def counter_secrets(tag: str) -> Callable[[], bytes]:
    import hashlib

    count = [0]

    def source() -> bytes:
        count[0] += 1
        return hashlib.sha256(f"{tag}/{count[0]}".encode()).digest()

    return source


def seen_fields(session: PeerSession, index: int) -> dict[str, Any]:
    """A hand-made ``move`` body's view of the log before it (net/peer/arrival.py), as JSON."""
    head, host, signature = session.arrival.seen(session.hand, index)
    return {"seen": head.hex(), "seen_host": None if host is None else host.hex(),
            "seen_signature": signature.hex(), "away": False}


def phase_of(host: Any) -> str:
    """A host's phase, with a deal round's step in its place (commit, echo, reveal)."""
    if host.phase.value == "deal" and host.deal is not None:
        return str(host.deal.current.round.step.value)
    return str(host.phase.value)


def bot_policy(name: str, seed: int) -> Callable[[Observation], Action]:
    bot, rng = get_bot(name), random.Random(seed)
    return lambda obs: bot(obs, rng)


def resigns_at(decision: int, seed: int) -> Callable[[Observation], Action]:
    """A greedy bot that resigns at its ``decision``-th move."""
    bot, count = bot_policy("greedy", seed), [0]

    def policy(obs: Observation) -> Action:
        count[0] += 1
        return RESIGN if count[0] == decision else bot(obs)
    return policy


def in_play(blind: Any, moves: int, drawing: bool = False) -> Callable[[], bool]:
    """Whether the locked hand of ``blind`` (a host's locked part) is in play, not over, with at
    least ``moves`` moves, and a draw waiting for its shares (``drawing``) or none."""
    def due() -> bool:
        hand = blind.hand
        return (hand is not None and hand.view is not None and (hand.draw is None) != drawing
                and hand.view.outcome is None and len(hand.moves) >= moves)
    return due


@dataclass
class PeerSlot:
    session: PeerSession
    sender: Sender
    bot: Callable[[Observation], Action] | None
    inbox: list[dict[str, Any]] = field(default_factory=list)  # every message it was given, decoded
    events: list[SessionEvent] = field(default_factory=list)
    connected: bool = True
    mute: frozenset[str] = frozenset()  # message types this peer never sends (a stalling peer)


class Table:
    """Host + peers wired in memory. ``run()`` delivers messages and fires timers until quiet."""

    def __init__(self, rules: Rules, players: int, *, peers: int | None = None, bots: int = 0,
                 passphrase: str | None = None, peer_passphrase: str | None = None,
                 timings: Timings = FAST, level: str = "greedy", seed: int = 1,
                 watchers: int = 8, blind: bool = False) -> None:
        self.now = 0.0
        self.rules = rules
        self.timings = timings
        host_bots = [LocalSeat(f"bot{i}", Identity.generate(), bot_policy(level, seed * 100 + i),
                               level) for i in range(bots)]
        self.host = HostSession(Identity.generate(), curve_key(0), rules, players, name="host",
                                host_policy=bot_policy(level, seed), bots=host_bots,
                                passphrase=passphrase, timings=timings,
                                secret_source=counter_secrets(f"host{seed}"), watchers=watchers,
                                blind=blind, table_id=table_id_of(seed))
        self.host_events: list[SessionEvent] = []
        self.slots: list[PeerSlot] = []
        count = players - 1 - bots if peers is None else peers
        for i in range(count):
            known = peer_passphrase if peer_passphrase is not None else passphrase
            self.add_peer(f"peer{i + 1}", passphrase=known, seed=seed * 10 + i)
        self.wire_bytes = 0

    def add_peer(self, name: str, *, passphrase: str | None = None, seed: int = 0,
                 identity: Identity | None = None, curve_n: int | None = None,
                 bot: str | None = "greedy",
                 secrets: dict[tuple[str, int, int], bytes] | None = None,
                 watch: bool = False, ip: str | None = None) -> PeerSlot:
        n = curve_n if curve_n is not None else len(self.slots) + 1
        curve = curve_key(n)
        session = PeerSession(identity or Identity.generate(), curve, self.host.curve, name=name,
                              passphrase=passphrase, timings=self.timings, secrets=secrets,
                              secret_source=counter_secrets(f"{name}/{seed}/{n}"), watch=watch)
        slot = PeerSlot(session, Sender(f"route-{n}-{len(self.slots)}".encode(), curve, ip),
                        bot_policy(bot, seed) if bot else None)
        self.slots.append(slot)
        session.connect(self.now)
        return slot

    # ----- delivery --------------------------------------------------------------------------

    def add_watcher(self, name: str, *, passphrase: str | None = None, curve_n: int | None = None,
                    identity: Identity | None = None) -> PeerSlot:
        """A watcher (no seat, no bot): it follows the table (net/watchers.py)."""
        n = curve_n if curve_n is not None else 100 + len(self.slots)
        return self.add_peer(name, passphrase=passphrase, curve_n=n, identity=identity, bot=None,
                             watch=True)

    def to_host(self, slot: PeerSlot, message: dict[str, Any]) -> None:
        data = encode_json(message)
        self.wire_bytes += len(data)
        self.host.receive(slot.sender, decode_json(data), self.now)

    def step(self) -> bool:
        """Deliver everything queued once; True when anything moved."""
        moved = False
        for slot in self.slots:
            out = slot.session.take_outgoing()
            if slot.connected:
                for message in out:
                    if message["type"] in slot.mute:
                        continue
                    moved = True
                    self.to_host(slot, message)
        routes = {s.sender.route: s for s in self.slots}
        for outgoing in self.host.take_outgoing():
            slot = routes.get(outgoing.route)
            if slot is None or not slot.connected:
                continue
            moved = True
            data = encode_json(outgoing.message)
            self.wire_bytes += len(data)
            message = decode_json(data)
            slot.inbox.append(message)
            slot.session.receive(message, self.now)
        self.host_events += self.host.take_events()
        for slot in self.slots:
            events = slot.session.take_events()
            slot.events += events
            # a bot answers the latest turn of the step, and only while it is still its turn (the
            # step may also hold that turn played for it by the table's bot, or the hand's end)
            turns = [e for e in events if isinstance(e, YourTurn)]
            view = slot.session.view
            current = (view is not None and view.phase == "play"
                       and view.turn == slot.session.seat)
            for event in events:
                if (turns and event is turns[-1] and current and slot.bot is not None
                        and slot.connected and slot.session.pending_move is None
                        and not slot.session.holding  # (a locked draw, a blind re-shuffle)
                        and slot.session.phase.value == "seated"):  # (not once it has left)
                    if slot.mute:  # (a muted mover's turn may have been played for it since)
                        try:
                            slot.session.submit(slot.bot(event.observation), self.now)
                        except IllegalActionError:
                            continue
                    else:
                        slot.session.submit(slot.bot(event.observation), self.now)
                    moved = True
        return moved

    def run(self, until: Callable[[], bool] | None = None, max_time: float = 600.0,
            tick: float = 0.25) -> None:
        """Deliver and move the clock (to the next deadline, at most ``tick``) until ``until``."""
        stop = until or (lambda: False)
        limit = self.now + max_time
        while not stop() and self.now < limit:
            for _ in range(100_000):
                if not self.step() or stop():
                    break
            else:
                raise AssertionError("the table never went quiet")
            if stop():
                return
            peers = (s.session.next_deadline() for s in self.slots if s.connected)
            deadlines = [d for d in [self.host.next_deadline(), *peers] if d is not None]
            self.now = max(self.now + 1e-3, min([self.now + tick, *deadlines]))
            self.host.handle_timer(self.now)
            for slot in self.slots:
                if slot.connected:
                    slot.session.handle_timer(self.now)
            self.step()  # what the timers sent leaves before ``stop`` looks, as the runtime
            # flushes after its timers (runtime/base.py): a host-side bot's move is not held back

    def over(self) -> bool:
        """The host ended the match and every connected peer has been told (its last hand log)."""
        return self.host.phase.value == "over" and all(
            s.session.phase.value in ("over", "closed") for s in self.slots if s.connected)


def leave(table: Table, slot: PeerSlot, quits: bool, drawing: bool = False) -> None:
    """The person at ``slot`` leaves the table: with a goodbye, its ``quit`` sent at once
    (``quits``), or by going silent, to be let go once its grace period runs out. ``drawing``:
    a draw waits for its share, which never goes out."""
    if drawing:
        slot.mute = frozenset({"blind_draw"})
    if quits:
        slot.session.quit(table.now)
        table.step()
    slot.connected = False
