"""A host session patched to cheat, one deviation at a time (the malicious-host rows of
scripts/attack.py and tests/net/test_host_checks.py). Each function patches one HostSession in
place, as a host who edits their own copy would; honest seats run the real PeerSession."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

from lanomino.engine import RESIGN, Action, apply, observe
from lanomino.engine.observe import public_event
from lanomino.fair.chain import extend, genesis, head_statement, link
from lanomino.fair.commit import set_statement
from lanomino.fair.commit_reveal import Step
from lanomino.fair.transcript import move_json, move_statement
from lanomino.net.fair_round import RoundError
from lanomino.net.host.session import HostSession
from lanomino.net.host.table import Phase
from lanomino.net.wire import messages as m
from lanomino.net.wire.values import event_to_json


def _host_move(host: HostSession, seat: int, action: Action, *, away: bool) -> None:
    """The host makes ``action`` for ``seat`` and signs it with its own key."""
    play, t = host.play, host.shared
    assert t.state is not None and t.deal is not None
    d = t.deal
    move = move_json(seat, action)
    events = apply(t.state, seat, action)
    sig = t.identity.sign_statement(move_statement(t.digest, d.hand, len(d.moves), move))
    if away:
        d.away.append(len(d.moves))
    play.record(seat, move, sig, events, d, away=away)


def plays_for(host: HostSession, seat: int, *, away: bool, limit: int = 1000,
              trace: list[float] | None = None) -> list[Any]:
    """The host plays ``seat``'s turns itself, signed with its key (``away``: listed as the table's
    bot moving for a seat out of time). Returns the list of (hand, index) it forged, as it grows
    (``trace``: when, appended)."""
    play, t = host.play, host.shared
    original = play.run_local_seats
    forged: list[Any] = []

    def patched(fire: bool = False) -> None:
        while (t.phase is Phase.PLAY and t.state is not None and t.deal is not None
               and t.state.turn == seat and len(forged) < limit):
            forged.append((t.deal.hand, len(t.deal.moves)))
            if trace is not None:
                trace.append(t.now)
            _host_move(host, seat, observe(t.state, seat).legal[0], away=away)
        original(fire)

    play.run_local_seats = patched  # type: ignore[method-assign]
    return forged


def resigns(host: HostSession, seat: int, at: int,
            trace: list[float] | None = None) -> Callable[[], bool]:
    """The host resigns ``seat`` (connected, silent about it) when the hand reaches move ``at``.
    Returns whether it has."""
    play, t = host.play, host.shared
    original = play.run_local_seats
    done = [False]

    def patched(fire: bool = False) -> None:
        if (not done[0] and t.phase is Phase.PLAY and t.deal is not None
                and len(t.deal.moves) >= at and t.state is not None and t.state.active[seat]):
            done[0] = True
            if trace is not None:
                trace.append(t.now)
            _host_move(host, seat, RESIGN, away=False)
        original(fire)

    play.run_local_seats = patched  # type: ignore[method-assign]
    return lambda: done[0]


def withholds_logs(host: HostSession, trace: list[float] | None = None) -> list[int]:
    """The host never sends a hand's log (to seats or watchers). Returns the hands withheld."""
    t = host.shared
    send, publish = t.send, t.publish
    withheld: list[int] = []

    def kept(body: m.Body) -> bool:
        if isinstance(body, m.HandLog):
            withheld.append(body.entry["hand"])
            if trace is not None:
                trace.append(t.now)
            return False
        return True

    t.send = lambda seat, body: send(seat, body) if kept(body) else None  # type: ignore[method-assign]
    t.publish = lambda body: publish(body) if kept(body) else None  # type: ignore[method-assign]
    return withheld


def silent_bot(host: HostSession, seat: int, trace: list[float] | None = None) -> None:
    """The host's bot at ``seat`` never moves (the heartbeats go on)."""
    play, t = host.play, host.shared
    original = play.run_local_seats

    def patched(fire: bool = False) -> None:
        if t.phase is Phase.PLAY and t.state is not None and t.state.turn == seat:
            if trace is not None:
                trace.append(t.now)
            return
        original(fire)

    play.run_local_seats = patched  # type: ignore[method-assign]


def relays_late(host: HostSession, seat: int, delay_s: float,
                trace: list[float] | None = None) -> list[float]:
    """The host holds ``seat``'s moves for ``delay_s`` before it applies and passes them on.
    Returns when each held move arrived."""
    play = host.play
    move, timer = play.move, host.handle_timer
    held: list[tuple[float, Any, Any, int]] = []
    arrived: list[float] = [] if trace is None else trace

    def patched_move(who: Any, body: m.Move, seq: int) -> None:
        if who.seat != seat:
            move(who, body, seq)
            return
        arrived.append(host.shared.now)
        held.append((host.shared.now + delay_s, who, body, seq))

    def patched_timer(now: float) -> None:
        timer(now)
        while held and held[0][0] <= now:
            _, who, body, seq = held.pop(0)
            try:
                move(who, body, seq)
            except RoundError:
                pass  # (the table moved on meanwhile)

    host._handlers["move"] = patched_move  # type: ignore[assignment]
    host.handle_timer = patched_timer  # type: ignore[method-assign]
    return arrived


def two_sets(host: HostSession, victim: int, trace: list[float] | None = None) -> list[int]:
    """The host shows seat ``victim`` a commitment set of its own making (its own commitment
    changed, signed by the host) in the first deal, takes that seat's echo of it without a word
    and asks for the secrets. Returns the hands it did it in."""
    dealing, t = host.dealing, host.shared
    send_set, echo = dealing.send_set, host._handlers["echo"]
    done: list[int] = []

    def patched_send(seat: Any) -> None:
        d = t.deal
        if seat.seat != victim or d is None or done:
            send_set(seat)
            return
        a = d.current
        commitments = [(s, c if s != t.host_seat else bytes(32)) for s, c in a.round.commitments()]
        statement = set_statement(t.digest, a.ctx, t.host_seat, commitments)
        done.append(d.hand)
        if trace is not None:
            trace.append(t.now)
        t.send(seat, m.CommitSet(a.ctx.hand, a.ctx.attempt, tuple(commitments),
                                 t.identity.sign_statement(statement)))

    def patched_echo(seat: Any, body: m.Echo, seq: int) -> None:
        d = t.deal
        if seat.seat != victim or d is None or body.set == d.current.round.digest:
            echo(seat, body, seq)
            return
        r = d.current.round
        r.echoes[seat.seat] = (body.set, body.signature)  # (an honest host refuses it)
        if not r.missing():
            r._to(Step.REVEAL, t.now)
            dealing._advance_round()

    dealing.send_set = patched_send  # type: ignore[method-assign]
    host._handlers["echo"] = patched_echo  # type: ignore[assignment]
    return done


def shows_another_move(host: HostSession, victim: int, after: int = 3,
                       trace: list[float] | None = None) -> list[int]:
    """Once, when the host's own seat moves (from move ``after`` of a hand on) and it has another
    legal move, the host shows seat ``victim`` that other move (its own seat's signature and its
    own signature of the log head, both genuine) and everyone else the real one. Returns the
    (hand, index) where it did."""
    play, t = host.play, host.shared
    original = play.play_local
    done: list[Any] = []

    def patched(seat: int, action: Action) -> None:
        d, state = t.deal, t.state
        assert d is not None and state is not None
        others = [a for a in observe(state, seat).legal if a != action]
        if done or seat != t.host_seat or len(d.moves) < after or not others:
            original(seat, action)
            return
        index, alt = len(d.moves), others[0]
        fork_state = copy.deepcopy(state)
        events = apply(fork_state, seat, alt)
        move = move_json(seat, alt)
        sig = t.local[seat].identity.sign_statement(move_statement(t.digest, d.hand, index, move))
        prev = extend(list(d.heads), t.digest, d.hand, d.moves, d.signatures)
        head = link(prev[-1] if prev else genesis(t.digest, d.hand), move, sig)
        head_sig = t.identity.sign_statement(head_statement(t.digest, d.hand, index, head))
        shown = tuple(event_to_json(public_event(e, victim)) for e in events)
        fake = m.Update(d.hand, index, move, sig, shown, fork_state.turn, head_sig)
        send = t.send

        def to_victim(s: Any, body: m.Body) -> None:
            send(s, fake if s.seat == victim and isinstance(body, m.Update) else body)

        t.send = to_victim  # type: ignore[method-assign]
        try:
            original(seat, action)
        finally:
            t.send = send  # type: ignore[method-assign]
        done.append((d.hand, index))
        if trace is not None:
            trace.append(t.now)

    play.play_local = patched  # type: ignore[method-assign]
    return done


def _once(trace: list[float] | None, now: float, done: list[Any], what: Any) -> None:
    done.append(what)
    if trace is not None:
        trace.append(now)


def swaps_dealt_tile(host: HostSession, victim: int,
                     trace: list[float] | None = None) -> list[int]:
    """Once, in the first deal: one of seat ``victim``'s dealt tiles is swapped with the
    boneyard's front (with none, with a tile of the host's own hand), and the host plays that
    deal, not the committed one. Returns the hands it did it in."""
    from lanomino.net.host import deal as dealing_module

    dealing, t = host.dealing, host.shared
    original, done = dealing._deal_out, []

    def patched(a: Any) -> None:
        if done:
            original(a)
            return
        real = dealing_module.derive_deal

        def swapped(*args: Any) -> Any:
            deck, hands, boneyard = real(*args)
            hands, boneyard = [list(h) for h in hands], list(boneyard)
            other = boneyard if boneyard else hands[t.host_seat]
            hands[victim][0], other[0] = other[0], hands[victim][0]
            _once(trace, t.now, done, args[0].hand)
            return deck, hands, boneyard

        dealing_module.derive_deal = swapped  # type: ignore[assignment]
        try:
            original(a)
        finally:
            dealing_module.derive_deal = real

    dealing._deal_out = patched  # type: ignore[method-assign]
    return done


def wrong_draw(host: HostSession, victim: int, trace: list[float] | None = None) -> list[Any]:
    """Once: when seat ``victim`` draws, it gets the boneyard's last tile instead of its front
    (the host's engine plays it so). Returns the (hand, index) of that draw."""
    t, move = host.shared, host._handlers["move"]
    done: list[Any] = []

    def patched(who: Any, body: m.Move, seq: int) -> None:
        state, d = t.state, t.deal
        if (not done and who.seat == victim and body.move.get("draw") and state is not None
                and d is not None and len(state.boneyard) - state.drawn >= 2):
            bone = state.boneyard
            bone[state.drawn], bone[-1] = bone[-1], bone[state.drawn]
            _once(trace, t.now, done, (d.hand, len(d.moves)))
        move(who, body, seq)

    host._handlers["move"] = patched  # type: ignore[assignment]
    return done


def _at_hand_end(host: HostSession, cheat: Callable[[Any], Callable[[], None]],
                 trace: list[float] | None, at_hand: int = 1) -> list[int]:
    """Once, at the end of hand ``at_hand``: ``cheat(deal)`` changes what the host signs and
    publishes in the hand's log (and returns how to undo it afterwards)."""
    play, t = host.play, host.shared
    original, done = play.hand_over, []

    def patched(d: Any, ended: Any, then: Any = None) -> None:
        if done or d.hand < at_hand:
            original(d, ended, then)
            return
        undo = cheat(d)
        _once(trace, t.now, done, d.hand)
        try:
            original(d, ended, then)
        finally:
            undo()

    play.hand_over = patched  # type: ignore[method-assign]
    return done


def wrong_secret(host: HostSession, victim: int,
                 trace: list[float] | None = None) -> list[int]:
    """Once, at the first hand's end: the host publishes (and signs) a secret for seat
    ``victim`` other than the one it revealed. Returns the hands it did it in."""

    def cheat(d: Any) -> Callable[[], None]:
        secrets = d.attempts[-1].round.secrets
        real = secrets[victim]
        secrets[victim] = bytes(b ^ 0xFF for b in real)
        return lambda: secrets.__setitem__(victim, real)

    return _at_hand_end(host, cheat, trace)


def false_score(host: HostSession, trace: list[float] | None = None,
                at_hand: int = 1) -> list[int]:
    """Once, at the end of hand ``at_hand``: the host signs and publishes 5 more points for its
    own side than the hand gave it. Returns the hands it did it in."""
    seat = host.shared.host_seat

    def cheat(d: Any) -> Callable[[], None]:
        entry = d.entry

        def padded(identity: Any, points: Any, scores: Any) -> Any:
            more = [p + 5 * (n == seat) for n, p in enumerate(points)]
            return entry(identity, more, [s + 5 * (n == seat) for n, s in enumerate(scores)])

        d.entry = padded
        return lambda: delattr(d, "entry")

    return _at_hand_end(host, cheat, trace, at_hand)


def disputes_to_disputer_only(host: HostSession, trace: list[float] | None = None, *,
                              fork: bool = True) -> list[Any]:
    """The host passes each seat's dispute back to that seat alone (and to no other seat or
    watcher); ``fork``: it signs for everyone else the log's heads as if it had passed on none
    (the disputer's log and the others' differ from the next move on), else one head for all.
    Returns the (hand, index, seat) of each dispute it kept from the others."""
    t = host.shared
    send, publish = t.send, t.publish
    hidden: list[Any] = []

    def head_without(body: m.Update, seat: int) -> m.Update:
        d = t.deal
        if d is None or d.hand != body.hand or not hidden or not fork:
            return body
        shown = {i: [x for x in xs if (body.hand, x.index, x.seat) not in hidden or x.seat == seat]
                 for i, xs in d.relayed.items()}
        chain = extend([], t.digest, d.hand, d.moves[:body.index + 1],
                       d.signatures[:body.index + 1], shown)
        sig = t.identity.sign_statement(head_statement(t.digest, d.hand, body.index, chain[-1]))
        return dataclasses.replace(body, head=sig)

    def to_seat(seat: Any, body: m.Body) -> None:
        if isinstance(body, m.Disputed) and seat.seat != body.seat:
            if (body.hand, body.index, body.seat) not in hidden:
                _once(trace, t.now, hidden, (body.hand, body.index, body.seat))
            return
        send(seat, head_without(body, seat.seat) if isinstance(body, m.Update) else body)

    def to_watchers(body: m.Body) -> None:
        if not isinstance(body, m.Disputed):
            publish(head_without(body, -1) if isinstance(body, m.Update) else body)

    t.send = to_seat  # type: ignore[method-assign]
    t.publish = to_watchers  # type: ignore[method-assign]
    return hidden
