"""The checks behind ``verify_transcript``, in order (see ``lanomino.fair.verify``). Pure.

In the order of authority: first what the signers said, then each statement the host made as host,
then each move against the deal the host's published secrets make. Per hand: the host's log
signature (it makes the sets, secrets, moves, points and scores the host's word: when it fails,
the file was changed after it was signed, and no seat is named), the commitment set (seats,
signatures), the host's set signature, the echoes (equivocation), the published secrets, the
derived deal (void deals and re-deals), the move signatures (a move the host signed for a seat:
under the header's move clock; disputes), each move on a fresh engine state (ownership, then
legality: a move the committed deal refutes is the host's, which let it into its log), the end of
the hand, the scores; a re-shuffled hand (after a migration) has checks of its own
(``check_reshuffled``). After the last hand, the host's signed closing statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from lanomino.engine import (
    DealVoided,
    Draw,
    GameState,
    HandEnded,
    IllegalActionError,
    Play,
    Rules,
    Tile,
    apply,
    new_game,
    start_hand,
)
from lanomino.engine.errors import EngineError, seat_name
from lanomino.engine.state import Phase
from lanomino.fair import adoption, evidence
from lanomino.fair.attempt import DealAttempt
from lanomino.fair.check_moves import check_move_signatures, clock_words
from lanomino.fair.check_reshuffle import check_reshuffled
from lanomino.fair.check_round import check_round
from lanomino.fair.commit import DealContext, set_digest, set_statement
from lanomino.fair.commit_reveal import deal_domain
from lanomino.fair.identity import KeyRing
from lanomino.fair.report import (
    EDITED,
    Blamed,
    DerivedDeal,
    Failed,
    Failure,
    HandReport,
    HostSigned,
)
from lanomino.fair.shuffle import ALGORITHM, derive_deal
from lanomino.fair.statements import (
    end_statement,
    header_statement,
    log_statement,
)
from lanomino.fair.transcript import parse_hand
from lanomino.fair.transcript_model import HandLog, Transcript, TranscriptError


def _seat_name(seat: int) -> str:
    """A seat in a problem's words, counted from 1 (the JSON's seat fields count from 0)."""
    return seat_name(seat)


def _side_name(side: int, partnership: bool) -> str:
    return f"the team of seats {side + 1} and {side + 3}" if partnership else _seat_name(side)


class Checker:
    """The checks of one transcript, hand by hand (the module docstring gives their order)."""

    def __init__(self, t: Transcript, algorithm: str = ALGORITHM,
                 ring: KeyRing | None = None) -> None:
        self.t = t
        self.algorithm = algorithm  # the deal's (the locked deck's verifier checks its own)
        self.keys = list(t.keys)  # each seat's key now: a new host may adopt a bot's seat
        self.adopted_in = [0] * len(t.keys)  # the term of each seat's last adoption
        self.ring = KeyRing() if ring is None else ring  # (a session's: see StreamVerifier)
        self.reports: list[HandReport] = []
        self.deals: list[tuple[DerivedDeal, ...]] = []
        self.hand_no: int | None = None
        self.state: GameState | None = None  # after the last hand, once every check passed
        self.host_signed: list[HostSigned] = []  # the hand's moves signed by the host for a seat
        self.caught: list[str] = []  # the hosts the transcript's evidence convicts, in words

    def fail(self, check: str, blame: Blamed | str, message: str) -> Failed:
        """The failure of ``check``, blaming a seat (``Blamed``) or someone who is not one."""
        if isinstance(blame, str):
            return Failed(Failure(check, self.hand_no, blame, message))
        return Failed(Failure(check, self.hand_no, blame.words, message, blame.seat))

    def host(self, hand: HandLog) -> Blamed:
        """The host that dealt the hand (its deal rounds are its word)."""
        return Blamed.host(hand.host)

    def logger(self, hand: HandLog) -> Blamed:
        """The host that signed the hand's log (its moves, points and scores are its word)."""
        return Blamed.host(hand.log_host, new=hand.migrated is not None)

    def won(self, state: GameState, winner: int | None) -> str:
        if winner is None:
            return "no winner"
        return f"won by {_side_name(winner, state.rules.partnership)}"

    def signed(self, seat: int, signature: bytes, statement: dict[str, Any]) -> bool:
        return self.ring.verify_statement(self.keys[seat], signature, statement)

    def adopt(self, hand: HandLog, checked: bool = False) -> None:
        """The hand's adoption record (fair/adoption.py) takes effect, if the chain holds."""
        a = hand.adopted
        if a is None:
            return
        term = None if hand.migrated is None else hand.migrated.term
        problem = None if checked else adoption.check(a, hand.log_host, term, self.adopted_in)
        if problem is not None:
            raise self.fail("adoption", Blamed.host(hand.log_host), problem)
        for seat, key in a.keys:
            self.keys[seat], self.adopted_in[seat] = key, a.term

    def run(self) -> None:
        state = self.start()
        for hand in self.t.hands:
            self.hand_no = hand.hand
            self.check_hand(state, hand)
        self.hand_no = None
        self.check_end(state)
        self.state = state

    def refutes(self, proof: evidence.Proof) -> bool:
        """A ``log`` proof holds (fair/evidence.py): its entry, checked as hand ``proof.hand``
        after this file's hands before it, fails with the blame on ``proof.host``."""
        t = self.t
        if proof.hand > len(t.hands) + 1:
            return False
        try:
            hand = parse_hand(proof.raw["entry"], proof.hand - 1, len(t.players))
        except TranscriptError:
            return False
        inner = Checker(replace(t, hands=(*t.hands[:proof.hand - 1], hand), evidence=()),
                        self.algorithm, self.ring)
        try:
            state = inner.start()
            for h in inner.t.hands:
                inner.hand_no = h.hand
                inner.check_hand(state, h)
        except Failed as failed:
            f = failed.failure
            return f.hand == proof.hand and f.seat == proof.host and "host" in f.blame
        return False

    def start(self) -> GameState:
        """The header's checks; the engine state before the first hand."""
        t = self.t
        if t.algorithm != self.algorithm:
            raise self.fail("algorithm", "the transcript",
                            f"unknown shuffle algorithm {t.algorithm!r} "
                            f"(this verifier knows {self.algorithm!r})")
        for seat, signature in enumerate(t.header_signatures):
            if not self.signed(seat, signature, header_statement(t.header_digest, seat)):
                raise self.fail("header", EDITED,
                                f"{_seat_name(seat)}'s signature on the match header "
                                "(table, rules, players, keys) does not verify: "
                                "the file was changed after the players signed it")
        no_clock = t.clock_declared and t.move_clock is None
        self.caught, problem = evidence.check(t.evidence, t.header_digest, list(t.keys), no_clock,
                                              self.ring, self.refutes)
        if problem is not None:  # (an accusation nobody signs: no seat is named)
            raise self.fail("evidence", EDITED, problem)
        try:
            rules = Rules.from_spec(t.rules_spec)
            return new_game(rules, len(t.players))
        except EngineError as exc:
            raise self.fail("rules", "every player (all signed these rules)",
                            f"the rules are not playable: {exc}") from None

    def check_end(self, state: GameState, count: int | None = None) -> None:
        """The closing statement, for the file's hands (``count`` of them, when they are not
        ``self.t``'s: a transcript/2's)."""
        end, host = self.t.end, Blamed.host(self.t.end.host)
        held = len(self.t.hands) if count is None else count
        statement = end_statement(self.t.header_digest, end.host, end.hands, end.finished,
                                  end.winner, end.scores,
                                  [d.statement_json() for d in end.departures])
        if not self.signed(end.host, end.signature, statement):
            raise self.fail("end", EDITED, "the host's signature over the closing statement "
                            "does not verify: the file was changed after it was signed")
        if end.hands < held:  # the host signed the logs of hands it says are not
            raise self.fail("end", host, f"the host signed the logs of {held} "
                            f"hands, but its closing statement says {end.hands}")
        if end.hands > held:
            raise self.fail("end", EDITED, f"the file holds {held} hands, but the "
                            f"host's closing statement says {end.hands}: hands were cut off "
                            "after it was signed")
        over = state.phase is Phase.OVER
        winner = state.outcome.winner if state.outcome is not None else None
        if (end.finished, end.winner, end.scores) != (over, winner, tuple(state.scores)):
            said = (f"{'finished' if end.finished else 'unfinished'}, "
                    f"{self.won(state, end.winner)}, scores {list(end.scores)}")
            real = (f"{'finished' if over else 'unfinished'}, {self.won(state, winner)}, "
                    f"scores {state.scores}")
            raise self.fail("end", host, f"the closing statement says the match is {said}; "
                            f"the moves give {real}")

    def check_hand(self, state: GameState, hand: HandLog) -> None:
        if state.phase is not Phase.DEAL:
            raise self.fail("sequence", self.logger(hand),
                            "a hand was dealt after the match had ended")
        self.check_log_signature(hand)  # first: it makes every other word of the log the host's
        if hand.reshuffled is not None:
            check_reshuffled(self, state, hand)
            return
        if hand.migrated is None:
            self.adopt(hand)  # the new host made this hand's deals: under the adopted keys
        derived: list[DerivedDeal] = []
        self.deals.append(())
        digests: list[bytes] = []
        secrets: list[list[tuple[int, bytes]]] = []
        for number, attempt in enumerate(hand.deals, start=1):
            digest_, opened = self.check_commitments(state, hand, attempt)
            digests.append(digest_)
            secrets.append(opened)
            ctx = DealContext(self.t.table, hand.hand, attempt.attempt)
            _, hands, boneyard = derive_deal(ctx, opened, state.rules, state.active)
            events = start_hand(state, hands, boneyard)
            void = isinstance(events[0], DealVoided)
            derived.append(DerivedDeal(tuple(map(tuple, hands)), tuple(boneyard), void))
            self.deals[-1] = tuple(derived)
            last = number == len(hand.deals)
            if void and last:
                void_deal = f"deal {number} is void (no double) and the rules say to deal again"
                raise self.fail("deal", self.host(hand), f"{void_deal}, but it was played")
            if not void and not last:
                raise self.fail("deal", self.host(hand),
                                f"deal {number} was playable, yet the hand was dealt again")
        self.check_stated_deal(hand, derived[-1])
        self.check_move_signatures(hand)
        draws = self.replay(state, hand)
        self.check_scores(state, hand)
        dealt = derived[-1]
        tiles = len(dealt.boneyard) + sum(len(h) for h in dealt.hands)
        self.report(state, hand, sum(len(a.commitments) for a in hand.deals), tiles, draws)

    def report(self, state: GameState, hand: HandLog, commitments: int, tiles: int, draws: int,
               unchecked: tuple[str, ...] = (), reshufflers: int = 0) -> None:
        """The hand checked out: its line in the report."""
        self.reports.append(HandReport(hand.hand, len(hand.deals), commitments, tiles, draws,
                                       tuple(state.scores), hand.refused, tuple(self.host_signed),
                                       hand.migrated, unchecked,
                                       shufflers=len(hand.deals[-1].commitments),
                                       reshufflers=reshufflers))

    def check_log_signature(self, hand: HandLog) -> None:
        """The host's signature over the hand's log (its sets, secrets, moves, points and scores):
        once it holds, each of those is the host's signed word, judged in the checks after it."""
        statement = hand_log_statement(self.t, hand)
        if not self.signed(hand.log_host, hand.log_signature, statement):
            raise self.fail("log", EDITED, "the host's signature over the hand's log does not "
                            "verify: the file was changed after it was signed")

    def check_commitments(self, state: GameState, hand: HandLog, attempt: DealAttempt,
                          opened: bool = True) -> tuple[bytes, list[tuple[int, bytes]]]:
        """A deal attempt's round among the seats in play that answered every earlier attempt
        (``fair/check_round.py``); returns its set's digest and, when ``opened``, the secrets."""
        ctx = DealContext(self.t.table, hand.hand, attempt.attempt)
        excluded = hand.excluded_before(attempt.attempt)  # seats that let a deadline pass
        active = [s for s in range(state.players) if state.active[s] and s not in excluded]
        domain = deal_domain(self.t.header_digest, ctx, hand.host, self.signed)
        expected = check_round(self, domain, active, attempt.commitments, hand.host,
                               attempt.set_signature, attempt.echoes,
                               attempt.secrets if opened else None, self.host(hand),
                               f"deal {attempt.attempt}", "are in play")
        if not opened:
            return expected, []
        return expected, [(c.seat, s) for c, s in zip(attempt.commitments, attempt.secrets,
                                                      strict=True)]

    def check_stated_deal(self, hand: HandLog, derived: DerivedDeal) -> None:
        """The deal and boneyard a hand may state (nobody signs them: a wrong one was changed in
        the file or written wrongly; the deal that counts is the committed shuffle's)."""
        if hand.stated_deal is None or hand.stated_boneyard is None:
            return
        unsigned = "the deal written in the file (signed by nobody)"
        if len(hand.stated_deal) != len(derived.hands):
            raise self.fail("deal", EDITED, f"{unsigned} has {len(hand.stated_deal)} hands")
        for seat, (stated, dealt) in enumerate(zip(hand.stated_deal, derived.hands, strict=True)):
            for i in range(max(len(stated), len(dealt))):
                got = stated[i] if i < len(stated) else None
                want = dealt[i] if i < len(dealt) else None
                if got != want:
                    gives = f"the committed shuffle gives that seat {want or 'nothing'}"
                    raise self.fail("deal", EDITED, f"{unsigned} gives {got or 'nothing'} "
                                    f"to {_seat_name(seat)}, but {gives}")
        for i in range(max(len(hand.stated_boneyard), len(derived.boneyard))):
            got = hand.stated_boneyard[i] if i < len(hand.stated_boneyard) else None
            want = derived.boneyard[i] if i < len(derived.boneyard) else None
            if got != want:
                raise self.fail("deal", EDITED,
                                f"{unsigned} has {got or 'nothing'} at boneyard position {i + 1}, "
                                f"but the committed shuffle puts {want or 'nothing'} there")

    def check_move_signatures(self, hand: HandLog) -> None:
        check_move_signatures(self, hand)  # (fair/check_moves.py)

    @property
    def clock(self) -> str:
        return clock_words(self.t)

    def replay(self, state: GameState, hand: HandLog, start: int = 0) -> int:
        draws = 0
        for index, move in enumerate(hand.moves[start:], start=start + 1):
            action = move.action
            # The host let each move into its signed log: a move the committed deal refutes is
            # the host's (it dealt or let draw other tiles, or took a move it must refuse).
            if (isinstance(action, Play) and state.phase is Phase.PLAY
                    and not state.hands[move.seat] >> action.tile.index & 1):
                who = _seat_name(move.seat)
                where = _where_is(state, action.tile, self.deals[-1][-1])
                raise self.fail("ownership", self.logger(hand),
                                f"move {index}: the host's log has {who} play {action.tile}, "
                                f"which the committed deal does not give {who}: {where}")
            try:
                apply(state, move.seat, action)
            except IllegalActionError as exc:
                raise self.fail("legality", self.logger(hand),
                                f"move {index}: the host's log has a move the rules refuse on "
                                f"the committed deal: {exc}") from None
            draws += isinstance(action, Draw)
        if state.phase is Phase.PLAY:
            raise self.fail("unfinished", self.logger(hand),
                            "the moves stop before the hand is over")
        return draws

    def check_scores(self, state: GameState, hand: HandLog) -> None:
        ended = next((e for e in reversed(state.history) if isinstance(e, HandEnded)), None)
        assert ended is not None
        self.compare(state, hand, "points", hand.points, ended.points)
        self.compare(state, hand, "match score", hand.scores, tuple(state.scores))

    def compare(self, state: GameState, hand: HandLog, what: str, stated: Sequence[int],
                actual: Sequence[int]) -> None:
        if tuple(stated) == tuple(actual):
            return
        if len(stated) != len(actual):
            raise self.fail("score", self.logger(hand), f"the host's log lists {len(stated)} "
                            f"sides, not {len(actual)}, in the {what}")
        side = next(i for i, (a, b) in enumerate(zip(stated, actual, strict=True)) if a != b)
        name = _side_name(side, state.rules.partnership)
        said = (f"{name} scored {stated[side]} points this hand" if what == "points"
                else f"{name}'s match score is {stated[side]}")
        raise self.fail("score", self.logger(hand),
                        f"the host's log says {said}, but the rules give {actual[side]}")


def hand_log_statement(t: Transcript, hand: HandLog) -> dict[str, Any]:
    """The statement the host signs over ``hand``'s log, as the transcript states it."""
    digests = [set_digest(set_statement(t.header_digest, DealContext(t.table, hand.hand, a.attempt),
                                        hand.host, [(c.seat, c.commitment) for c in a.commitments]))
               for a in hand.deals]
    secrets = [[] if hand.reshuffled is not None  # (a re-shuffled hand's went with its host)
               else list(zip([c.seat for c in a.commitments], a.secrets, strict=True))
               for a in hand.deals]
    return log_statement(
        t.header_digest, hand.hand, hand.log_host, digests, secrets,
        [m.raw for m in hand.moves], hand.points, hand.scores,
        None if hand.migrated is None else hand.migrated.to_json(),
        None if hand.reshuffled is None else hand.reshuffled.raw,
        abandoned=[a.to_json() for a in hand.abandoned], away=sorted(hand.away),
        adopted=None if hand.adopted is None else hand.adopted.to_json(),
        refused=[r.to_json() for r in hand.refused])


def _where_is(state: GameState, tile: Tile, deal: DerivedDeal) -> str:
    for seat in range(state.players):
        if state.hands[seat] >> tile.index & 1:
            how = "dealt it to" if tile in deal.hands[seat] else "let it be drawn by"
            return f"{_seat_name(seat)} holds it (the committed shuffle {how} {_seat_name(seat)})"
    if tile in deal.boneyard and deal.boneyard.index(tile) >= state.drawn:
        return f"it is still in the boneyard (position {deal.boneyard.index(tile) + 1})"
    return "it is already on the line"
