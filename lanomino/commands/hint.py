"""``lanomino hint FILE``: what Expert would play, a learning aid.

Replays a game record (lanomino.record/1, or a signed transcript, verified and turned into one as
``replay`` does) up to a position, takes the observation of the seat to move there (its own tiles
and what the table has shown, never another hand) and runs Expert's search on it. Prints the move
Expert would play and, for its top moves, the estimated chance of winning the match after each and
how many simulations tried it. ``--json`` prints one object. Seats are counted from 1 in the words
and in ``--seat``; the JSON's ``seat`` counts from 0, as the record's moves do.

The position is the end of the record unless ``--hand H`` / ``--move M`` pick one: the moment
just before move M of hand H (numbered from 1 as in ``lanomino replay``'s messages); M may be one
past the hand's last move when the hand is unfinished. In a finished hand nobody is to move at its
end, so the default there is its last position where somebody (``--seat``: that seat) was to move:
on a finished match, what Expert would have played instead of its last move. The words are
wrapped to the terminal, each line's continuation indented under it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
from typing import TYPE_CHECKING, Any

from lanomino.cli.errors import CliError

if TYPE_CHECKING:
    from lanomino.engine import Action, GameState, Observation
    from lanomino.record import Record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="a game record (lanomino.record/1) or a signed transcript "
                             "(lanomino.transcript/1)")
    parser.add_argument("--hand", type=int, metavar="H",
                        help="hand number, from 1 (default: the last hand)")
    parser.add_argument("--move", type=int, metavar="M",
                        help="the position just before move M of the hand, from 1 "
                             "(default: after the hand's last move; in a finished hand, the "
                             "last position where somebody, or --seat, was to move)")
    parser.add_argument("--seat", metavar="SEAT",
                        help="the seat asking, by number (from 1, as the table shows seats) "
                             "or player name; it must be the seat to move")
    parser.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                        help="Expert's thinking time (default: Expert's own, 0.3 s)")
    parser.add_argument("--sims", type=int, default=None, metavar="N",
                        help="cap on Expert's simulations")
    parser.add_argument("--top", type=int, default=3, metavar="N",
                        help="how many moves to list (default 3)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed Expert's random source (reproducible with --sims)")
    parser.add_argument("--json", action="store_true", help="print the hint as one JSON object")


@dataclasses.dataclass(frozen=True, slots=True)
class Position:
    hand: int  # from 1
    move: int  # the next move's number in the hand, from 1
    observation: Observation
    first: bool  # the next play opens the hand
    recorded: Action | None  # what the record says was played here, if anything


def run(args: argparse.Namespace) -> int:
    from lanomino.bots.expert import DEFAULT_BUDGET_S, DEFAULT_MAX_SIMS, analyse
    from lanomino.client.replay import load_record, read_document

    budget = DEFAULT_BUDGET_S if args.budget is None else args.budget
    sims = DEFAULT_MAX_SIMS if args.sims is None else args.sims
    if not 0 < budget <= 60:
        raise CliError("--budget must be more than 0 and at most 60 seconds")
    if sims < 1:
        raise CliError("--sims must be at least 1")
    if args.top < 1:
        raise CliError("--top must be at least 1")
    try:
        record = load_record(read_document(args.file))  # (a transcript is verified first)
    except ValueError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    seat = None if args.seat is None else seat_of(args.seat, record.players)
    pos = find_position(record, args.hand, args.move, args.file, seat)
    obs = pos.observation
    if seat is not None and seat != obs.seat:
        mover = record.players[obs.seat]
        raise CliError(f"at hand {pos.hand}, move {pos.move} it is {mover}'s turn "
                       f"(seat {obs.seat + 1}), not {args.seat}'s")
    rng = random.Random(args.seed)
    results = analyse(obs, rng, budget_s=budget, max_sims=sims)
    ranked = sorted(results, key=lambda r: (-r[2], -r[1]))
    out = hint_json(record, pos, ranked[: args.top], sum(r[1] for r in results))
    if args.json:
        print(json.dumps(out))
    else:
        print(fill_lines(describe(out)))
    return 0


def fill_lines(text: str) -> str:
    """Each line of ``text`` wrapped to the terminal, its continuation indented under it."""
    from lanomino.cli.output import fill_terminal

    out = []
    for line in text.splitlines():
        indent = line[: len(line) - len(line.lstrip())]
        out.append(fill_terminal(line.lstrip(), indent, indent + "  "))
    return "\n".join(out)


def seat_of(text: str, players: tuple[str, ...]) -> int:
    if text.isdigit() and 1 <= int(text) <= len(players):
        return int(text) - 1
    for seat, name in enumerate(players):
        if name.casefold() == text.casefold():
            return seat
    raise CliError(f"no seat {text!r}: seats are 1-{len(players)} ({', '.join(players)})")


def find_position(record: Record, hand: int | None, move: int | None, name: str,
                  seat: int | None = None) -> Position:
    """Replay ``record`` up to the position just before move ``move`` of hand ``hand`` and give
    the mover's observation. ``move`` None: after the hand's last move, or in a finished hand
    its last position where somebody (``seat``, when given) was to move. CliError when there is
    no such position or nobody is to move."""
    from lanomino.engine import Play, observe
    from lanomino.engine.state import Phase
    from lanomino.record import IllegalMoveError, replay
    from lanomino.record.format import as_action

    if not record.hands:
        raise CliError(f"{name} holds no hands: nothing to play")
    h = len(record.hands) if hand is None else hand
    if not 1 <= h <= len(record.hands):
        raise CliError(f"--hand must be between 1 and {len(record.hands)}")
    moves = record.hands[h - 1].moves
    m = len(moves) + 1 if move is None else move
    if not 1 <= m <= len(moves) + 1:
        raise CliError(f"--move must be between 1 and {len(moves) + 1} for hand {h}")

    def state_before(m: int) -> GameState:
        cut = dataclasses.replace(record.hands[h - 1], moves=moves[: m - 1])
        try:
            return replay(dataclasses.replace(record, hands=(*record.hands[: h - 1], cut))).state
        except IllegalMoveError as exc:
            raise CliError(f"{name}: {exc}") from None

    state = state_before(m)
    finished = move is None and state.phase is not Phase.PLAY
    while finished and m > 1 and (state.phase is not Phase.PLAY
                                  or seat not in (None, state.turn)):
        m -= 1  # (back to the last position where the one asked about was to move)
        state = state_before(m)
    if state.phase is not Phase.PLAY:
        from lanomino.narrate import plural

        raise CliError(f"hand {h} is over after {plural(m - 1, 'move')}: nobody is to move there "
                       "(pick an earlier --move)")
    first = not any(isinstance(mv.action, Play) for mv in moves[: m - 1])
    recorded = as_action(moves[m - 1], first) if m <= len(moves) else None
    return Position(h, m, observe(state, state.turn), first, recorded)


def hint_json(record: Record, pos: Position, top: list[tuple[Action, int, float]],
              sims: int) -> dict[str, Any]:
    from lanomino.engine import Play
    from lanomino.record import action_to_json

    obs = pos.observation

    def move_json(action: Action) -> dict[str, Any]:
        first = pos.first and isinstance(action, Play)
        out = action_to_json(obs.seat, action, first)
        del out["seat"]
        return out

    return {
        "hand": pos.hand,
        "move": pos.move,
        "seat": obs.seat,
        "player": record.players[obs.seat],
        "ends": sorted(set(obs.line.open_numbers())),
        "hand_tiles": [str(t) for t in obs.hand],
        "scores": list(obs.scores),
        "target": obs.rules.target,
        "best": move_json(top[0][0]),
        "moves": [{"move": move_json(a), "win_chance": round(v, 4), "simulations": n}
                  for a, n, v in top],
        "simulations": sims,
        "recorded": None if pos.recorded is None else move_json(pos.recorded),
    }


def _words(move: dict[str, Any]) -> str:
    if "play" in move:
        return f"play {move['play']}" + (f" on the {move['end']}" if "end" in move else "")
    return "draw" if "draw" in move else "pass" if "pass" in move else "resign"


def describe(hint: dict[str, Any]) -> str:
    ends = " and ".join(str(n) for n in hint["ends"]) or "none (the hand is not opened)"
    lines = [
        f"Hand {hint['hand']}, move {hint['move']}: {hint['player']} "
        f"(seat {hint['seat'] + 1}) to move.",
        f"  Holding {' '.join(hint['hand_tiles'])}; ends showing: {ends}; "
        f"scores {', '.join(str(s) for s in hint['scores'])} (to {hint['target']}).",
        f"Expert would {_words(hint['best'])}.",
        f"  {'move':<22} {'win chance':>10} {'simulations':>11}",
    ]
    for row in hint["moves"]:
        words, chance, sims = _words(row["move"]), row["win_chance"], row["simulations"]
        lines.append(f"  {words:<22} {chance:>10.0%} {sims:>11}")
    lines.append(f"  (The chance of winning the match, from {hint['simulations']} simulations over "
                 f"hidden hands consistent with what {hint['player']} has seen.)")
    if hint["recorded"] is not None:
        lines.append(f"The record has {hint['player']} {_words(hint['recorded'])} here.")
    return "\n".join(lines)
