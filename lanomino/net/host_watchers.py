"""The host's side of watching: a watcher's hello, its admission, what it may send, its snapshot.

The watchers themselves (admission rules, the cap, the fan-out, liveness) are ``watchers.py``'s;
this module is where the host session meets them: it reads the host's state and queues output
through the host's ``_out`` only (theory of operation in watchers.py). Pure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lanomino.net.chunks import split_body
from lanomino.net.host_base import Pending, Phase
from lanomino.net.session_base import Outgoing, ProtocolProblem, Sender
from lanomino.net.watchers import FROM_WATCHER, VIEWER, Watcher
from lanomino.net.wire.schemas import Message, build

if TYPE_CHECKING:
    from lanomino.net.host_play import HostPlay
    from lanomino.net.host_session import HostSession


def hello(host: HostSession, sender: Sender, body: dict[str, Any]) -> None:
    """A ``watch``: challenge it like a joiner unless the table cannot take it."""
    if body["curve"] != sender.curve:
        _refuse_join(host, sender.route, "bad_key", "the CURVE key in watch is not the connection's key")
        return
    seated = host._seat_of_identity(body["identity"])
    if seated is not None and not seated.left:
        _refuse_join(host, sender.route, "seated", "this key has a seat at this table: join it instead")
        return
    refusal = host.watchers.refusal(body["identity"])
    if refusal is not None:
        _refuse_join(host, sender.route, *refusal)
        return
    host._challenge(sender, body["name"], body["identity"], None, watch=True)


def admit(host: HostSession, sender: Sender, pending: Pending, seq: int) -> None:
    """A watcher proved its key (and the passphrase): welcome it, and bring it up to date."""
    refusal = host.watchers.refusal(pending.identity)  # (the table may have filled meanwhile)
    if refusal is not None:
        _refuse_join(host, sender.route, *refusal)
        return
    w = host.watchers.admit(pending.name, pending.identity, sender.curve, sender.route, host.now, seq)
    host._out.append(host.watchers.send(w, "welcome", host.term, host.now, seat=VIEWER,
                                        seats=host.players, roster=host.roster(),
                                        rules=host.rules_spec))
    host._broadcast_roster()  # everyone sees one more watching (the watcher its roster)
    if host.phase is not Phase.LOBBY and host.phase is not Phase.MIGRATING:
        send_snapshot(host, w)


def receive(host: HostSession, w: Watcher, route: bytes, msg: Message) -> None:
    """A message from an admitted watcher: a ping, a resync or a bye; anything else is refused."""
    if not host.watchers.heard(w, msg.seq, route, host.now):
        _refuse(host, w, "replayed", f"seq {msg.seq} was already used", msg.seq)
        return
    if msg.type not in FROM_WATCHER:
        what = "move" if msg.type == "move" else f"send {msg.type}"
        _refuse(host, w, "watcher", f"a watcher cannot {what}: it has no seat at this table", msg.seq)
        return
    if msg.type == "bye":
        host.watchers.drop(w.curve)
        host._broadcast_roster()
    elif msg.type == "resync" and host.watchers.resyncs.ask(w.number, host.now):
        send_snapshot(host, w)  # (else answered once, later: tick)


def send_snapshot(host: HostPlay, w: Watcher) -> None:
    """The public table as it stands (the match so far, the hand in play without any tile)."""
    body = host.snapshot_body(VIEWER)
    parts = split_body(body)
    for part in parts:
        host._out.append(host.watchers.send(w, "snapshot_part", host.term, host.now, **part))
    if not parts:
        host._out.append(host.watchers.send(w, "snapshot", host.term, host.now, **body))
    if host.phase is Phase.HEADER:  # the match is about to begin: the header it begins with
        host._out.append(host.watchers.send(w, "match", host.term, host.now, header=host.header))


def tick(host: HostSession, now: float) -> None:
    """Heartbeats to the watchers; a silent one is forgotten (the others see one fewer)."""
    pings, gone, owed = host.watchers.tick(host.term, now, host.timings)
    host._out += pings
    for w in owed:
        send_snapshot(host, w)
    if gone:
        host._broadcast_roster()


def _refuse(host: HostSession, w: Watcher, code: str, detail: str, ref: int) -> None:
    host.stats[f"refused.{code}"] += 1
    host._events.append(ProtocolProblem(code, detail))
    ref = ref if 0 <= ref < 2**53 else 0
    host._out.append(host.watchers.send(w, "error", host.term, host.now, code=code,
                                        message=detail[:300], ref=ref))


def _refuse_join(host: HostSession, route: bytes, code: str, reason: str) -> None:
    host.stats[f"refused.{code}"] += 1
    host._events.append(ProtocolProblem(code, reason))
    host._out.append(Outgoing(route, build("refused", host.term, 1, code=code, reason=reason)))
