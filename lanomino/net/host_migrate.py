"""A new host after a migration: built from a peer's replicated state, it waits for a majority of
the members, rebuilds the hand in play from their reports and the escrow, and resumes. Pure.

The rebuilt hand is checked before play goes on: the escrow shares must match their digests and
the secrets they give must open the signed commitments (``escrow.rebuild``); the move log is the
longest one any member holds, and every other member's log must be a prefix of it. The lost
host's seat has left the table (its tiles leave with it) unless it came back in time to vote.
Host-side bots move with the table: every member was told their levels (``bots``), never their
keys; the new host adopts each bot's seat under a key it makes, records that in the next hand
log it signs (fair/adoption.py) and plays the bot at its level; a bot whose level the new host
does not know resigns (signed by the new host).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from lanomino.engine import DealVoided, GameState, HandEnded, apply, new_game, start_hand
from lanomino.fair.commit import DealContext, new_table_id
from lanomino.fair.escrow import Escrow, EscrowError, Share, rebuild
from lanomino.fair.identity import Identity
from lanomino.fair.replay import state_after
from lanomino.fair.shuffle import derive_deal
from lanomino.fair.transcript import TranscriptError, parse_transcript
from lanomino.fair.verify import verify_transcript
from lanomino.net import host_watchers, reshuffle
from lanomino.net.election import HANDOVER, majority, members, raw_key
from lanomino.net.fair_round import Attempt, HandDeal, RoundError, closing
from lanomino.net.host_base import RUNNING, LocalSeat, Phase, Policy, Seat
from lanomino.net.host_play import HostPlay
from lanomino.net.session_base import MigrationDone, MigrationPaused, SteppedDown
from lanomino.net.wire.values import parse_move


class HostMigrate(HostPlay):
    """Taking over a table (see the module docstring)."""

    members: list[int]
    lost_host: int
    reports: dict[int, dict[str, Any]]
    carried: Any  # the peer session this host grew from (its replicated state)
    keys_before: list[bytes]  # each seat's key before this host adopted the bots' seats

    def adopt(self, peer: Any, term: int, lost_host: int,
              bot_policy: Callable[[str], Policy] | None = None) -> None:
        """Take the table over from ``peer``'s replicated state, as host of ``term``; the host-side
        bots whose level the peer was told are adopted under new keys and played with
        ``bot_policy(level)``."""
        self.term, self.host_seat, self.lost_host, self.carried = term, peer.seat, lost_host, peer
        self.table, self.header, self.digest = peer.table, dict(peer.header), peer.digest
        self.rules_spec = peer.doc and peer.doc["rules"] or self.rules_spec
        self.local = {peer.seat: self.local[0]}
        if bot_policy is not None:
            for e in peer.roster:
                level = peer.bot_levels.get(e["seat"])
                if e["kind"] == "bot" and not e.get("left", False) and level is not None:
                    self.local[e["seat"]] = LocalSeat(e["name"], Identity.generate(), bot_policy(level), level)
        adopted = sorted(n for n in self.local if n != peer.seat)
        if adopted:
            self.adoption = {"host": peer.seat, "term": term,
                             "keys": [[n, self.local[n].identity.public_key.hex()] for n in adopted]}
        self.seats = [None] * self.players
        self.keys_before = [b""] * self.players
        for e in peer.roster:
            kind = "host" if e["seat"] == peer.seat else ("bot" if e["kind"] == "bot" else "human")
            self.keys_before[e["seat"]] = raw_key(e["identity"])
            key = self.local[e["seat"]].identity.public_key if e["seat"] in adopted else raw_key(e["identity"])
            seat = Seat(e["seat"], e["name"], kind, key, e["curve"], connected=False,
                        left=e.get("left", False), last_heard=self.now, addr=e.get("addr"),
                        away=e.get("away", False))
            self.seats[e["seat"]] = seat  # its connection counts once it has said hello again
        me = self._seat(peer.seat)
        me.connected = True
        self.members = members(peer.roster)
        self.reports = {peer.seat: peer.report()}
        self.doc = copy.deepcopy(peer.doc)  # None: the host was lost before the match began
        self.verifier = peer.verifier  # the hands it checked as a peer need no second check
        self.header_sigs = {n: bytes.fromhex(s) for n, s in enumerate(self.doc["header_signatures"])} if self.doc else {}
        self.local_secrets = {(h, a, peer.seat): s for (t, h, a), s in peer.secrets.items() if t == peer.table.hex()}
        self.phase = Phase.MIGRATING
        self._try_resume()

    def never_resumed(self) -> bool:
        """A candidate that has not rebuilt the table yet (no majority): it may go back to being
        the peer it was when a newer term turns up."""
        return self.phase is Phase.MIGRATING and self.state is None

    def notice_term(self, term: int, host: int) -> None:
        """Another host runs ``term``: if it is newer, stop being host (the node rejoins as a peer)."""
        if term > self.term and self.phase is not Phase.STEPPED_DOWN:
            self.phase = Phase.STEPPED_DOWN
            self.bot_due = None
            self._events.append(SteppedDown(term, host))

    def hand_over(self, reason: str = "the host is leaving") -> None:
        """Leave a running match on purpose: the peers elect the next host at once (no timeout)."""
        running = self.phase in RUNNING
        for s in self._humans():
            self._send(s, "bye", reason=(f"{HANDOVER}: {reason}" if running else reason)[:300])
        self._publish("bye", reason=(f"{HANDOVER}: {reason}" if running else reason)[:300])
        if not running:
            return
        self.phase = Phase.STEPPED_DOWN
        self.bot_due = None

    def _member_back(self, seat: Seat) -> None:
        """A member joined this new host (its report follows, within ``answer_s``)."""
        if seat.seat not in self.reports:
            self.report_due[seat.seat] = self.now + self.timings.answer_s
        self._broadcast_roster()

    def _report(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        if self.phase is not Phase.MIGRATING:
            return  # late: the table has resumed, the snapshot it got says it all
        self.reports[seat.seat] = body
        self.report_due.pop(seat.seat, None)
        self._try_resume()

    def _try_resume(self) -> None:
        need = majority(len(self.members))
        joined = [n for n in self.members if n in self.reports]
        if len(joined) < need:
            self._events.append(MigrationPaused(self.term, len(joined), need))
            return
        self._catch_up()
        rebuilt = self._rebuild()
        if self.phase is Phase.MIGRATING:
            return  # a re-shuffle round among the survivors runs first (net/reshuffle.py)
        self._events.append(MigrationDone(self.term, self.host_seat, rebuilt))
        for n in joined:
            if n != self.host_seat:
                self._send_snapshot(self._seat(n))
        for w in self.watchers:  # watchers that followed this host (net/watchers.py)
            host_watchers.send_snapshot(self, w)
        for n, s in enumerate(self.seats):
            if s is None or s.left or n == self.host_seat:
                continue
            if (s.kind == "bot" and n not in self.local) or (n == self.lost_host and n not in self.reports):
                self._seat_left(n, "the host left" if n == self.lost_host else "its host left")
        if self.phase is Phase.DEAL and self.deal is None:
            self._start_hand()  # (the lost host, if it left, takes no part: it resigns once dealt)
        self._host_view()
        self._run_local_seats()

    # ----- rebuilding --------------------------------------------------------------------------

    def _catch_up(self) -> None:
        """Take a finished hand's log that a member has and this host missed (the lost host died
        while sending it out). It is the lost host's signed entry: kept only if the transcript
        with it verifies."""
        if self.doc is None:
            return
        for report in self.reports.values():
            last = report.get("last")
            hands = self.doc["hands"]
            if not isinstance(last, dict) or not isinstance(last.get("entry"), dict):
                continue
            entry, end = last["entry"], last.get("end")
            if entry.get("hand") != len(hands) + 1:
                continue  # nothing new (or a gap: not this host's to fill)
            candidate = {**self.doc, "hands": [*hands, entry], "end": end}
            try:
                ok = verify_transcript(candidate).ok
            except (TranscriptError, ValueError, TypeError, KeyError):
                ok = False
            if ok:
                self.doc = candidate
            else:
                self.stats["migration.bad_hand_log"] += 1

    def _rebuild(self) -> bool:
        """The game state after the finished hands, then the hand in play if there is one."""
        if self.doc is None:  # lost in the lobby or while the header was being signed
            self.deal, self.phase = None, Phase.LOBBY
            self._reopen()
            return False
        # before the first hand ends the document has no "end" yet: nothing to replay
        finished = parse_transcript(self.doc).hands if self.doc["hands"] else ()
        if finished:
            report = self.carried.verifier.check(self.doc)
            state = state_after(parse_transcript(self.doc), self.rules, report)
        else:
            state = new_game(self.rules, self.players)
        self.state = state
        if finished:
            self.last_deal = self._deal_of_entry(self.doc["hands"][-1])
        played = len(finished)
        if not finished:  # the match began (every header signature is in): it goes on from here
            self.doc["end"] = closing(self.identity, self.digest, self.host_seat, 0, False, None,
                                      state.scores)
        if not self._rebuild_hand(state, played + 1):
            # no hand in play to rebuild (lost during a deal round, or between hands): the next
            # hand is dealt afresh, members re-committing to the same secrets; once the first
            # deal has started a table never falls back to the lobby
            self.deal = None
            self.phase = Phase.DEAL
            return False
        return True

    def _reopen(self) -> None:
        """The lost host went before the match began (in the lobby, or while the header was being
        signed): no match has begun, so the table is
        back in its lobby (as when any seat leaves then), under a new table id so that no secret
        committed for the abandoned deal is ever used again; the lost host's seat is free."""
        self.table = new_table_id()
        self.adoption = None  # the new match's header lists the adopted keys themselves
        self.state, self.doc, self.header, self.digest, self.header_sigs = None, None, {}, "", {}
        self.local_secrets = {}

    def _deal_of_entry(self, entry: dict[str, Any]) -> HandDeal:
        """A finished hand's HandDeal, so a resignation can still be added to it."""
        d = HandDeal(self.digest, entry["hand"], entry["host"], self.keys_before, self.ring)
        d.adopted = entry.get("adopted")
        for raw in entry["deals"]:
            d.attempts.append(self._attempt(d, raw, [bytes.fromhex(x) for x in raw["secrets"]]))
        d.abandoned = [dict(a) for a in entry.get("abandoned", [])]
        d.moves = list(entry["moves"])
        d.signatures = [bytes.fromhex(s) for s in entry["move_signatures"]]
        d.migrated = {"host": self.host_seat, "term": self.term, "at": len(d.moves)}
        return d

    def _attempt(self, d: HandDeal, raw: dict[str, Any], secrets: list[bytes]) -> Attempt:
        """A finished attempt of ``d``'s hand from its JSON (a transcript's, a peer's record)."""
        return d.restored_attempt(
            DealContext(self.table, d.hand, raw["attempt"]), [c["seat"] for c in raw["commitments"]],
            {c["seat"]: (bytes.fromhex(c["commitment"]), bytes.fromhex(c["signature"]))
             for c in raw["commitments"]},
            bytes.fromhex(raw["set_signature"]),
            {e["seat"]: (bytes.fromhex(e["set"]), bytes.fromhex(e["signature"])) for e in raw["echoes"]},
            secrets)

    def _rebuild_hand(self, state: GameState, hand: int) -> bool:
        """The hand in play from the escrow and the members' move logs; False when none was dealt
        (or the escrow cannot be rebuilt: then the hand is dealt again). Raises nothing."""
        rebuilt = reshuffle.resume(self, state, hand)  # a finished re-shuffle round (net/reshuffle.py)
        if rebuilt is not None:
            return rebuilt
        attempts = self.carried.attempts.get(hand)
        shares = [(n, r["escrow"]) for n, r in self.reports.items() if r["hand"] == hand and r["escrow"]]
        if not attempts:
            return False
        if not shares:
            return reshuffle.start(self, state, hand)  # no escrow: re-shuffle the unknown tiles
        raw = shares[0][1]
        try:
            escrow = Escrow(DealContext(self.table, hand, raw["attempt"]), tuple(raw["seats"]), tuple(raw["holders"]),
                            tuple(bytes.fromhex(x) for x in raw["digests"]))
            last = attempts[-1]
            commitments = {c["seat"]: bytes.fromhex(c["commitment"]) for c in last["commitments"]}
            secrets = rebuild(escrow, [Share(n, bytes.fromhex(s["share"])) for n, s in shares], commitments)
        except (EscrowError, KeyError, ValueError, TypeError):
            return reshuffle.start(self, state, hand)  # a share is lost: re-shuffle the unknown tiles
        d = HandDeal(self.digest, hand, self.lost_host, self.keys_before, self.ring)  # the lost host's
        for raw_attempt in attempts[:-1]:
            d.attempts.append(self._attempt(d, raw_attempt, []))  # void deals: secrets unknown
        d.attempts.append(self._attempt(d, last, [s for _, s in secrets]))
        d.abandoned = list(self.carried.abandoned.get(hand, []))
        if len(attempts) > 1:  # void deals before this one: their secrets are gone with the host
            return reshuffle.start(self, state, hand)
        ctx = d.current.ctx
        _, hands, boneyard = derive_deal(ctx, d.current.opened(), self.rules, state.active)
        events = start_hand(state, hands, boneyard)
        if isinstance(events[0], DealVoided):
            return False
        moves, sigs = self._longest_log(hand)
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
        d.migrated = {"host": self.host_seat, "term": self.term, "at": len(d.moves)}
        d.away = d.signed_by(self.lost_host)
        self.deal, self.dealt, self.phase = d, [list(h) for h in hands], Phase.PLAY
        if ended is not None:
            # the log's last move ended the hand, but the lost host's hand log never went out:
            # publish it now (signed by this host) and go on to the next hand, or the match's end
            self._hand_over(d, ended)
            return True
        self._split_escrow()
        return True

    def _longest_log(self, hand: int) -> tuple[list[dict[str, Any]], list[bytes]]:
        """The longest move log the members reported, with its signatures as bytes (a validated
        report holds bytes, this host's own report hex)."""
        logs = [(r["moves"], r["signatures"]) for r in self.reports.values() if r["hand"] == hand]
        moves, sigs = max(logs, key=lambda log: len(log[0]))
        for other, _ in logs:
            if moves[:len(other)] != other:
                self.stats["migration.log_mismatch"] += 1
        return list(moves), [raw_key(s) for s in sigs]
