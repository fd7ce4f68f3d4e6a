"""A table whose host can crash, freeze or leave, in memory on a fake clock: every machine runs a
HostSession or a PeerSession and may switch (a peer elected host, a host stepping down). Messages go
through the real codec, and reach a host through its transport's per-connection budget (as
``HostTransport`` drops what is over it); a machine that is down neither sends nor receives;
"discovery" tells a machine about a live host with a higher term (as the zeroconf announcement
would)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sessionkit import FAST, Table, bot_policy

from lanomino.engine import Action, IllegalActionError, Observation, Rules
from lanomino.fair.identity import peer_id
from lanomino.net.budget import Budgets, Standing
from lanomino.net.codec import decode_json, encode_json
from lanomino.net.member import TableMember
from lanomino.net.session import (
    HostChanged,
    HostSession,
    PeerSession,
    Sender,
    SessionEvent,
    Timings,
    YourTurn,
)


@dataclass
class Machine:
    seat: int
    sender: Sender
    policy: Callable[[Observation], Action]
    host: HostSession | None = None
    peer: PeerSession | None = None
    follows: int = 0  # the seat of the host this peer talks to
    connected_to: int = 0  # the seat its connection goes to (``follows`` once it sent there)
    up: bool = True
    events: list[SessionEvent] = field(default_factory=list)
    inbox: list[dict[str, Any]] = field(default_factory=list)  # what reached it while frozen
    hosted_terms: list[int] = field(default_factory=list)
    stepped_down: list[int] = field(default_factory=list)
    frozen: bool = False
    cut: bool = False  # its link is down: its timers run, what it sends or is sent waits
    member: TableMember | None = None  # a peer's role switch: the same object the node drives
    budgets: Budgets = field(default_factory=Budgets)  # its host ROUTER's, per connection
    over_budget: list[str] = field(default_factory=list)  # the types it dropped unread

    def identity_key(self) -> bytes:
        if self.member is not None:
            return self.member.peer.identity.public_key
        assert self.host is not None
        return self.host.identity.public_key


class MigratingTable:
    """``players`` people (seat 0 hosts), every seat a bot; ``crash(seat)`` and friends break it."""

    def __init__(self, rules: Rules, players: int, *, seed: int = 1, timings: Timings = FAST,
                 bots: int = 0, watchers: int = 0, blind: bool = False) -> None:
        self.base = Table(rules, players, seed=seed, timings=timings, bots=bots, blind=blind)
        for i in range(watchers):  # they follow the table without a seat (net/watchers.py)
            self.base.add_watcher(f"watcher{i + 1}")
        self.seed = seed
        self.now = 0.0
        self.timings = timings
        self.machines = [Machine(0, Sender(b"route-host", self.base.host.curve),
                                 bot_policy("greedy", seed), host=self.base.host)]
        self.machines[0].hosted_terms.append(0)
        for slot in self.base.slots:
            slot.session.migration = True
            m = Machine(-1, slot.sender, slot.bot or bot_policy("greedy", seed), peer=slot.session)
            m.member = TableMember(slot.session, policy=m.policy,
                                   bot_policy=lambda level: bot_policy(level, seed))
            self.machines.append(m)
        self.base.host.local[0] = self.base.host.local[0].__class__(
            self.base.host.local[0].name, self.base.host.local[0].identity, self.machines[0].policy)
        self.finished: list[Any] = []
        # a host that dies with one member's connection not flushed (``dies_unflushed``)
        self.unflushed: tuple[int, Callable[[int, dict[str, Any]], bool]] | None = None
        self.stalled: tuple[int, Callable[[int, dict[str, Any]], bool], set[int]] | None = None

    # ----- faults ----------------------------------------------------------------------------

    def crash(self, seat: int, frozen: bool = False) -> None:
        """The machine stops: killed (what was sent to it is lost) or ``frozen`` (SIGSTOP: what was
        sent to it, and what it had queued, waits in the sockets until it is revived)."""
        m = self.by_seat(seat)
        m.up, m.frozen = False, frozen

    def dies_unflushed(self, seat: int, when: Callable[[int, dict[str, Any]], bool]) -> None:
        """The host at ``seat`` dies between two sends: from the first message it sends that
        ``when(member seat, message)`` picks on, nothing more reaches that member, and the
        host is down once the others got the rest of what it sent with it (as a SIGKILLed
        host's sockets flush one connection and not another)."""
        self.unflushed = (seat, when)

    def stalls(self, seat: int, when: Callable[[int, dict[str, Any]], bool]) -> None:
        """The host at ``seat`` runs on, but from the first message it sends that ``when(member
        seat, message)`` picks on, nothing more reaches that member: it waits in the host's
        socket, and is lost with the host when it dies (``crash``)."""
        self.stalled = (seat, when, set())

    def revive(self, seat: int) -> None:
        m = self.by_seat(seat)
        m.up, m.frozen = True, False
        if m.peer is not None:
            m.peer.last_heard = self.now  # a frozen process wakes with its old clock readings
            for message in m.inbox:
                m.peer.receive(decode_json(encode_json(message)), self.now)
            m.inbox.clear()
        if m.host is not None:
            for s in m.host.shared.humans():
                s.last_heard = self.now

    def cut(self, seat: int) -> None:
        """A peer's link goes down: it runs on, and what it sends or is sent waits in the sockets
        (TCP's queues) until ``mend``."""
        self.by_seat(seat).cut = True

    def mend(self, seat: int) -> None:
        m = self.by_seat(seat)
        m.cut = False
        if m.peer is not None:
            for message in m.inbox:
                m.peer.receive(decode_json(encode_json(message)), self.now)
            m.inbox.clear()

    def by_seat(self, seat: int) -> Machine:
        return next(m for m in self.machines if m.seat == seat)

    def hosts(self) -> list[Machine]:
        return [m for m in self.machines
                if m.host is not None and m.host.phase.value != "stepped_down"]

    # ----- delivery --------------------------------------------------------------------------

    def _route(self, route: bytes) -> Machine | None:
        return next((m for m in self.machines if m.sender.route == route), None)

    def step(self) -> bool:
        for m in self.machines:
            if m.peer is not None and m.seat < 0 and m.peer.seat >= 0:
                m.seat = m.peer.seat
        # what the timers did first (a peer that follows a new host sends its hello there, as the
        # node's flush acts on the events before it sends: runtime/peer_node.py)
        moved = self._act()
        for m in self.machines:
            if m.peer is None:
                continue
            if not m.up or m.cut:
                continue
            target = next((h for h in self.machines if h.host is not None and h.seat == m.follows),
                          None)
            if target is None or target.frozen:
                continue  # not listening yet: the messages wait (a DEALER queues until it connects)
            out = m.peer.take_outgoing()
            if m.connected_to != target.seat:  # the node connects anew: its hello opens the
                # connection, what it queued for the host it left went with the old one
                opens = [n for n, msg in enumerate(out) if msg["type"] in ("hello", "watch")]
                out, m.connected_to = out[opens[-1]:] if opens else [], target.seat
            if not target.up:
                continue
            for message in out:
                moved = True
                if not target.budgets.admit(m.sender.route, _standing(target, m), self.now):
                    target.over_budget.append(message["type"])  # (the node drops it unparsed)
                    continue
                target.host.receive(m.sender, decode_json(encode_json(message)), self.now)  # type: ignore[union-attr]
        for h in self.machines:
            if h.host is None or h.frozen:
                continue
            out = h.host.take_outgoing()
            if not h.up:
                continue
            cut: set[int] = set()  # the members whose connection the host died before flushing
            for o in out:
                m = self._route(o.route)
                stalled = self.stalled
                if stalled is not None and stalled[0] == h.seat and m is not None and (
                        m.seat in stalled[2] or stalled[1](m.seat, o.message)):
                    stalled[2].add(m.seat)  # (held in the host's socket: lost when it dies)
                    continue
                if self.unflushed is not None and self.unflushed[0] == h.seat and m is not None \
                        and (m.seat in cut or self.unflushed[1](m.seat, o.message)):
                    cut.add(m.seat)
                    continue
                if m is not None and (m.frozen or m.cut) and m.peer is not None:
                    m.inbox.append(o.message)
                    continue
                if m is None or not m.up or m.peer is None or m.follows != h.seat:
                    continue
                moved = True
                m.peer.receive(decode_json(encode_json(o.message)), self.now)
            if cut:
                self.unflushed = None
                self.crash(h.seat)
        moved = self._act() or moved
        moved = self._proofs() or moved
        moved = self._prevotes() or moved
        self._discovery()
        return moved

    def _proofs(self) -> bool:
        """Proof against a host, from member to member's standby ROUTER (net/peer/proof_passing.py):
        a member still a peer reads it; a host (or candidate) does not."""
        moved = False
        for m in self.machines:
            peer = m.member.peer if m.member is not None else m.peer
            if peer is None or not m.up:
                continue
            for seat, message in peer.passing.take():
                target = next((t for t in self.machines if t.seat == seat), None)
                if target is None or not target.up or target.frozen or target.peer is None:
                    continue
                moved = True
                target.peer.elections.proof(decode_json(encode_json(message)), m.sender.curve,
                                           self.now)
        return moved

    def _prevotes(self) -> bool:
        """Pre-votes, from member to member's standby ROUTER (net/peer/prevotes.py): a peer acts on
        one, a host or candidate answers it. One to a machine that is down, frozen or cut off is
        lost (the node's connection to it does not come up within its deadline)."""
        moved = False
        for m in self.machines:
            if m.member is None or not m.up or m.frozen:
                continue
            for seat, message in m.member.peer.prevotes.take():
                target = next((t for t in self.machines if t.seat == seat), None)
                if (m.cut or target is None or target.member is None or not target.up
                        or target.frozen or target.cut):
                    continue
                moved = True
                target.member.prevote(decode_json(encode_json(message)), m.sender.curve,
                                      self.now)
        return moved

    def _act(self) -> bool:
        """Each machine acts on its sessions' events (True: a peer had some)."""
        moved = False
        for m in self.machines:
            if not m.up:
                continue
            if m.host is not None:
                if m.member is not None and m.member.host is m.host:
                    m.events += m.member.host_events(self.now)
                    self._sync(m)
                else:
                    m.events += m.host.take_events()
            if m.peer is not None:
                peer_events = (m.member.peer_events(self.now) if m.member is not None
                               else m.peer.take_events())
                for event in peer_events:
                    m.events.append(event)
                    moved = True
                    self._peer_event(m, event)
        return moved

    def _peer_event(self, m: Machine, event: SessionEvent) -> None:
        if m.peer is None:  # it became the host earlier in this batch: its peer's events are moot
            return
        if isinstance(event, YourTurn) and m.peer.pending_move is None:
            try:
                m.peer.submit(m.policy(event.observation), self.now)
            except IllegalActionError:
                pass  # (the host played that turn for it in the same batch: the move clock)
        elif isinstance(event, HostChanged):
            m.follows = event.seat
            if event.mine:  # the member became the candidate (TableMember made its host session)
                m.hosted_terms.append(event.term)
                self._sync(m)
                return
            target = next((t for t in self.machines if t.seat == event.seat), None)
            if target is not None and target.up and not target.frozen:
                # the encrypted handshake with a live process succeeds at once, whether it hosts
                # yet or not, and the node tells its session so (runtime/peer_node.py)
                m.peer.elections.reachable(self.now)

    def _sync(self, m: Machine) -> None:
        """The kit runs one session per machine: the member's host, else its peer."""
        if m.member is None:
            return
        m.member.take_effects()  # (the kit routes by ``follows``: no sockets to connect)
        m.host = m.member.host
        m.peer = m.member.peer if m.member.host is None else None

    def _discovery(self) -> None:
        """Each live host's announcement (term, seat) reaches every live machine."""
        live = [h for h in self.hosts() if h.up and h.host is not None]
        if not live:
            return
        top = max(live, key=lambda h: h.host.term)  # type: ignore[union-attr]
        assert top.host is not None
        term = top.host.term
        announced = [(peer_id(top.identity_key()), term)]
        for m in self.machines:
            if not m.up or m is top:
                continue
            if m.member is not None:  # what the node does on seeing the announcement
                hosting = m.host.term if m.host is not None else None
                if m.member.notice_newer(announced, peer_id(m.identity_key()), self.now):
                    if hosting is not None:
                        m.stepped_down.append(hosting)
                    self._sync(m)
            elif m.host is not None and m.host.term < term and m.host.phase.value != "stepped_down":
                if m.host.notice_term(term, top.seat):  # a host that never was a peer (seat 0)
                    m.stepped_down.append(m.host.term)

    def run(self, until: Callable[[], bool], max_time: float = 600.0, tick: float = 0.25) -> None:
        limit, rounds = self.now + max_time, 0
        while not until() and self.now < limit:
            for _ in range(100_000):
                if not self.step() or until():
                    break
            if until():
                return
            if self._due_now() and rounds < 10:  # (at most a few times: never spin)
                rounds += 1  # work due at once (a host-side bot's move, a hand's check, the next
                self._timers(due_only=True)  # deal): as the runtime's timer task, no time passes
            else:
                rounds = 0
                self.now += tick
                self._timers()
            self.step()  # what the timers sent leaves before ``until`` looks, as the runtime
            # flushes after its timers (runtime/base.py): a crash next must not lose a bot's move

    def _due_now(self) -> bool:
        return any(s is not None and (d := s.next_deadline()) is not None and d <= self.now
                   for m in self.machines if m.up for s in (m.host, m.peer))

    def _timers(self, due_only: bool = False) -> None:
        for m in self.machines:
            if not m.up:
                continue
            for session in (m.host, m.peer):
                if session is None:
                    continue
                due = session.next_deadline()
                if not due_only or (due is not None and due <= self.now):
                    session.handle_timer(self.now)

    # ----- outcome ---------------------------------------------------------------------------

    def over(self) -> bool:
        live_hosts = [h for h in self.hosts() if h.up]
        hosts_over = all(h.host.phase.value == "over" for h in live_hosts)  # type: ignore[union-attr]
        peers_over = all(m.peer.phase.value in ("over", "closed")
                         for m in self.machines if m.up and m.peer is not None)
        return bool(live_hosts) and hosts_over and peers_over


def _standing(host: Machine, peer: Machine) -> Standing:
    """What ``host`` knows of ``peer``'s CURVE key, as the nodes tell their transport
    (runtime/host_node.py, runtime/peer_node.py): a seat, a watcher, or a stranger."""
    assert host.host is not None
    key = peer.sender.curve
    if key in host.host.by_curve:
        return True
    return "watching" if host.host.watchers.get(key) is not None else False
