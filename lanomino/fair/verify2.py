"""The checks of a locked match's transcript (``lanomino.transcript/2``), in order. Pure.

Once per match, as for transcript/1 (``Checker.start``): the algorithm
(``lanomino-blind-ristretto255/1``), every seat's header signature, the proofs against a host
(``evidence``), the rules. Then per hand, in the order of authority:

1. ``log``        the host's signature of the hand's points (``lanomino.points/1``), which names
                  the record as written and the match score: it makes the whole record the
                  host's word (when it fails, the file was changed after it was signed: no seat
                  is named);
2. ``record``     the record is of this table, this hand's match state, a 28-tile deck, with
                  holders that are seats in the match, and its attempt follows the void deals
                  the hand keeps (else the host, which signed it);
3. ``signature``  one signature on every statement of the record, each by its seat: keys,
                  shuffles, "not me" answers, moves, reveals, and resignations (by the seat, or
                  by the host for a seat that left or was away: listed); a statement its signer
                  did not sign is the host's, which let it into the record it signed;
                  ``dispute``: each signed by its seat, naming a resignation the host signed for
                  it; then each void deal kept (``voided``): its record and signatures as above,
                  its deal's own checks, and ``void`` (``hand_check.check_void_deal``);
4. the locked hand's own checks (``blind/hand_check.py``): ``keys``, ``reveal``, ``shuffle``
   (re-derived from the seeds revealed at the end, or the stored argument for a lost seed),
   ``opening``, ``moves`` (every share and claim, by the engine with every tile known),
   ``score`` (the hand's points), each naming its signer;
5. ``score``      the match score after the hand is the engine's (else the host).

After the last hand, the departures the closing statement keeps (people who left before the next
hand was dealt, the last of them ending the match: ``departures2.check_closing``), then the
host's closing statement (``end``), as for transcript/1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from lanomino.blind.group import BlindError
from lanomino.blind.hand_check import HandVerdict, check_void_deal, dealer_of, judge_blind_hand
from lanomino.blind.hand_record import BlindHand, Resignation
from lanomino.engine import TILES, Draw, GameState
from lanomino.engine.dealing import split_deck
from lanomino.engine.errors import seat_name
from lanomino.engine.state import Phase
from lanomino.fair.checker import Checker
from lanomino.fair.departures2 import check_attempts, check_closing
from lanomino.fair.report import (
    EDITED,
    AwayMove,
    Blamed,
    DerivedDeal,
    Failed,
    HandReport,
    HostSigned,
    Report,
)
from lanomino.fair.statements import dispute_statement
from lanomino.fair.statements2 import (
    SIGNED,
    log_index,
    resign_statement,
    resignation_index,
    signers,
    statements,
)
from lanomino.fair.transcript2 import (
    BLIND_ALGORITHM,
    VOID_SIGNED,
    HandSignatures,
    SignedHand,
    VoidDeal,
    parse_transcript2,
)
from lanomino.fair.transcript_model import Transcript, TranscriptError

WHAT = {"key": "key", "shuffle": "shuffle", "not_me": '"not me"', "move": "move",
        "resign": "resignation", "reveal": "reveal", "unheld": "re-shuffle value"}
# what a hand re-shuffled blind after a holder left cannot show (its key went with it)
UNHELD_UNCHECKED = ("the tiles the holder who left held, and the boneyard's order, before the "
                    "blind re-shuffle (its key left with it)")


def verify_transcript2(doc: Any) -> Report:
    """Check a transcript/2 (parsed JSON). Raises TranscriptError when it is malformed."""
    head, hands = parse_transcript2(doc)
    try:
        return BlindChecker(head, hands).run()
    except BlindError as exc:  # a value the parser let through that the deck cannot take
        raise TranscriptError(f"hands: {exc}") from None


class BlindChecker:
    """The checks of one transcript/2 (the module docstring gives their order); the match-wide
    ones are transcript/1's ``Checker``'s."""

    def __init__(self, head: Transcript, hands: tuple[SignedHand, ...]) -> None:
        self.c = Checker(head, BLIND_ALGORITHM)
        self.hands = hands
        self.deals: list[tuple[DerivedDeal, ...]] = []
        self.holders: tuple[int, ...] = ()  # the holders of the hand before
        self.host_before = 0  # the host at the end of the hand before (seat 0 opens a match)
        self.closed: tuple[str, ...] = ()  # what the closing's departures could not show

    def run(self) -> Report:
        c = self.c
        try:
            state = c.start()
            for hand in self.hands:
                c.hand_no = hand.record.hand
                state = self.check_hand(state, hand)
            c.hand_no = None
            state = self.check_closing(state)
            c.check_end(state, len(self.hands))
        except Failed as failed:
            return self._report(failed)
        return self._report(None, state)

    def check_closing(self, state: GameState) -> GameState:
        """The departures the closing statement keeps, which ended the match before its next
        hand was dealt (``departures2.check_closing``); the match state after them."""
        c, end = self.c, self.c.t.end
        if not end.departures:
            return state
        number, host = len(self.hands) + 1, Blamed.host(end.host)

        def signed(seat: int, signature: bytes, r: Resignation) -> bool:
            return c.signed(seat, signature, resign_statement(c.t.header_digest, number, r))

        def fail(check: str, blame_host: bool, why: str) -> Exception:
            return c.fail(check, host if blame_host else EDITED, why)

        state, self.closed = check_closing(state, end.host, end.departures, signed, fail)
        return state

    def _report(self, failed: Failed | None, state: GameState | None = None) -> Report:
        c = self.c
        return Report(tuple(c.reports), None if failed is None else failed.failure,
                      tuple(self.deals), state, clock=self.clock, caught=tuple(c.caught),
                      closed=self.closed)

    @property
    def clock(self) -> str:
        """What the header says of the move clock, in words (at a locked table the host signs
        no seat's move: a seat out of time is played by its own client)."""
        clock = self.c.t.move_clock
        if clock is None:
            return self.c.clock
        return (f"Move clock: {clock / 1000:g} s a move: a seat out of time is played by its own "
                "client, which signs those moves; they are listed.")

    def check_hand(self, state: GameState, hand: SignedHand) -> GameState:
        """The hand's checks; the match state after it."""
        c, record = self.c, hand.record
        host = Blamed.host(record.host)
        if state.phase is not Phase.DEAL:
            raise c.fail("sequence", host, "a hand was dealt after the match had ended")
        if not c.signed(record.host, hand.points_signature, hand.points(c.t.header_digest)):
            raise c.fail("log", EDITED, "the host's signature over the hand's record and points "
                         "does not verify: the file was changed after it was signed")
        voids: list[DerivedDeal] = []
        state, departed = self.check_attempts(state, hand, voids)
        self.check_record(state, record, host)
        first = {r.seat for r in record.resignations if r.at == 0 and r.by == "left"}
        kept = [s for s in self.holders
                if state.active[s] and s not in record.holders and s not in first]
        if kept:  # (a person holds a key in every hand while in the match; a bot never does;
            # a seat a new host deals for after a migration resigns at once, as it left)
            raise c.fail("record", host, f"{seat_name(kept[0])} held a key in the hand before "
                         "and is still in the match, but the record leaves it out")
        self.holders = record.holders
        self.check_signatures(record, hand.signatures, SIGNED, host)
        c.host_signed = [HostSigned(resignation_index(record, j), r.seat,
                                    "resign" if r.by == "left" else "resigns")
                         for j, r in enumerate(record.resignations) if r.host_signed]
        self.check_disputes(hand)
        verdict, after = judge_blind_hand(record, state, c.t.move_clock is not None,
                                          dealer_of(record, self.host_before))
        self.host_before = record.host
        self.check_verdict(verdict, record.host)
        if tuple(hand.scores) != tuple(after.scores):
            raise c.fail("score", host, f"the host signed the match score {list(hand.scores)} "
                         f"after this hand, but the rules give {after.scores}")
        deal = (DerivedDeal((), (), False) if record.unheld is not None
                else self._deal(state, verdict.tiles, False))  # (not every position opens)
        self.deals.append((*voids, deal))
        self.report(after, hand, departed)
        return after

    def check_attempts(self, state: GameState, hand: SignedHand, voids: list[DerivedDeal]
                       ) -> tuple[GameState, tuple[str, ...]]:
        """The deal attempts before the one played: each void deal the hand keeps checked (its
        derived deal into ``voids``), each departure between them applied
        (``departures2.check_attempts``). The state the played deal starts from, and what could
        not be checked."""
        c, record = self.c, hand.record
        host = Blamed.host(record.host)
        if not hand.voided and not hand.departures:
            if record.attempt > 1 and state.rules.no_double != "reshuffle":
                raise c.fail("record", host, f"the hand was dealt {record.attempt} times, but "
                             "the rules call no deal void and the record keeps no departure")
            return state, ()  # (a file written before the table kept its void deals: listed)
        numbers = [v.record.attempt for v in hand.voided]
        if numbers != sorted(set(numbers)):
            raise c.fail("record", host, "the void deals the hand keeps are not in order")

        def void(before: GameState, attempt: int) -> None:
            kept = hand.voided[numbers.index(attempt)]
            voids.append(self._deal(before, self.check_void(before, kept, attempt, record.host),
                                    True))

        def signed(seat: int, signature: bytes, r: Resignation) -> bool:
            return c.signed(seat, signature, resign_statement(c.t.header_digest, record.hand, r))

        def fail(check: str, blame_host: bool, why: str) -> Exception:
            return c.fail(check, host if blame_host else EDITED, why)

        return check_attempts(state, record.host, record.attempt, numbers, hand.departures,
                              signed, fail, void)

    def check_record(self, state: GameState, record: BlindHand, host: Blamed) -> None:
        """What the host signed about the deal itself: this table, a full set, its holders."""
        c = self.c
        if record.table != c.t.table:
            raise c.fail("record", host, "the host's record of the hand is of another table")
        if record.tiles != len(TILES):
            raise c.fail("record", host, f"the host's record locks a deck of {record.tiles} "
                         f"tiles; the rules deal a set of {len(TILES)}")
        # (the host holds a key while its bots play, after its own seat resigned too)
        out = [s for s in record.holders if not state.active[s] and s != record.host]
        if out:
            raise c.fail("record", host, f"the host's record names {seat_name(out[0])} as a "
                         "holder, but that seat is out of the match")

    def check_verdict(self, verdict: HandVerdict, host: int) -> None:
        """A failed check of the locked deck's own (``hand_check.py``), blaming its culprit."""
        if verdict.ok:
            return
        blame: Blamed | str = ("nobody can be named" if verdict.culprit is None
                               else Blamed.host(host) if verdict.culprit == host
                               else Blamed.player(verdict.culprit))
        who = seat_name(verdict.culprit) if verdict.culprit is not None else ""
        said = verdict.reason if not who or verdict.reason.startswith(who) else (
            f"{who}: {verdict.reason}")
        raise self.c.fail(verdict.check, blame, said)

    def check_void(self, state: GameState, void: VoidDeal, attempt: int,
                   host: int) -> tuple[int, ...]:
        """A void deal dealt again before the hand's deal: the host's record of it, the
        signatures of its statements, and the locked deck's checks of a void deal; its tiles
        by position."""
        record, blamed = void.record, Blamed.host(host)
        if record.attempt != attempt or record.host != host:
            raise self.c.fail("record", blamed, f"void deal {attempt}: the host's record of it "
                              f"says attempt {record.attempt}, host {seat_name(record.host)}")
        self.check_record(state, record, blamed)
        self.check_signatures(record, void.signatures, VOID_SIGNED, blamed)
        verdict = check_void_deal(record, state)
        self.check_verdict(verdict, host)
        return verdict.tiles

    def check_signatures(self, record: BlindHand, signed: HandSignatures, kinds: Sequence[str],
                         host: Blamed) -> None:
        """One valid signature per statement of the record, of the ``kinds`` it has (the
        module docstring)."""
        c = self.c
        said, by = statements(c.t.header_digest, record), signers(record)
        for kind in kinds:
            signatures = signed.of(kind)
            if len(signatures) != len(said[kind]):
                raise c.fail("signature", host, f"the record has {len(said[kind])} "
                             f"{WHAT[kind]} statements but {len(signatures)} signatures")
            for i, (statement, seat, signature) in enumerate(
                    zip(said[kind], by[kind], signatures, strict=True)):
                if c.signed(seat, signature, statement):
                    continue
                owner = statement.get("seat", statement.get("move", {}).get("seat"))
                who = seat_name(owner if isinstance(owner, int) else seat)
                signer = (who if owner == seat else "the host" if seat == record.host
                          else f"{seat_name(seat)}, an earlier host of the hand")
                raise c.fail("signature", host, f"{WHAT[kind]} {i + 1} ({who}'s) is not signed "
                             f"by {signer}: the host let into its record a statement its signer "
                             "did not sign")

    def check_disputes(self, hand: SignedHand) -> None:
        """Each dispute is signed by its seat and names a resignation the host signed for it."""
        c, record = self.c, hand.record
        host_signed = [i for i, r in enumerate(record.resignations) if r.host_signed]
        for d in hand.disputes:
            r, who = record.resignations[d.resignation], seat_name(d.seat)
            statement = dispute_statement(c.t.header_digest, record.hand,
                                          resignation_index(record, d.resignation), d.seat,
                                          {"seat": r.seat, "resign": True})
            if not c.signed(d.seat, d.signature, statement):
                raise c.fail("dispute", EDITED, f"the dispute of resignation {d.resignation + 1} "
                             f"is not signed by {who}: the file was changed after it was signed")
            if d.resignation not in host_signed or r.seat != d.seat:
                raise c.fail("dispute", Blamed.player(d.seat), f"{who} disputes resignation "
                             f"{d.resignation + 1}, which is not one the host signed for {who}")
            n = host_signed.index(d.resignation)
            c.host_signed[n] = replace(c.host_signed[n], disputed=True)

    @staticmethod
    def _deal(before: GameState, tiles: tuple[int, ...], void: bool) -> DerivedDeal:
        """A deal as the revealed keys open it (a void one too, as transcript/1 derives it)."""
        hands, boneyard = split_deck([TILES[t] for t in tiles], before.active,
                                     before.rules.hand_size_for(before.players))
        return DerivedDeal(tuple(map(tuple, hands)), tuple(boneyard), void)

    def report(self, after: GameState, hand: SignedHand, departed: tuple[str, ...] = ()
               ) -> None:
        """The hand checked out: its line."""
        record = hand.record
        draws = sum(isinstance(m.action, Draw) for m in record.moves)
        kept = hand.voided or hand.departures  # (else: void deals the file does not keep)
        void = 0 if kept else record.attempt - 1
        unchecked = (f"the {'void deal' if void == 1 else f'{void} void deals'} before it (not in "
                     "the file)",) if void else departed
        if record.unheld is not None:
            unchecked = (*unchecked, UNHELD_UNCHECKED)
        away = tuple(AwayMove(log_index(record, i), m.seat, str(m.action))
                     for i, m in enumerate(record.moves) if m.away)
        self.c.reports.append(HandReport(record.hand, record.attempt, len(record.holders),
                                         record.tiles, draws, tuple(after.scores),
                                         host_signed=tuple(self.c.host_signed),
                                         unchecked=unchecked, locked=True, away=away))
