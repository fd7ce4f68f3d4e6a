"""Departures between the deal attempts of a locked hand (``lanomino.transcript/2``, issue 29).
Pure.

A person who leaves a locked hand before any tile of it can be scored (while the deal round or
the opening's rounds are under way, or at the hand's end before its key is revealed, at a table
without escrow) takes its key with it: the attempt is abandoned and the hand is dealt again
among the people left, with fresh keys and seeds. The leaver is resigned as any seat that left
(``lanomino.resign/1``, ``by`` ``left``, signed by the host); a seat that resigned itself in the
attempt given up keeps its own signed resignation. Each such resignation is a **departure**,
kept in the entry of the hand dealt again:

    "departures": [{"attempt": 2, "seat": 1, "at": 0, "by": "left", "signature": "…"}]

``attempt`` is the deal attempt it came before (the attempt before it, if any, was abandoned; 1:
the seat left between hands, after the last hand's moves, so the hand starts without it), ``at``
and ``by`` are the resignation as signed (``at``: the moves of the abandoned attempt before it);
``host``, only when it is not the hand's (or the closing's) host, is the seat of the host that
signed it, one lost after it (as a record's resignation names it: ``blind/hand_record.py``).
The host's points statement names them (``statement_json``), so none can be dropped from the
file without breaking its signature.

``check_attempts`` is the verifier's part (``fair/verify2.py``): the attempts before the one
played are each a void deal the hand keeps or one abandoned for a departure, in order, and every
departure is signed by its signer and is a resignation the engine allows then (else the host,
which signed the record); the match state the hand is dealt from has the departures applied.
That the seat had really left, the file cannot show: it is listed as not checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lanomino.blind.group import BlindError
from lanomino.blind.hand_record import Resignation
from lanomino.engine import RESIGN, EngineError, GameState, apply
from lanomino.engine.errors import seat_name
from lanomino.engine.state import Phase
from lanomino.fair.transcript import TranscriptError, _hex, _int, _list, _obj, _seat


@dataclass(frozen=True, slots=True)
class Departure:
    """A resignation between two deal attempts of a hand: before deal ``attempt``."""

    attempt: int
    resignation: Resignation
    signature: bytes

    def statement_json(self) -> dict[str, Any]:
        r = self.resignation
        return {"attempt": self.attempt, "seat": r.seat, "at": r.at, "by": r.by,
                **({} if r.host is None else {"host": r.host})}

    def under(self, host: int) -> Departure:
        """As an entry whose host is ``host`` writes it (``Resignation.under``)."""
        return Departure(self.attempt, self.resignation.under(host), self.signature)

    def to_json(self) -> dict[str, Any]:
        return {**self.statement_json(), "signature": self.signature.hex()}


def parse_departures(value: Any, where: str, players: int) -> tuple[Departure, ...]:
    """A hand's ``departures``, in order of attempt. Raises: TranscriptError."""
    out: list[Departure] = []
    for i, d in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        d = _obj(d, at, {"attempt", "seat", "at", "by", "signature"}, {"host"})
        attempt = _int(d["attempt"], f"{at}.attempt")
        if attempt < 1 or (out and attempt < out[-1].attempt):
            raise TranscriptError(f"{at}.attempt: deal attempts from 1, in order")
        try:
            resignation = Resignation(_seat(d["seat"], f"{at}.seat", players),
                                      _int(d["at"], f"{at}.at"), d["by"],
                                      None if "host" not in d
                                      else _seat(d["host"], f"{at}.host", players))
        except BlindError as exc:
            raise TranscriptError(f"{at}.by: {exc}") from None
        if resignation.at < 0 or resignation.by == "away":
            raise TranscriptError(f"{at}: a seat that left, or resigned itself, after some "
                                  "moves")
        out.append(Departure(attempt, resignation, _hex(d["signature"], f"{at}.signature", 64)))
    return tuple(out)


# (the verifier's: a failure is raised by ``fail(check, blame the host?, why)``)
Fail = Callable[[str, bool, str], Exception]
Signed = Callable[[int, bytes, Resignation], bool]


def check_attempts(state: GameState, host: int, played: int, voided: Sequence[int],
                   departures: Sequence[Departure], signed: Signed, fail: Fail,
                   void: Callable[[GameState, int], None]) -> tuple[GameState, tuple[str, ...]]:
    """The deal attempts before ``played`` in order: each is void (its number in ``voided``,
    checked by ``void`` on the match state then) or abandoned for the departures that follow
    it; each departure signed (``signed``) and allowed by the engine. The match state the played
    deal starts from, and what could not be checked, in words."""
    state = state.copy()
    unchecked: list[str] = []
    by_attempt = {d.attempt for d in departures}
    for attempt in range(1, played + 1):
        if attempt > 1 and attempt - 1 not in voided and attempt not in by_attempt:
            raise fail("record", True, f"deal attempt {attempt - 1} was dealt again, but the "
                       "record shows it neither void nor given up for a seat that left")
        for d in (d for d in departures if d.attempt == attempt):
            r = d.resignation
            _apply(state, host, d, f"before deal attempt {attempt}", "record", signed, fail)
            if state.phase is not Phase.DEAL:
                raise fail("record", True, f"the departure of {seat_name(r.seat)} ended the "
                           "match, yet the hand was dealt")
            if r.host_signed:
                given_up = (", before the hand was dealt" if attempt == 1 else
                            f", before deal attempt {attempt}" if attempt - 1 in voided else
                            f", deal attempt {attempt - 1} given up")
                unchecked.append(f"that {seat_name(r.seat)} had left (the host resigned it"
                                 f"{given_up})")
        if attempt < played and attempt in voided:
            void(state, attempt)
    extra = sorted(set(voided) - set(range(1, played)))
    if extra or any(d.attempt > played for d in departures):
        raise fail("record", True, f"the hand keeps deal attempts after the one played ({played})")
    return state, tuple(unchecked)


def _apply(state: GameState, host: int, d: Departure, when: str, check: str, signed: Signed,
           fail: Fail) -> None:
    """One departure, signed by its signer (the host for one it resigned, never its own seat),
    applied to ``state`` as the engine allows it. Raises ``fail``'s."""
    r = d.resignation
    if r.host == host:
        raise fail("record", True, f"the departure of {seat_name(r.seat)} {when} names the "
                   "host as its signer, which it does only for an earlier host")
    if not signed(r.signer(host), d.signature, r):
        who = (seat_name(r.seat) if not r.host_signed else "the host" if r.host is None
               else f"{seat_name(r.host)}, an earlier host")
        raise fail("signature", True, f"the departure of {seat_name(r.seat)} {when} is not "
                   f"signed by {who}")
    if r.host_signed and r.seat == host:
        raise fail("record", True, "the host resigned its own seat as gone")
    try:
        apply(state, r.seat, RESIGN)
    except EngineError as exc:
        raise fail(check, True, f"the departure of {seat_name(r.seat)} {when}: {exc}") from None


def check_closing(state: GameState, host: int, departures: Sequence[Departure],
                  signed: Signed, fail: Fail) -> tuple[GameState, tuple[str, ...]]:
    """The departures of the closing statement (after the last hand, of the hand that was never
    dealt: ``signed`` checks each against that hand's number): each signed and allowed by the
    engine, the last of them, and only it, ending the match. The match state after them, and
    what could not be checked, in words."""
    state = state.copy()
    unchecked: list[str] = []
    for i, d in enumerate(departures):
        r = d.resignation
        if r.at != 0 and d.attempt == 1:
            raise fail("record", True, f"the departure of {seat_name(r.seat)} before the hand "
                       f"was dealt counts {r.at} moves")
        _apply(state, host, d, "after the last hand", "end", signed, fail)
        if (state.phase is Phase.OVER) != (i == len(departures) - 1):
            raise fail("end", True, f"the closing statement keeps departures after the last "
                       f"hand, but the departure of {seat_name(r.seat)} "
                       f"{'ended' if state.phase is Phase.OVER else 'did not end'} the match")
        if r.host_signed:
            unchecked.append(f"that {seat_name(r.seat)} had left (the host resigned it before "
                             f"deal attempt {d.attempt} of the next hand, and the match ended)")
    return state, tuple(unchecked)
