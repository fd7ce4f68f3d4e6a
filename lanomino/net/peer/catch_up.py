"""A locked hand's log, caught up after a migration (issue 29). Pure.

Theory of operation. A host sends each move's ``update`` to the members one after the other, so
one that dies between two of them leaves the members holding logs of different lengths. At a
fair table the new host's snapshot catches everyone up; a locked table sends none (each side's
hand is its own), so the entries themselves travel, each as the lost host sent it: the
``update`` (the move, its seat's signature, the lost host's signature of the log's head after
it, the mover's view of the log before it) and, before a play or a seat's resignation, the
seat's ``blind_play`` (its opener's share, the tile's ownership proof) or ``blind_resign``;
after a draw, the shares of it this side holds (``blind_draw``, each from its holder: the round
may have been done, or partly sent, when the host died).

- A member's ``report`` carries its last entries (``entries``, at most ``MAX_CATCH_UP``): a
  new host behind it takes them (net/host/locked_log.py).
- The new host passes a member behind it the entries it lacks, ``MAX_CATCH_UP`` moves to a
  ``catch_up``, in order (a seat that moves is at most a round of turns behind, since each of
  its moves and each draw's share needs the log so far; one that resigned and holds a key may be
  further behind, between two draws).

Either side takes them as it takes what a host passes on (``take``): a share through the same
handler as a relayed one, the update through the same checks (``Arrival.check_update``), with
the lost host's key for the head. Nothing is taken on a seat's word: an entry the lost host did
not sign fails, and a failed check here is the doing of whoever passed it on (at a member: its
host, caught as for any update; at a new host: the member, whose copy is dropped).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from lanomino.engine import Draw, Play, Resign
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire import messages as m
from lanomino.net.wire.catch_up_messages import MAX_CATCH_UP
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.schemas import envelope, parse_message
from lanomino.net.wire.values import parse_move

if TYPE_CHECKING:
    from lanomino.net.peer.state import PeerState


class LogCatchUp:
    """A locked hand's log entries given and taken after a migration (see the module
    docstring): one part of a peer session. ``update`` is the session's handler of an update
    (``PeerDealing.update``), which takes the host whose log it is."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer
        self.update: Callable[[m.Update, int | None], None] = lambda body, signer: None
        self.given: set[tuple[int, int]] = set()  # (hand, move) a new host asked its log from

    def entries(self, since: int, until: int | None = None) -> list[JsonObject] | None:
        """The hand in play's log entries from move ``since`` on (to ``until``, else its end), as
        its host sent them (each play's ``blind_play`` and each seat's ``blind_resign`` before
        its ``update``); None when this side does not hold them so (more than ``MAX_CATCH_UP``
        moves: one message's worth, a resignation the host signed, a log it did not follow
        update by update)."""
        p = self.p
        blind, hand = p.blind, p.blind.hand
        moves, heard = p.moves.get(p.hand, []), p.heard.get(p.hand, [])
        until = len(moves) if until is None else until
        if hand is None or hand.view is None or not 0 <= since <= until <= len(moves) \
                or until - since > MAX_CATCH_UP or len(heard) != len(moves):
            return None
        out: list[JsonObject] = []
        for index in range(since, until):
            update = heard[index]
            seat = moves[index].get("seat")
            if update.index != index or update.move != moves[index] or not isinstance(seat, int):
                return None
            action = parse_move(moves[index], seat, away=True)
            said: b.BlindBody | None = None
            if isinstance(action, Play):
                share, play = hand.proofs.get(index), hand.plays.get(index)
                sig = hand.signatures.get(("move", index))
                if share is None or play is None or play.end is None or sig is None:
                    return None
                said = b.BlindPlay(blind.number, blind.attempt, seat, index, str(play.tile),
                                   play.end.name.lower(), share, sig, index in hand.marked)
            elif isinstance(action, Resign):
                gone = next((r for r in hand.resignations if r.seat == seat), None)
                sig = hand.signatures.get(("resign", seat))
                if gone is None or gone.by != "seat" or sig is None:
                    return None  # (a resignation the lost host signed: no new host carries it)
                said = b.BlindResign(blind.number, blind.attempt, seat, seat, gone.at, "seat",
                                     sig)
            if said is not None:
                out.append(envelope(said, 0, 1))
            out.append(envelope(update, 0, 1))
            if isinstance(action, Draw):  # its shares this side holds, as their holders sent them
                out += [envelope(share, 0, 1) for share in self._shares(index)]
        return out

    def _shares(self, index: int) -> list[b.BlindDraw]:
        """The shares of the draw that was the log's move ``index``, with their signatures."""
        blind, hand = self.p.blind, self.p.blind.hand
        assert hand is not None
        moves = [j + sum(r.at <= j for r in hand.resignations) for j in range(len(hand.moves))]
        position = hand.moves[moves.index(index)].position if index in moves else None
        draw = hand.draw
        held = [*(draw.shares.values() if draw is not None and draw.position == position
                  else ()), *hand.drawn.get(position or 0, ())] if position is not None else []
        return [b.BlindDraw(blind.number, blind.attempt, s.seat, index, s, sig) for s in held
                if (sig := hand.signatures.get(("draw", (index, s.seat)))) is not None]

    def take(self, raw: Sequence[JsonObject], signer: int) -> bool:
        """Take ``raw`` (``entries``' form) as if the host ``signer`` had sent it now: what this
        side holds already is skipped, the rest checked and applied in order. False at the
        first entry that does not hold (reported as any failed check is; nothing after it is
        taken)."""
        p, blind = self.p, self.p.blind
        for item in raw:
            try:
                body = parse_message(item).body
            except RemoteProtocolError as exc:
                p._problem("catch_up", str(exc))
                return False
            hand, caught = blind.hand, len(p.caught)
            held = len(p.moves.get(p.hand, []))
            if hand is None:
                return False
            if getattr(body, "index", held) > held:  # (this side lacks the moves before it:
                return False  # a report ahead by more than it carries, locked_log.wanted)
            if isinstance(body, m.Update):
                if body.hand != p.hand or body.index < held:
                    continue
                self.update(body, signer)
                if len(p.moves.get(p.hand, [])) == held:
                    return False
            elif isinstance(body, b.BlindPlay):
                if body.index < hand.logged or hand.proofs.get(body.index) == body.share:
                    continue
                blind.play(body)
                if hand.proofs.get(body.index) != body.share:
                    return False
            elif isinstance(body, b.BlindDraw):
                blind.draw(body)  # (a share this side holds is dropped there)
            elif isinstance(body, b.BlindResign) and body.by == "seat":
                if body.resigned in hand.resigning or any(r.seat == body.resigned
                                                          for r in hand.resignations):
                    continue
                blind.resign(body)
                if body.resigned not in hand.resigning:
                    return False
            else:
                p._problem("catch_up", f"a {body.TYPE} is no entry of a hand's log")
                return False
            if len(p.caught) > caught:
                return False
        return True

    def wanted(self, body: m.LogWanted) -> None:
        """A new host behind this side by more than its report carried asks for the hand's
        entries from move ``since`` on: they go in ``catch_up``s of at most ``MAX_CATCH_UP``
        moves each, in order, once per place asked (what this side cannot give so, nothing:
        the new host then goes on without them)."""
        p = self.p
        held = len(p.moves.get(p.hand, []))
        if body.hand != p.hand or p.blind.hand is None or not 0 <= body.since < held \
                or (body.hand, body.since) in self.given:
            p._problem("stale", f"a request for hand {body.hand}'s log from move "
                                f"{body.since + 1}")
            return
        self.given.add((body.hand, body.since))
        parts = [self.entries(at, min(at + MAX_CATCH_UP, held))
                 for at in range(body.since, held, MAX_CATCH_UP)]
        for part in parts if all(part is not None for part in parts) else ():
            p._send(m.CatchUp(p.hand, tuple(part or ())))

    def catch_up(self, body: m.CatchUp) -> None:
        """The new host passes on the entries of the hand in play that the lost host (the one
        that dealt it) sent to other members only."""
        p = self.p
        if body.hand != p.hand or p.blind.hand is None:
            p._problem("stale", f"a catch-up of hand {body.hand}")
            return
        self.take(body.entries, p.dealers.get(p.hand, p.host_seat))
