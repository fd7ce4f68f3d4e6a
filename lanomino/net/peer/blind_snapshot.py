"""A locked table's snapshot, at a seat or a watcher (issue 29): one part of ``PeerBlind``. Pure.

A holder's two seeds come from one secret it keeps (``own_secret``: with the fair deal's
secrets, on disk before its key goes out, ``runtime/secrets_file.py``), so a seat whose program
restarted still has its key. The host's snapshot (``net/host/blind_snapshot.py``) carries the
match's transcript/2 so far and the deal attempt in play as the host relayed it; ``rebuild``
checks the transcript (the whole verifier: the match state the hand starts from is the one it
leaves), then every statement of the attempt as it would have on arrival: its sender's signature
(``PeerBlind._arrived``), then its proof, fed in order with the hand's signed moves between them
(``blind/rebuild.py``). The seat ends with its own tiles opened from the public shares and its
key (a watcher: the public hand), shows them on its view, and plays on: its key if the deal
still waits for it, its answers to the opening, its share of a draw the host asks again, its
reveal at the hand's end.

A snapshot that does not hold (a statement without its signer's signature, a share whose proof
fails, a move its seat did not sign, a log that does not start the hand the host says) was sent
by the host, who signed the deal and passed every statement on: the host is caught
(``blind-snapshot``). A seat whose seeds no longer give the key it announced (its secrets were
lost with its program) cannot play the hand: it says so and leaves the table; its seat is then a
departure like any other (``net/host/blind_departure.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lanomino.blind import table_deal, table_leave
from lanomino.blind.deal_round import Step
from lanomino.blind.group import BlindError
from lanomino.blind.hashing import Context
from lanomino.blind.rebuild import LostKey, Rebuild, seeds_from
from lanomino.blind.rounds import BlindFault
from lanomino.blind.table_hand import TableHand
from lanomino.engine import (
    End,
    GameState,
    IllegalActionError,
    Play,
    Resign,
    TileDrawn,
    new_game,
    parse_tile,
)
from lanomino.fair.statements import move_statement
from lanomino.fair.transcript2 import parse_transcript2
from lanomino.fair.transcript_model import TranscriptError
from lanomino.fair.verify2 import verify_transcript2
from lanomino.net.blind_transcript import LockedTranscript
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.peer.blind_close import settle
from lanomino.net.session_base import (
    MatchOver,
    ObservationChanged,
    ProtocolProblem,
    SecretMade,
    TranscriptUpdated,
)
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import check_fields
from lanomino.net.wire.schemas import SCHEMAS, from_fields
from lanomino.net.wire.values import parse_move, signed_away

if TYPE_CHECKING:
    from lanomino.net.peer.blind import PeerBlind
    from lanomino.net.peer.deal import PeerDealing
    from lanomino.net.peer.state import PeerState

# what a snapshot's attempt may hold: the host's deal, then what the holders said
SAID = frozenset({"blind_deal", "blind_key", "blind_escrow", "blind_shuffle", "blind_shares",
                  "blind_not_me", "blind_play", "blind_draw", "blind_resign", "blind_reveal"})
NO_SIGNATURE = bytes(64)


class Refuted(Exception):
    """The snapshot does not hold (the host was caught already, or is by the caller)."""


def own_secret(p: PeerState, hand: int, attempt: int) -> bytes:
    """This seat's secret for a locked deal attempt, made once and kept with its fair deal
    secrets (``SecretMade``: on disk before its key goes out); its seeds come from it."""
    key = (f"{p.table.hex()}/locked", hand, attempt)
    if key not in p.secrets:
        p.secrets[key] = p.secret_source() + p.secret_source()  # (its two seeds: rebuild.py)
        p._events.append(SecretMade(key[0], hand, attempt, p.secrets[key]))
    return p.secrets[key]


def match_so_far(blind: PeerBlind, part: m.LockedPlay) -> GameState | None:
    """A locked table's snapshot (its header taken): the match state the transcript/2 so far
    leaves, checked whole (None: it does not hold, and the host is caught)."""
    p = blind.p
    assert p.rules is not None
    blind.hand, blind.settled, blind.next_deal, blind.last = None, None, False, p.now
    try:
        _match_so_far(blind, part.transcript)
    except (TranscriptError, ValueError) as exc:
        blind._caught("blind-snapshot", f"the host's snapshot does not hold: {exc}")
        return None
    return blind.match or new_game(p.rules, p.players)


def unbuilt(blind: PeerBlind, why: str) -> None:
    """The host sends no snapshot of the locked hand in play (``why``: it took the table over in
    that hand, the hand was re-shuffled blind or dealt again: net/host/blind_snapshot.py). A
    seat that came back cannot rebuild its tiles then, and without them it cannot play the hand
    (nobody would ever move for it): it says so and leaves the match, and the others go on as
    for any holder who leaves (``blind/leave_rule.py``). A watcher follows from the next hand."""
    if not blind.p.watch:
        _leaves(blind, "blind_not_rebuilt", f"The host cannot give this seat back the hand in "
                f"play ({why})", "the hand in play could not be rebuilt here")


def _leaves(blind: PeerBlind, code: str, why: str, bye: str) -> None:
    """This seat cannot play the hand in play on (``why``): it says so and leaves the match."""
    p = blind.p
    blind.hand = None
    p._events.append(ProtocolProblem(code, f"{why}, so it cannot play on: it leaves the match, "
                                     "and the others go on without it", p.seat))
    p._send(m.Bye(bye))  # (as PeerSession.quit)
    from lanomino.net.peer.state import Phase  # (the state holds this part)
    p.go(Phase.CLOSED)


def hand_in_play(deal: PeerDealing, body: m.Snapshot) -> None:
    """The snapshot's hand in play (on this seat's view already, with no tiles) rebuilt with
    this seat's key, then this seat's part in it (module docstring)."""
    p, blind, part = deal.p, deal.p.blind, body.locked
    assert part is not None and p.view is not None
    try:
        rebuilt = _hand(blind, part, body.play)
    except LostKey as lost:
        _leaves(blind, "blind_key_lost", f"{lost}. This program no longer has the key it locked "
                "this hand's tiles with (its data directory was not kept)",
                "its key for the hand in play was lost")
        return
    except Refuted:
        blind.hand = None
        return
    except (BlindFault, BlindError, IllegalActionError, RemoteProtocolError, TranscriptError,
            ValueError, KeyError, IndexError) as exc:
        blind.hand = None
        blind._caught("blind-snapshot", f"the host's snapshot does not hold: {exc}")
        return
    if rebuilt is not None:
        _resume(blind, rebuilt)
    if body.play is not None:
        deal.changed()
    else:
        p._events.append(ObservationChanged(p.view.observation()))


def _match_so_far(blind: PeerBlind, doc: dict[str, Any] | None) -> None:
    """The transcript/2 so far, checked whole: this seat's copy of it, and the match state."""
    p = blind.p
    assert p.header is not None and p.doc is not None
    if doc is None:
        blind.book = None
        blind.match, blind.number, blind.attempt = None, 0, 0
        return
    report = verify_transcript2(doc)
    if not report.ok or report.state is None:
        raise ValueError(f"its transcript/2 does not verify: {report.failure}")
    head, hands = parse_transcript2(doc)
    if head.header_digest != p.digest:
        raise ValueError("its transcript/2 is of another match")
    blind.book = LockedTranscript(p.header, tuple(
        bytes.fromhex(s) for s in p.doc["header_signatures"]), list(hands), last=doc)
    blind.match, blind.number, blind.attempt = report.state.copy(), len(hands), 0
    for hand in hands:  # (checked just now, as this seat checks each hand it plays)
        p.verified.setdefault(hand.record.hand, True)
    over = report.state.outcome is not None
    p._events.append(TranscriptUpdated(p.table.hex(), doc, over))
    if over:
        from lanomino.net.peer.state import Phase  # (the state holds this part)
        p.go(Phase.OVER)
        p._events.append(MatchOver(report.state.outcome.winner if report.state.outcome else None,
                                   tuple(report.state.scores), len(hands), p.verified_all))
    else:
        blind.next_deal = True  # (until the next deal or the hand in play below)


def _statement(entry: dict[str, Any]) -> b.BlindBody:
    """One statement of the snapshot's attempt, checked field by field as on arrival."""
    kind, body = entry.get("type"), entry.get("body")
    if entry.keys() != {"type", "body"} or kind not in SAID or not isinstance(body, dict):
        raise RemoteProtocolError(f"a snapshot's statement of type {kind!r}")
    value = from_fields(str(kind), check_fields(body, SCHEMAS[str(kind)], f"snapshot.{kind}"))
    assert isinstance(value, b.BLIND_MESSAGES)
    return value


def _hand(blind: PeerBlind, part: m.LockedPlay, play: m.SnapshotPlay | None) -> Rebuild | None:
    """The hand in play rebuilt (None: between hands)."""
    p = blind.p
    said = [_statement(e) for e in part.said]
    if len(said) != len(part.at):
        raise ValueError("its statements and their places differ in number")
    if not said:
        return None
    deal = said[0]
    if not isinstance(deal, b.BlindDeal) or deal.seat != p.host_seat or \
            not p.ring.verify_statement(p.keys[p.host_seat], deal.signature,
                                        b.blind_statement(p.digest, deal)):
        raise ValueError("its attempt does not start with a deal the host signed")
    assert p.rules is not None
    match = blind.match or new_game(p.rules, p.players)
    if deal.hand != blind.number + 1 or len(deal.openers) != p.players:
        raise ValueError(f"it deals hand {deal.hand} after {blind.number} hands")
    blind.match, blind.number, blind.attempt = match, deal.hand, deal.attempt
    blind.next_deal = False
    ctx = Context(p.table, deal.hand, deal.attempt, deal.tiles, deal.holders)
    me = None if p.watch or p.seat not in deal.holders or _left(p) else p.seat
    seeds = None if me is None else seeds_from(own_secret(p, deal.hand, deal.attempt))
    blind.hand = hand = TableHand.start(match, ctx, deal.openers, p.host_seat, me, seeds, p.now,
                                        None, deal.escrow)
    r = Rebuild(hand, p.now)
    moves = _moves(blind, play, deal.hand)
    for at, body in zip(part.at[1:], said[1:], strict=True):
        _moves_until(r, moves, at)
        if blind._arrived(body) is None:  # (its sender's signature: caught there)
            raise Refuted
        _feed(blind, r, body)
        r.begin()
    _moves_until(r, moves, len(moves))
    r.begin()
    if play is not None:
        first = play.events[0] if play.events else {}
        if r.started is None or play.hand != deal.hand or \
                (first.get("opener"), first.get("sizes"), first.get("boneyard")) != \
                (r.started.opener, list(r.started.hand_sizes), r.started.boneyard):
            raise ValueError("the hand's public start is not the one its deal and opening give")
    return r


def _left(p: PeerState) -> bool:
    return any(e.seat == p.seat and e.left for e in p.roster)


def _moves(blind: PeerBlind, play: m.SnapshotPlay | None, number: int
           ) -> list[tuple[int, Any, bool, bytes]]:
    """The hand's signed moves, each signature checked (its seat's, or the host's)."""
    p = blind.p
    if play is None:
        return []
    out = []
    for index, (move, signature) in enumerate(zip(play.moves, play.signatures, strict=True)):
        seat = move.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < len(p.keys):
            raise ValueError(f"move {index + 1} names no seat")
        statement = move_statement(p.digest, number, index, move)
        if not any(p.ring.verify_statement(k, signature, statement)
                   for k in (p.keys[seat], p.keys[p.host_seat])):
            raise ValueError(f"move {index + 1} is signed by neither its seat nor the host")
        out.append((seat, parse_move(move, seat, away=True), signed_away(move), signature))
    return out


def _moves_until(r: Rebuild, moves: list[tuple[int, Any, bool, bytes]], at: int) -> None:
    """The log's moves up to ``at`` moves logged (resignations counted)."""
    hand = r.hand
    if at > len(moves):
        raise ValueError(f"a statement after move {at}, of {len(moves)}")
    while hand.logged < at:
        seat, action, away, signature = moves[hand.logged]
        r.move(seat, action, away)
        if not isinstance(action, Play | Resign):
            hand.signatures[("move", hand.logged - 1)] = signature  # (the record's move)


def _feed(blind: PeerBlind, r: Rebuild, body: b.BlindBody) -> None:
    """One statement into the hand, through the checks it met on arrival."""
    host = blind.p.host_seat
    if isinstance(body, b.BlindKey):
        r.key(body.key)
    elif isinstance(body, b.BlindEscrow):
        r.escrow(body.seat, body.points(), body.blobs())
    elif isinstance(body, b.BlindShuffle):
        r.shuffle(body.turn)
    elif isinstance(body, b.BlindShares):
        r.shares(body.seat, body.shares)
    elif isinstance(body, b.BlindNotMe):
        r.not_me(body.seat, parse_tile(body.tile))
    elif isinstance(body, b.BlindPlay):
        r.play(body.seat, body.index, body.share,
               Play(parse_tile(body.tile), End[body.end.upper()]), body.away)
    elif isinstance(body, b.BlindDraw):
        r.draw_share(body.index, body.share)
    elif isinstance(body, b.BlindResign) and (body.by == "seat" or body.seat == host):
        r.resign(body.resigned, body.at, body.by)
    elif isinstance(body, b.BlindReveal) and (body.reveal.seat == body.seat or body.seat == host):
        r.reveal(body.reveal)
    else:
        raise ValueError(f"a {body.TYPE} of seat {body.seat + 1} has no place there")


def _resume(blind: PeerBlind, r: Rebuild) -> None:
    """The rebuilt hand on this seat's view (its tiles, its draws' events showing the tiles
    they opened, as at any table); then its own part, as it comes due."""
    p, hand = blind.p, r.hand
    if p.view is not None and hand.view is not None:
        p.view.hand = set(r.own_tiles())
        drawn = iter(r.drawn)
        for i, event in enumerate(p.view.history):
            if type(event) is TileDrawn and event.seat == p.seat and event.tile is None:
                p.view.history[i] = event._replace(tile=next(drawn, None))
        p.view.changed()
        drawing = hand.draw is not None and hand.draw.drawer == p.seat
        p.holding = drawing or hand.view.outcome is not None
        if hand.view.outcome is not None:
            p.view.phase = "deal"  # (its screen says so: no "your turn" with no tiles)
        p._events.append(ObservationChanged(make=p.view.observation))
        p.prompt_turn()
    h = hand.holder
    if h is None:
        return
    if h.seat not in hand.deal.keys and hand.deal.step is Step.KEYS:
        blind._send(b.BlindKey(blind.number, blind.attempt, h.seat, h.announce(), NO_SIGNATURE))
        table_deal.on_key(hand, h.announce(), p.now)
    if hand.view is None:
        blind._act()  # (its escrow, shuffle, deal shares, answers to the opening)
    elif hand.view.outcome is not None:
        blind._reveal()
        if blind.hand is hand and h.seat in hand.reveals and \
                all(s in hand.reveals for s in table_leave.revealing(hand)):
            settle(blind)  # (every key came before this seat's rebuild)
