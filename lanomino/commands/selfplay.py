"""``lanomino selfplay``: matches between engine bots, with a summary."""

from __future__ import annotations

import argparse
import random
import time
from typing import TYPE_CHECKING, Any

from lanomino.cli.errors import CliError
from lanomino.cli.options import add_rules_arguments, rules_from_args

if TYPE_CHECKING:
    from pathlib import Path

    from lanomino.botmatch import MatchResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_arguments(parser)
    parser.add_argument("--players", type=int, default=2, metavar="N",
                        help="seats at the table, 2-4")
    parser.add_argument("--games", type=int, default=1, metavar="G", help="matches to play")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="same seed, same games")
    parser.add_argument("--bots", default="random", metavar="A,B,...",
                        help="a bot per seat, or one for every seat (default random)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument("--records", metavar="DIR", help="save every match as a game record here")
    parser.add_argument("--transcripts", metavar="DIR",
                        help="deal with the fair-deal protocol (every seat its own key and "
                             "secrets) and save each match's signed transcript here, for "
                             "`lanomino verify`")


def run(args: argparse.Namespace) -> int:
    # Imported here, and json, pathlib and secrets only when used: a short run is mostly
    # start-up.
    import gc

    from lanomino.botmatch import Tally, play_matches
    from lanomino.bots import get_bot

    rules = rules_from_args(args)
    try:
        rules.check_players(args.players)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.games < 1:
        raise CliError("--games must be at least 1")
    names = [n.strip() for n in args.bots.split(",")]
    if len(names) == 1:
        names *= args.players
    if len(names) != args.players:
        raise CliError(f"--bots names {len(names)} bots for {args.players} seats")
    try:
        bots = [get_bot(n) for n in names]
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.records and args.transcripts:
        raise CliError("--records and --transcripts do not go together: a match is saved as one "
                       "or the other (replay and hint read a transcript as they read a record)")
    records = None
    if args.records or args.transcripts or args.json:
        import json
    if args.records or args.transcripts:
        from pathlib import Path

        records = Path(args.records) if args.records else None
    if records:
        records.mkdir(parents=True, exist_ok=True)
    if args.seed is None:
        import secrets

        seed = secrets.randbelow(2**32)
    else:
        seed = args.seed
    rng = random.Random(seed)
    sides = 2 if rules.partnership else args.players
    tally = Tally(sides)
    players = [f"{n} {s}" for s, n in enumerate(names)]

    def save(game: int, result: MatchResult) -> None:
        if records and result.record is not None:
            record = json.dumps(result.record, indent=1)
            (records / f"match-{seed}-{game:04d}.json").write_text(record)

    # What start-up made (module tables, mostly) lives to the end: frozen, the collector does not
    # walk it again at each full collection, nor at exit (about a tenth of a short run's start-up).
    gc.freeze()
    started = time.perf_counter()
    if args.transcripts:
        for game in range(1, args.games + 1):
            path = Path(args.transcripts) / f"match-{seed}-{game:04d}.json"
            tally.add(_play_fair(rules, bots, rng, players, path, args.rules))
    else:
        play_matches(tally, rules, bots, rng, args.games, players, records is not None,
                     save if records else None)
    elapsed = time.perf_counter() - started
    hands = tally.hands
    summary = {
        "seed": seed, "games": args.games, "hands": hands, "wins": tally.wins,
        "no_winner": tally.no_winner,
        "avg_points_per_hand": [round(p / max(hands, 1), 2) for p in tally.points],
        "hands_per_second": round(hands / elapsed, 1) if elapsed > 0 else None,
        "bots": names, "rules": rules.to_spec(args.rules),
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    label = "team" if rules.partnership else "seat"
    print(f"{args.games} matches, {hands} hands, seed {seed} "
          f"({args.rules}, {args.players} players)")
    for side in range(sides):
        who = f"{label} {side}" + ("" if rules.partnership else f" ({names[side]})")
        print(f"  {who}: won {tally.wins[side]}, {summary['avg_points_per_hand'][side]} points "
              "per hand")
    if tally.no_winner:
        print(f"  no winner: {tally.no_winner}")
    print(f"  {summary['hands_per_second']} hands per second")
    return 0


def _play_fair(rules: Any, bots: Any, rng: random.Random, names: list[str], path: Path,
               preset: str) -> Any:
    """One match through ``lanomino.fair`` (every seat runs its side of the protocol); writes
    the transcript to ``path`` and returns a MatchResult for the summary."""
    import json

    from lanomino.botmatch import MatchResult
    from lanomino.fair.fair_match import play_fair_match

    seat_rngs = [random.Random(rng.getrandbits(64)) for _ in bots]
    fair = play_fair_match(rules, names, bots, seat_rngs, rules_spec=rules.to_spec(preset))
    if fair.outcome is None:
        raise RuntimeError("the match did not end")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(fair.transcript, indent=1))
    return MatchResult(fair.outcome, fair.hands, fair.hand_points, None)
