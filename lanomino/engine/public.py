"""The public view of a hand: the rules run on what the whole table sees (issue 29). Pure.

With the locked deck (``lanomino/blind/``) nobody, the host included, holds the hands. The host
runs a ``PublicHand``: the line and its ends, each seat's tile count, the boneyard's count, whose
turn it is, and the public log. A play reveals its tile (that the tile is the seat's own is the
locked deck's proof, which the caller checks before ``apply``); a draw moves the counts while
the tile stays hidden; a pass moves the turn.

Theory of operation: underneath is the engine's own ``GameState`` (``core``), and the engine's
own functions keep its public fields: ``lay`` checks and lays a tile on the line, ``score_fives``
and ``reaches_target`` count All Fives, ``record_pass``, ``take_from_boneyard`` and ``leave``
move the turn, the boneyard and the seats, ``check_turn``, ``draw_refusal``, ``pass_refusal``
and ``check_resign`` give the public refusals in the engine's words. The core's hands are empty
and its boneyard is a stand-in of the right length (only its length counts): nothing the view
says depends on them. A seat asks ``legal_for`` with its own tiles: the engine's
``legal_actions`` on a copy that holds them (as ``net/view.py`` does for a peer).

What needs the hidden hands is decided differently, or later:

- "I cannot play" (a pass; a draw when the rules forbid drawing while a tile fits) is a
  ``Claim``: the seat's signed move, kept with its number, judged once the hands are revealed
  (``blind/settle.py``);
- a hand ends by domino when a seat's count reaches 0, and by the target in All Fives as the
  engine decides it; it is blocked when every seat still in the match has passed in turn (the
  engine, knowing every hand, ends it the moment nobody can move; a blind table learns it from
  the passes, and the verifier accepts those passes after the engine's end);
- the points: only after the reveal, when the full engine replays the log.

Moves are numbered in the order of the locked hand's record (``lanomino.blind-hand/1``): plays,
draws and passes, from 0. A resignation is in the log, not in that count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lanomino.engine.actions import Action, Draw, Pass, Play, Resign
from lanomino.engine.errors import IllegalActionError, seat_name
from lanomino.engine.events import Event, HandEnd, HandStarted, Passed, Resigned, TileDrawn
from lanomino.engine.legal import legal_actions
from lanomino.engine.line import Line
from lanomino.engine.moves import (
    check_resign,
    check_turn,
    draw_refusal,
    lay,
    leave,
    pass_refusal,
    reaches_target,
    record_pass,
    score_fives,
    take_from_boneyard,
)
from lanomino.engine.opening import choose_opener, opener_is_public
from lanomino.engine.state import GameState, Phase, clear_hand, open_hand
from lanomino.engine.tiles import TILES, Tile


@dataclass(frozen=True, slots=True)
class Claim:
    """A seat's word, signed with its move, that none of its tiles fits the numbers showing: a
    pass, or a draw where the rules forbid drawing with a tile that fits. Judged at the reveal."""

    seat: int
    move: int  # the move's number in the hand, from 0 (plays, draws and passes)
    action: Draw | Pass
    ends: tuple[int, ...]  # the numbers showing: the seat says it holds none of them

    def __str__(self) -> str:
        did = "passed" if isinstance(self.action, Pass) else "drew"
        numbers = " or ".join(str(n) for n in self.ends)
        return f"{seat_name(self.seat)} {did} at move {self.move + 1}: no tile with {numbers}"


@dataclass(frozen=True, slots=True)
class PublicEnd:
    """How the hand ended, as the table can tell: ``seat`` went out, reached the target or left
    last (None for a blocked hand); ``winner`` is the side a resignation left alone."""

    end: HandEnd
    seat: int | None = None
    winner: int | None = None


def public_opener(before: GameState) -> tuple[int, Tile | None]:
    """The next hand's opener and the tile it must lead, when public facts name them (the
    engine's ``choose_opener``). Raises IllegalActionError when only the hands can tell: the
    opening's public rounds ask then (``blind/lead_rounds.py``)."""
    if not opener_is_public(before):
        raise IllegalActionError("who opens this hand depends on the hands: ask the table")
    choice = choose_opener(before)
    assert choice is not None  # a void deal needs the hands, which opener_is_public excludes
    return choice


class PublicHand:
    """One hand as the table sees it. Start it from the match ``before`` the hand (between
    hands nothing is hidden) with its opener; then ``apply`` every move in order."""

    def __init__(self, before: GameState, opener: int, must_lead: Tile | None = None) -> None:
        """Raises IllegalActionError when the match is not waiting for a deal or the opener is
        not in it."""
        if before.phase is not Phase.DEAL:
            raise IllegalActionError("the match is not waiting for a deal")
        if not 0 <= opener < before.players or not before.active[opener]:
            raise IllegalActionError(f"{seat_name(opener)} is not in the match to open")
        core = before.copy()
        size = core.rules.hand_size_for(core.players)
        sizes = tuple(size if playing else 0 for playing in core.active)
        core.hands = [0] * core.players
        clear_hand(core, TILES[: len(TILES) - sum(sizes)])  # a stand-in: nobody reads it
        self.core = core
        self.started: HandStarted = open_hand(core, opener, must_lead, sizes)
        self.counts = list(sizes)
        self.claims: list[Claim] = []
        self.moves = 0
        self.outcome: PublicEnd | None = None
        self._on_line = 0  # the tiles played, as a mask
        self._passed: set[int] = set()  # seats that passed since the last play or draw

    # ----- what the table sees ------------------------------------------------------------

    @property
    def turn(self) -> int:
        return self.core.turn

    @property
    def line(self) -> Line:
        return self.core.line

    @property
    def log(self) -> list[Event]:
        """The hand's public events (a draw's tile is None)."""
        return self.core.history

    def boneyard_left(self) -> int:
        return self.core.boneyard_left()

    def legal_for(self, seat: int, hand: Sequence[Tile]) -> Sequence[Action]:
        """``seat``'s legal moves now, given its own tiles: the engine's ``legal_actions``."""
        if self.outcome is not None:
            return ()
        probe = self.core.copy()
        probe.hands = [0] * probe.players
        for tile in hand:
            probe.hands[seat] |= tile.bit
        return legal_actions(probe, seat)

    # ----- moves ---------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Carry out a move the table can see. Returns its public events (the hand's end is
        ``outcome``; its points come with the reveal). Raises IllegalActionError, unchanged."""
        if self.outcome is not None:
            raise IllegalActionError(f"{seat_name(seat)} may not {action}: the hand is over")
        if type(action) is Resign:
            return self._resign(seat)
        check_turn(self.core, seat, action)
        if isinstance(action, Play):
            return self._play(seat, action)
        if isinstance(action, Draw):
            return self._draw(seat, action)
        assert isinstance(action, Pass)
        return self._pass(seat, action)

    def _play(self, seat: int, action: Play) -> list[Event]:
        tile = action.tile
        if self._on_line & tile.bit:
            raise IllegalActionError(f"{seat_name(seat)} may not play {tile}: it is on the line")
        if not self.counts[seat]:
            raise IllegalActionError(f"{seat_name(seat)} may not play {tile}: it holds no tile")
        core = self.core
        played = lay(core, seat, action)
        core.history.append(played)
        self._on_line |= tile.bit
        self.counts[seat] -= 1
        self.moves += 1
        self._passed.clear()
        events: list[Event] = [played]
        if core.line.fives:
            scored = score_fives(core, seat)
            if scored is not None:
                events.append(scored)
                if reaches_target(core, scored.side):
                    return self._over(events, PublicEnd(HandEnd.TARGET, seat))
        if not self.counts[seat]:
            return self._over(events, PublicEnd(HandEnd.DOMINO, seat))
        core.turn = core.next_seat[seat]
        return events

    def _draw(self, seat: int, action: Draw) -> list[Event]:
        core = self.core
        why = draw_refusal(core, seat)
        if why:
            raise IllegalActionError(f"{seat_name(seat)} may not draw: {why}")
        ends = core.line.open_numbers()
        if not core.rules.draw_when_playable:
            self.claims.append(Claim(seat, self.moves, action, ends))
        take_from_boneyard(core)
        self.counts[seat] += 1
        drawn = TileDrawn(seat, None, ends, core.boneyard_left())
        core.history.append(drawn)
        self.moves += 1
        self._passed.clear()
        return [drawn]

    def _pass(self, seat: int, action: Pass) -> list[Event]:
        core = self.core
        why = pass_refusal(core)
        if why:
            raise IllegalActionError(f"{seat_name(seat)} may not pass: {why}")
        self.claims.append(Claim(seat, self.moves, action, core.line.open_numbers()))
        passed: Passed = record_pass(core, seat)
        self.moves += 1
        self._passed.add(seat)
        return self._blocked_yet([passed])

    def _resign(self, seat: int) -> list[Event]:
        core = self.core
        check_resign(core, seat)
        event: Resigned
        event, winner = leave(core, seat)
        self.counts[seat] = 0
        if winner is not None:
            return self._over([event], PublicEnd(HandEnd.RESIGNED, seat, winner))
        return self._blocked_yet([event])

    def blocked_without(self, seat: int) -> bool:
        """Whether ``seat`` resigning now would end the hand blocked: every other seat still in
        the match has passed since the last play or draw."""
        core = self.core
        return bool(core.line.tiles) and all(s in self._passed for s in range(core.players)
                                             if core.active[s] and s != seat)

    def _blocked_yet(self, events: list[Event]) -> list[Event]:
        """Blocked once every seat still in the match has passed since the last play or draw."""
        if self.blocked_without(-1):
            return self._over(events, PublicEnd(HandEnd.BLOCKED))
        return events

    def _over(self, events: list[Event], outcome: PublicEnd) -> list[Event]:
        self.outcome = outcome
        return events
