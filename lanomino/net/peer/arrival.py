"""A peer's checks of what the host passes on, before anything is applied. Pure.

Every ``update`` carries the move as its seat signed it and the host's signature of the log's head
after it (fair/chain.py). A seat or watcher applies it only when both hold:

- the move is signed by its seat (a host-side bot's seat: the key in the header, or the key a new
  host adopted it under, which the roster shows). The host may sign only the resignation of a
  seat the roster shows has left (it cannot sign its departure), and, at a table whose signed
  match header declares a move clock, a move marked ``away`` that the table's bot made for a seat
  the roster shows out of time (that seat disputes it if its clock had not run out). At a locked
  table the seat's own client plays it while it is out of time and signs the mark with the
  move (``"away": true`` in it): the update's ``away`` must be the one the seat signed;
- the host's signature covers the head this seat computes itself from the head before and the
  move: the host has put its name to exactly this log.

A failed check is the host's doing (it passed the move on): ``HostCaught`` carries the proof, the
host's own signed words, and the update is not applied. Two heads the host signed for one place
are a fork (``chain.Fork``): ``heads_seen`` answers with the proof when a head from elsewhere
differs from the one this seat holds. A dispute the host passes on counts toward the next head
(``relay``), so a host that passes one to some seats only shows the others another log: the next
seat's signed view of the log exposes that fork like any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lanomino.blind.hashing import ALGORITHM
from lanomino.engine import Resign
from lanomino.engine.errors import seat_name
from lanomino.fair.chain import Fork, extend, genesis, head_statement, link, seen_statement
from lanomino.fair.transcript import move_statement
from lanomino.fair.transcript_model import Dispute
from lanomino.net.election import entry_of
from lanomino.net.session_base import HostCaught
from lanomino.net.wire import messages as m
from lanomino.net.wire.values import parse_move, signed_away

if TYPE_CHECKING:
    from lanomino.net.peer.state import PeerState

__all__ = ["Arrival", "Seen"]

# what a seat sends with its move: the head before it, the host's signature of that head (None
# before the hand's first move, or when this seat came back by a snapshot), its own signature
Seen = tuple[bytes, bytes | None, bytes]


class Arrival:
    """The checks on arrival of one peer session (see the module docstring)."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer
        self.heads: dict[int, list[bytes]] = {}  # per hand, the log's head after each move
        self.signed: dict[int, dict[int, bytes]] = {}  # per hand, index -> the host's head sig
        # per hand, the disputes passed on while the log had i moves, per i (fair/chain.py)
        self.relayed: dict[int, dict[int, list[Dispute]]] = {}
        self.fork: Fork | None = None  # the proof of the fork the last update showed, if any

    def forget(self, hand: int | None = None) -> None:
        """The hand's moves were replaced (a deal, a snapshot): its heads are computed afresh."""
        if hand is None:
            self.heads.clear()
            self.signed.clear()
            self.relayed.clear()
        else:
            self.heads.pop(hand, None)
            self.signed.pop(hand, None)
            self.relayed.pop(hand, None)

    def relay(self, hand: int, dispute: Dispute, at: int | None = None) -> None:
        """The host passed ``dispute`` on when the log had ``at`` moves (None: now): it counts
        toward the next head, once."""
        relayed = self.relayed.setdefault(hand, {})
        if any(x.index == dispute.index for xs in relayed.values() for x in xs):
            return
        at = len(self.p.moves.get(hand, [])) if at is None else at
        relayed.setdefault(at, []).append(dispute)

    def head(self, hand: int) -> list[bytes]:
        """The heads after each move this seat holds of ``hand``."""
        p = self.p
        chain = self.heads.setdefault(hand, [])
        moves, sigs = p.moves.get(hand, []), p.move_sigs.get(hand, [])
        if len(chain) > len(moves):
            chain.clear()
        return extend(chain, p.digest, hand, moves, sigs, self.relayed.get(hand))

    def before(self, hand: int, index: int) -> bytes:
        """The head of this seat's log of ``hand`` before move ``index``."""
        chain = self.head(hand)
        return chain[index - 1] if 0 < index <= len(chain) else genesis(self.p.digest, hand)

    def seen(self, hand: int, index: int) -> Seen:
        """This seat's view of the log before its move ``index``, signed, for its ``move``."""
        p = self.p
        head = self.before(hand, index)
        host = self.signed.get(hand, {}).get(index - 1)
        return head, host, p.identity.sign_statement(seen_statement(p.digest, hand, index, head))

    def check_update(self, body: m.Update, signer: int | None = None) -> bool:
        """True when ``body`` may be applied; else the proof is reported (``HostCaught``).
        ``signer``: the host whose log it is, when not the one this seat follows (a lost host's
        entry that a new host passes on, net/peer/catch_up.py); a failed check is still the
        doing of the host that passed it on."""
        p = self.p
        by = p.host_seat if signer is None else signer
        host_key = p.keys[by] if 0 <= by < len(p.keys) else b""
        problem = self._signer_problem(body, host_key)
        chain = self.head(body.hand)
        if problem is None:
            problem = self._seen_problem(body, chain, host_key, by)
        after = link(chain[-1] if chain else genesis(p.digest, body.hand), body.move,
                     body.signature, self.relayed.get(body.hand, {}).get(body.index, ()))
        statement = head_statement(p.digest, body.hand, body.index, after)
        if problem is None and not p.ring.verify_statement(host_key, body.head, statement):
            whose = "the host's" if signer is None else f"the lost host's ({seat_name(by)})"
            problem = "head", f"{whose} signature of move {body.index + 1}'s log head is wrong"
        if problem is not None:
            self._caught(*problem, body)
            return False
        self.signed.setdefault(body.hand, {})[body.index] = body.head
        return True

    def _signer_problem(self, body: m.Update, host_key: bytes) -> tuple[str, str] | None:
        p = self.p
        locked = p.header is not None and p.header.algorithm == ALGORITHM
        try:
            seat = body.move.get("seat")
            action = parse_move(body.move, seat if isinstance(seat, int) else -1, away=locked)
        except ValueError as exc:
            return "move", f"move {body.index + 1} is not a move: {exc}"
        if not isinstance(seat, int) or not 0 <= seat < len(p.keys):
            return "move", f"move {body.index + 1} names no seat of this table"
        if locked and body.away != signed_away(body.move):  # (its seat signs the mark there)
            who = seat_name(seat)
            return "away", (f"the host's mark of move {body.index + 1} as the table's bot's or "
                            f"not is not the one {who} signed with it")
        if locked and body.away and p.header is not None and p.header.move_clock is None:
            return "away", (f"the host passed move {body.index + 1} on as the table's bot's, "
                            "at a table without a move clock")
        statement = move_statement(p.digest, body.hand, body.index, body.move)
        if any(p.ring.verify_statement(key, body.signature, statement)
               for key in self.keys_of(seat)):
            return None
        who = seat_name(seat)
        what = f"move {body.index + 1} ({who}: {action}) is not signed by {who}"
        if not p.ring.verify_statement(host_key, body.signature, statement):
            return "move-signature", what
        entry = entry_of(p.roster, seat)
        if isinstance(action, Resign):
            if entry is not None and entry.left:
                return None  # a seat that left cannot sign its departure
            return "move-signature", f"{what} but by the host, and {who} has not left"
        if p.header is None or p.header.move_clock is None:
            return "move-signature", f"{what} but by the host, at a table without a move clock"
        if p.header.algorithm == ALGORITHM:  # (only the seat opens its tiles: table_bot.py)
            return "move-signature", f"{what} but by the host, at a locked table"
        if not body.away or entry is None or not entry.away:
            return "move-signature", f"{what} but by the host, and {who} is not away"
        return None  # the table's bot moved for a seat out of time (the seat may dispute it)

    def _seen_problem(self, body: m.Update, chain: list[bytes], host_key: bytes,
                      host: int) -> tuple[str, str] | None:
        """A remote seat's move comes with its view of the log before it (``seen``), signed by
        it: the host must pass it on, and it must be this seat's view too (else a fork). The
        host's own move (``host``: the one whose log it is) comes without one."""
        p = self.p
        seat = body.move.get("seat")
        entry = entry_of(p.roster, seat) if isinstance(seat, int) else None
        who = seat_name(seat) if isinstance(seat, int) else "a seat"
        if body.seen is None or body.seen_signature is None:
            own = entry is not None and entry.kind == "human" and isinstance(seat, int) \
                and seat != host and any(
                p.ring.verify_statement(k, body.signature, move_statement(
                    p.digest, body.hand, body.index, body.move)) for k in self.keys_of(seat))
            return ("heads-withheld", f"the host passed {who}'s move {body.index + 1} on without "
                    f"the log head {who} signed with it") if own else None
        assert isinstance(seat, int)
        statement = seen_statement(p.digest, body.hand, body.index, body.seen)
        if not any(p.ring.verify_statement(k, body.seen_signature, statement)
                   for k in self.keys_of(seat)):
            return "seen", f"the log head passed on with {who}'s move {body.index + 1} is not its"
        mine = chain[-1] if chain else genesis(p.digest, body.hand)
        if body.seen == mine:
            return None
        fork = self.fork = None if body.seen_host is None else self.heads_seen(
            body.hand, body.index - 1, body.seen, body.seen_host)
        return "fork", (f"the host showed {who} another log than this seat's before move "
                        f"{body.index + 1}" + (" (two heads it signed: a fork)" if fork else ""))

    def keys_of(self, seat: int) -> list[bytes]:
        """The keys ``seat`` may sign with: the header's; a bot's seat, the key a new host adopted
        it under (the roster shows it)."""
        keys = [self.p.keys[seat]]
        keys += [e.identity for e in self.p.roster
                 if e.seat == seat and e.kind == "bot" and e.identity != keys[0]]
        return keys

    def _caught(self, check: str, detail: str, body: m.Update) -> None:
        p = self.p
        p.stats[f"caught.{check}"] += 1
        evidence: dict[str, Any] = {
            "check": check, "host": p.host_seat, "hand": body.hand, "index": body.index,
            "move": body.move, "signature": body.signature.hex(), "head": body.head.hex(),
            "away": body.away, "seen": None if body.seen is None else body.seen.hex(),
            "seen_host": None if body.seen_host is None else body.seen_host.hex(),
            "seen_signature": None if body.seen_signature is None else body.seen_signature.hex()}
        if check == "fork" and self.fork is not None:  # offline proof (fair/evidence.py)
            evidence["proof"] = {"kind": "fork", "host": p.host_seat, **self.fork.to_json()}
        self.fork = None
        p.caught.append(HostCaught(check, detail, evidence, p.now))
        p._events.append(p.caught[-1])

    def heads_seen(self, hand: int, index: int, head: bytes, signature: bytes) -> Fork | None:
        """A head the host signed for ``hand`` at ``index``, seen elsewhere: the proof of a fork
        when this seat holds another head the host signed for the same place."""
        p = self.p
        chain = self.head(hand)
        mine = self.signed.get(hand, {}).get(index)
        if not 0 <= index < len(chain) or mine is None or chain[index] == head:
            return None
        fork = Fork(p.digest, hand, index, (chain[index], mine), (head, signature))
        return fork if fork.holds(p.ring, p.keys[p.host_seat]) else None

