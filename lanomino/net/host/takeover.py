"""A new host after a migration: built from a peer's replicated state, it waits for a majority of
the members, rebuilds the hand in play from their reports and the escrow, and resumes. Pure.

The rebuilt hand is checked before play goes on: the escrow shares must match their digests and
the secrets they give must open the signed commitments (``escrow.rebuild``); the move log is the
longest one any member holds, and every other member's log must be a prefix of it. The lost
host's seat has left the table (its tiles leave with it), even if it came back in time to vote: a
fresh peer, holding no tiles, follows the new host for it.
Host-side bots move with the table: the members know their levels (``bots``), never their keys;
the new host adopts each bot's seat under a key it makes, says so in the next hand log it signs
(fair/adoption.py) and plays the bot at its level (one of unknown level resigns, host-signed).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from lanomino.engine import (
    DealVoided,
    GameState,
    HandEnded,
    HandStarted,
    apply,
    new_game,
    start_hand,
)
from lanomino.fair import reshuffle as rs
from lanomino.fair.adoption import Adoption
from lanomino.fair.commit import CommitmentError, DealContext, new_table_id
from lanomino.fair.escrow import Escrow, EscrowError, Share, rebuild
from lanomino.fair.identity import Identity
from lanomino.fair.replay import state_after
from lanomino.fair.shuffle import derive_deal
from lanomino.fair.transcript import Migration, parse_transcript
from lanomino.net.election import GIVE_UP_GRACES, majority, members
from lanomino.net.fair_round import HandDeal, RoundError, closing
from lanomino.net.host.deal import Dealing
from lanomino.net.host.locked_takeover import LockedTakeover
from lanomino.net.host.play import Playing
from lanomino.net.host.reports import caught_up, kept_blames, longest_log, without_refuted
from lanomino.net.host.reshuffle_round import Hand, Reshuffling, Round
from lanomino.net.host.table import RUNNING, LocalSeat, Phase, Policy, Seat, Table
from lanomino.net.session_base import LostTouch, MigrationDone, MigrationPaused, SteppedDown
from lanomino.net.wire import messages as m
from lanomino.net.wire.values import parse_move

if TYPE_CHECKING:
    from lanomino.net.peer.session import PeerSession


class Takeover:
    """Taking over a table (see the module docstring): one part of a HostSession. Its own state:
    the peer session it grew from, the members and their reports, the keys before adoption; it
    holds the re-shuffle part (``reshuffle``), which only a new host runs."""

    def __init__(self, table: Table, deal: Dealing, play: Playing) -> None:
        self.t, self.dealing, self.play = table, deal, play
        self.reshuffle = Reshuffling(table, self.try_resume)
        self.members: list[int] = []
        self.lost_host = -1
        self.reports: dict[int, m.Report] = {}
        self.carried: PeerSession | None = None  # the peer session this host grew from
        self.keys_before: list[bytes] = []  # each seat's key before this host adopted the bots'
        self.report_due: dict[int, float] = {}  # when each joined member's report is due
        self.resumed: Callable[[], None] = lambda: None  # the table resumed: watchers' snapshots
        self.began = 0.0  # when this host took over (its wait for a majority has a deadline)
        self.locked: LockedTakeover | None = None  # at a locked table (locked_takeover.py)

    def adopt(self, peer: PeerSession, term: int, lost_host: int,
              bot_policy: Callable[[str], Policy] | None = None) -> None:
        """Take the table over from ``peer``'s replicated state, as host of ``term``; the host-side
        bots whose level the peer was told are adopted under new keys and played with
        ``bot_policy(level)``."""
        self.t.term, self.t.host_seat = term, peer.seat
        self.lost_host, self.carried = lost_host, peer
        self.locked = LockedTakeover.of(self.t, self.dealing, peer)  # (None: a fair table)
        self.t.table, self.t.header, self.t.digest = peer.table, peer.header, peer.digest
        self.t.rules_spec = peer.doc and peer.doc["rules"] or self.t.rules_spec
        self.t.local = {peer.seat: self.t.local[0]}
        if bot_policy is not None and self.locked is None:  # (a locked table's leave with it)
            for e in peer.roster:
                level = peer.bot_levels.get(e.seat)
                if e.kind == "bot" and not e.left and level is not None:
                    self.t.local[e.seat] = LocalSeat(e.name, Identity.generate(),
                                                        bot_policy(level), level)
        adopted = sorted(n for n in self.t.local if n != peer.seat)
        if adopted:
            self.t.adoption = Adoption(peer.seat, term, tuple(
                (n, self.t.local[n].identity.public_key) for n in adopted))
        self.t.seats = [None] * self.t.players
        self.keys_before = [b""] * self.t.players
        for e in peer.roster:
            kind = "host" if e.seat == peer.seat else ("bot" if e.kind == "bot" else "human")
            self.keys_before[e.seat] = e.identity
            key = self.t.local[e.seat].identity.public_key if e.seat in adopted else e.identity
            seat = Seat(e.seat, e.name, kind, key, e.curve, connected=False, left=e.left,
                        last_heard=self.t.now, addr=e.addr, away=e.away)
            self.t.seats[e.seat] = seat  # its connection counts once it has said hello again
        me = self.t.seat(peer.seat)
        me.connected = True
        self.members = members(peer.roster)
        self.reports = {peer.seat: peer.report()}
        self.t.doc = copy.deepcopy(peer.doc)  # None: the host was lost before the match began
        self.play.checking.verifier = peer.verifier  # the hands it checked as a peer: not again
        self.t.header_sigs = {n: bytes.fromhex(s) for n,
                              s in enumerate(self.t.doc["header_signatures"])} if self.t.doc else {}
        self.dealing.local_secrets = {(h, a, peer.seat): s for (t, h, a),
                                      s in peer.secrets.items() if t == peer.table.hex()}
        self.began = self.t.now
        self.t.go(Phase.MIGRATING)
        self.try_resume()

    def never_resumed(self) -> bool:
        """A candidate that has not rebuilt the table yet (no majority): it may go back to being
        the peer it was when a newer term turns up."""
        return self.t.phase is Phase.MIGRATING and self.t.state is None

    def notice_term(self, term: int, host: int, cut_off: bool) -> bool:
        """Another host runs ``term``: if it is newer and a majority no longer follows this host
        (``cut_off``: a lone member hosting a term of its own, with no proof the others believe,
        does not move the table), stop being host (True; the node rejoins as a peer)."""
        if not (cut_off or self.t.phase is Phase.MIGRATING):
            self.t.stats["newer_term.ignored"] += 1
        elif term > self.t.term and self.t.phase is not Phase.STEPPED_DOWN:
            self.t.go(Phase.STEPPED_DOWN)
            self.play.bot_due = None
            self.t.events.append(SteppedDown(term, host))
            return True
        return False

    def hand_over(self, reason: str = "the host is leaving") -> None:
        """Leave a running match on purpose: the peers elect the next host at once (no timeout)."""
        running = self.t.phase in RUNNING
        bye = m.Bye(reason[:300], handover=running)
        for s in self.t.humans():
            self.t.send(s, bye)
        self.t.publish(bye)
        if not running:
            return
        self.t.go(Phase.STEPPED_DOWN)
        self.play.bot_due = None

    def expire(self, now: float) -> None:
        """The waits of a new host: a re-shuffle step, a joined member's report."""
        self.reshuffle.expire(now)
        for n, due in list(self.report_due.items()):
            if now >= due:  # a member joined this new host but sends no report
                del self.report_due[n]
                self.t.no_answer(n, now)
        if self.locked is not None and self.locked.wanting.expired(now):
            self.try_resume()  # (a member's log entries did not come in time: without them)

    def waits(self) -> list[float]:
        """When the new host's waits end: each joined member's report, the log a member owes."""
        owed = self.locked.wanting.due.values() if self.locked is not None else ()
        return [*self.report_due.values(), *owed]

    def log(self, seat: Seat, body: m.CatchUp, seq: int) -> None:
        """The log entries a member ahead of this new host sent as asked (locked_log.py)."""
        if self.t.phase is Phase.MIGRATING and self.locked is not None:
            self.locked.wanting.take(seat.seat, body, self.lost_host)
            self.try_resume()

    def give_up_at(self) -> float | None:
        """When a new host still waiting for a majority stops waiting (``GIVE_UP_GRACES`` grace
        periods after it took over, as a host cut off from a majority does)."""
        if self.t.phase is not Phase.MIGRATING:
            return None
        return self.began + GIVE_UP_GRACES * self.t.timings.grace_s

    def give_up_if_alone(self, now: float) -> bool:
        """No majority came back in time (the others left, or ended the match without this seat
        hearing of it): stop (``LostTouch``) rather than wait for ever. True when it stopped."""
        due = self.give_up_at()
        if due is None or now < due:
            return False
        self.t.go(Phase.STEPPED_DOWN)
        self.t.events.append(LostTouch(self.t.term, now - self.began))
        return True

    def member_back(self, seat: Seat) -> None:
        """A member joined this new host (its report follows, within ``answer_s``)."""
        if seat.seat not in self.reports and seat.seat != self.lost_host:
            self.report_due[seat.seat] = self.t.now + self.t.timings.answer_s
        self.t.broadcast_roster()

    def report(self, seat: Seat, body: m.Report, seq: int) -> None:
        if self.t.phase is not Phase.MIGRATING:
            return  # late: the table has resumed, the snapshot it got says it all
        self.reports[seat.seat] = body
        self.report_due.pop(seat.seat, None)
        self.try_resume()

    def try_resume(self) -> None:
        need = majority(len(self.members))
        # the lost host's report does not count: its seat leaves at the resume, so a majority
        # with it would go on without a member whose hand is still in play
        joined = [n for n in self.members if n in self.reports and n != self.lost_host]
        if len(joined) < need:
            self.t.events.append(MigrationPaused(self.t.term, len(joined), need))
            return
        if self.locked is not None and self.locked.wants_log(self.reports):
            return  # (a member ahead of this seat by more than its report carries: locked_log)
        if self.t.doc is not None:
            assert self.carried is not None
            end = partial(closing, self.t.identity, self.t.digest, self.t.host_seat)
            doc = without_refuted(self.t.doc, self.carried.verified, self.t.stats, end)
            self.t.doc = caught_up(doc, self.reports.values(), self.t.stats)
        rebuilt = self._rebuild()
        if self.t.phase is Phase.MIGRATING:
            return  # a re-shuffle round among the survivors runs first (reshuffle_round.py)
        self.t.events.append(MigrationDone(self.t.term, self.t.host_seat, rebuilt))
        self.report_due.clear()  # (a report from now on is late: the snapshot says it all)
        for n in joined:
            if n != self.t.host_seat and self.t.snapshots:  # (a locked table's members keep theirs)
                self.play.send_snapshot(self.t.seat(n))
        lost = self.t.seats[self.lost_host] if 0 <= self.lost_host < len(self.t.seats) else None
        back = lost is not None and lost.connected  # it follows this host already
        self.resumed()  # the watchers that followed this host get theirs (watching.py)
        for n, s in enumerate(self.t.seats):
            if s is None or s.left or n == self.t.host_seat:
                continue
            # the lost host leaves even when it came back in time to vote: what follows this
            # host for it is a fresh peer, without its tiles, that plays nothing
            if (s.kind == "bot" and n not in self.t.local) or n == self.lost_host:
                self.play.seat_left(n, "the host left" if n == self.lost_host else "its host left")
        if lost is not None and back:  # it watches to the end (its snapshot shows its seat gone)
            lost.watching = True
            self.play.send_snapshot(lost)
        if self.t.phase is Phase.DEAL and self.t.deal is None:
            # (the lost host, if it left, takes no part: it resigns once dealt)
            (self.locked or self.dealing).start_hand()
        self.t.host_view()
        self.play.run_local_seats()

    # ----- rebuilding --------------------------------------------------------------------------

    def _rebuild(self) -> bool:
        """The game state after the finished hands, then the hand in play if there is one."""
        if self.t.doc is None:  # lost in the lobby or while the header was being signed
            self.t.deal = None
            self.t.go(Phase.LOBBY)
            self._reopen()
            return False
        if self.locked is not None:  # the transcript/2 and the locked hands: locked_takeover.py
            return self.locked.rebuild(self.reports, self.lost_host)
        # before the first hand ends the document has no "end" yet: nothing to replay
        finished = parse_transcript(self.t.doc).hands if self.t.doc["hands"] else ()
        if finished:
            assert self.carried is not None
            report = self.carried.verifier.check(self.t.doc)
            state = state_after(parse_transcript(self.t.doc), self.t.rules, report)
        else:
            state = new_game(self.t.rules, self.t.players)
        self.t.state = state
        if finished:
            log = finished[-1]
            self.t.last_deal = HandDeal.of_log(log, self.t.table, self.t.digest, self.keys_before,
                                               self.t.ring, Migration(self.t.host_seat,
                                                                      self.t.term, len(log.moves)))
        played = len(finished)
        if not finished:  # the match began (every header signature is in): it goes on from here
            self.t.doc["end"] = closing(self.t.identity, self.t.digest, self.t.host_seat, 0, False,
                                        None, state.scores)
        if not self._rebuild_hand(state, played + 1):
            # no hand in play to rebuild (lost during a deal round, or between hands): the next
            # hand is dealt afresh, members re-committing to the same secrets; once the first
            # deal has started a table never falls back to the lobby
            self.t.deal = None
            self.t.go(Phase.DEAL)
            return False
        return True

    def _deal_cut_short(self, hand: int) -> bool:
        """The lost host died while its deal of ``hand`` was going out: a member reported no tiles
        of it, and nobody has moved. A re-shuffle deals only to the seats that claim a hand, so it
        would put that member out of the match for the host's failure; a fresh deal does not."""
        reports = [r for n, r in self.reports.items() if n != self.lost_host]
        return (any(r.hand != hand for r in reports)
                and not any(r.hand == hand and r.moves for r in reports))

    def _reopen(self) -> None:
        """The lost host went before the match began: the table is back in its lobby (as when any
        seat leaves then), under a new id so no secret committed for its deal is used again."""
        self.t.table = new_table_id()
        self.t.adoption = None  # the new match's header lists the adopted keys themselves
        self.t.state, self.t.doc, self.t.header = None, None, None
        self.t.digest, self.t.header_sigs = "", {}
        self.dealing.local_secrets = {}

    def _rebuild_hand(self, state: GameState, hand: int) -> bool:
        """The hand in play from the escrow and the members' move logs; False when none was dealt
        (or the escrow cannot be rebuilt: then the hand is dealt again). Raises nothing."""
        assert self.carried is not None
        reshuffled = self.reshuffle.finished(hand)
        if reshuffled is not None:
            return self._resume_reshuffled(state, hand, reshuffled)
        if self.dealer(hand) != self.lost_host:
            # the hand's second migration: its log records one (who dealt it, who took over at
            # which move, who signed what after), so it is dealt again, as a hand re-shuffled
            # once is
            return False
        attempts = self.carried.attempts.get(hand)
        shares = [(n, r.escrow) for n, r in self.reports.items()
                  if r.hand == hand and r.escrow is not None]
        if not attempts:
            return False
        if not shares:
            if self._deal_cut_short(hand):
                return False  # nobody has moved: the hand is dealt afresh, with everyone left
            return self._reshuffle(state, hand)  # no escrow: re-shuffle the unknown tiles
        raw = shares[0][1]
        try:
            escrow = Escrow(DealContext(self.t.table, hand, raw.attempt), raw.seats, raw.holders,
                            raw.digests)
            last = attempts[-1]
            commitments = {c.seat: c.commitment for c in last.commitments}
            secrets = rebuild(escrow, [Share(n, bytes.fromhex(s.share)) for n, s in shares],
                              commitments)
        except (EscrowError, KeyError, ValueError, TypeError):
            return self._reshuffle(state, hand)  # a share is lost: re-shuffle the unknown tiles
        d = HandDeal(self.t.digest, hand, self.dealer(hand), self.keys_before, self.t.ring)
        for void in attempts[:-1]:  # void deals: their secrets are unknown
            d.attempts.append(d.attempt_from(self.t.table, void, ()))
        d.attempts.append(d.attempt_from(self.t.table, last, [s for _, s in secrets]))
        d.abandoned = list(self.carried.abandoned.get(hand, []))
        if len(attempts) > 1:  # void deals before this one: their secrets are gone with the host
            return self._reshuffle(state, hand)
        ctx = d.current.ctx
        _, hands, boneyard = derive_deal(ctx, d.current.opened(), self.t.rules, state.active)
        events = start_hand(state, hands, boneyard)
        if isinstance(events[0], DealVoided):
            return False
        moves, sigs = longest_log(self.reports.values(), hand, self.t.stats)
        ended: HandEnded | None = None
        for index, (move, sig) in enumerate(zip(moves, sigs, strict=True)):
            try:
                events = apply(state, move["seat"], parse_move(move, move["seat"]))
            except (RoundError, ValueError):
                break
            ended = next((e for e in events if isinstance(e, HandEnded)), ended)
            d.moves.append(move)
            d.signatures.append(sig)
            d.unchecked.append(index)
        self._taken_over(d, hand)
        self.t.deal, self.t.dealt = d, [list(h) for h in hands]
        self.t.go(Phase.PLAY)
        if ended is not None:
            # the log's last move ended the hand, but the lost host's hand log never went out:
            # publish it now (signed by this host) and go on to the next hand, or the match's end
            self.play.hand_over(d, ended)
            return True
        self.dealing.split_escrow()
        return True

    def _taken_over(self, d: HandDeal, hand: int) -> None:
        """The log's record of this migration: when, the lost host's moves, its refusals."""
        d.migrated = Migration(self.t.host_seat, self.t.term, len(d.moves))
        d.away, key = d.signed_by(self.lost_host), self.keys_before[self.lost_host]
        d.refused = kept_blames(self.reports.values(), hand, self.t.digest, key, self.t.ring)
        assert self.carried is not None  # the disputes its seat held that fit the rebuilt log
        self.play.disputes.adopt(d, self.carried.disputes.held.get(hand, {}).values())

    def dealer(self, hand: int) -> int:
        """The host that dealt ``hand`` (signed its commitment sets): the lost host, unless the
        hand migrated before."""
        assert self.carried is not None
        return self.carried.dealers.get(hand, self.lost_host)

    # ----- the re-shuffle (reshuffle_round.py) -------------------------------------------------

    def _reshuffle(self, state: GameState, hand: int) -> bool:
        """The escrow could not give the hand in play back: start (or keep waiting for) the
        re-shuffle round. False when no re-shuffle is possible (no hand was dealt, this hand was
        re-shuffled before, no claim fits the log): the hand is then dealt again, as before."""
        if self.reshuffle.running(hand):
            return True
        carried = self.carried
        assert carried is not None
        attempts = carried.attempts.get(hand)
        view = carried.view
        if not attempts or hand in carried.reshuffle.hands or view is None or not view.history:
            return False
        started = view.history[0]
        if not isinstance(started, HandStarted):
            return False
        moves, sigs = longest_log(self.reports.values(), hand, self.t.stats)
        if not self.reshuffle.start(state, Hand(hand, len(attempts), started, moves, sigs),
                                    self.reports):
            return False
        carried.reshuffle.hands.add(hand)
        return True

    def _resume_reshuffled(self, state: GameState, hand: int, r: Round) -> bool:
        """The hand in play after a finished re-shuffle round."""
        assert self.carried is not None
        attempts = self.carried.attempts.get(hand, [])
        claims = {c.seat: c for c in r.claims}
        try:
            world = rs.world_at(state, len(attempts), r.opener, claims, r.actions())
            rs.reshuffle(state, r.seats, rs.reshuffle_seed(r.ctx, r.round.opened()))
        except (rs.ReshuffleError, CommitmentError):
            return False  # cannot happen: the same claims passed before the round
        t = self.t
        d = HandDeal(t.digest, hand, self.dealer(hand), self.keys_before, t.ring)
        for attempt in attempts:  # their secrets went with the lost host
            d.attempts.append(d.attempt_from(self.t.table, attempt, ()))
        d.abandoned = list(self.carried.abandoned.get(hand, []))
        d.moves = list(r.moves)
        d.signatures = list(r.signatures)
        d.unchecked = list(range(len(d.moves)))
        self._taken_over(d, hand)
        d.reshuffled = r.to_json(t.host_seat)
        t.deal, t.dealt = d, [list(h) for h in world.deal]
        t.go(Phase.PLAY)
        # a person whose hand is in no claim cannot be told its new tiles consistently: it leaves
        for n, seat in enumerate(t.seats):
            if (seat is not None and not seat.left and state.active[n] and n not in claims
                    and n not in t.local and n != self.lost_host):
                self.play.seat_left(n, "its hand was not in the re-shuffle")
        return True

