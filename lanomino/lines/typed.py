"""What the reader types: one line in, one ``Command`` out, or a ``CommandError`` saying why not.

Parsing knows only the words; whether a command makes sense now (your turn, a tile you hold, a
place it fits) is the front end's question, asked of the observation.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from lanomino.engine import End, Tile
from lanomino.narrate import NUMBER_WORDS

# verb -> (other spellings, what help says about it)
VERBS: dict[str, tuple[tuple[str, ...], str]] = {
    "hand": (("h", "tiles"), "your tiles, numbered, and what you can play"),
    "board": (("b", "line", "table"), "the line, the open ends, tiles in hand, the boneyard"),
    "scores": (("score", "s"), "the scores and the target"),
    "play": (("p",), "play a tile: play 5-3 right, play 2, or just 2"),
    "draw": (("d",), "draw from the boneyard"),
    "pass": ((), "pass, when nothing fits and nothing can be drawn"),
    "next": (("n",), "deal the next hand (or, in a replay, the next move)"),
    "hint": ((), "what the Expert computer player would play now (against the computer)"),
    "undo": ((), "take back your last move and the computer's answers (against the computer)"),
    "yes": (("y",), "yes to the question just asked (a new match over a saved one, a new host)"),
    "resign": ((), "leave the match; type it twice to be sure"),
    "finish": ((), "after resigning: let the others play the match out at once"),
    "new": (("start",), "a new match against the computer: new 3 allfives hard"),
    "continue": (("resume",), "resume the saved match"),
    "menu": (("leave",), "leave the table (a local match stays saved)"),
    "again": (("rematch",), "after a LAN match: play again at the table, everyone in their seat"),
    "host": ((), "open a LAN table: host 3 classic; its deal is locked (nobody, you included, "
                 "sees another person's tiles) unless you add fair"),
    "tables": (("lobby",), "look for tables on the LAN, numbered for join"),
    "join": ((), "sit at a LAN table: join 2, or join HOST:PORT/KEY, then any passphrase"),
    "rules": (("r",), "the rules of this table, or of a preset: rules allfives"),
    "settings": (("options",), "your settings; change one with set NAME VALUE"),
    "set": ((), "change a setting: set words on, set pause 0.3, set name Ana"),
    "history": (("matches",), "your logged matches, newest first"),
    "stats": ((), "your results"),
    "replay": ((), "step through a logged match: replay 4, then next, back, next hand, stop"),
    "back": ((), "in a replay: the move before; at a LAN table after your time ran out: play "
                 "your own turns again"),
    "stop": ((), "leave the replay"),
    "help": (("?", "commands"), "this list"),
    "quit": (("q", "exit", "bye"), "leave lanomino (a local match stays saved)"),
}
ALIASES = {alias: verb for verb, (aliases, _) in VERBS.items() for alias in (verb, *aliases)}
END_WORDS = {"left": End.LEFT, "l": End.LEFT, "right": End.RIGHT, "r": End.RIGHT,
             "up": End.UP, "u": End.UP, "top": End.UP, "down": End.DOWN, "bottom": End.DOWN}


class CommandError(ValueError):
    """The line cannot be understood; the message is a sentence for the reader."""


@dataclass(frozen=True, slots=True)
class TileRef:
    """A tile as typed: its number in your hand, or its two numbers."""

    number: int | None = None
    tile: Tile | None = None


@dataclass(frozen=True, slots=True)
class Command:
    verb: str  # a key of VERBS, or "" for an empty line
    args: tuple[str, ...] = ()
    tile: TileRef | None = None  # play: which tile
    end: End | None = None  # play: where
    text: str = ""  # the rest of the line as typed (a name, a passphrase)


def parse_command(text: str) -> Command:
    """The command on one typed line. Raises CommandError."""
    words = text.strip().split()
    if not words:
        return Command("")
    first = words[0].lower()
    rest = text.strip()[len(words[0]):].strip()
    if first.isdigit() or _looks_like_tile(first):  # "2" or "5-3": play it
        return _play(words, text)
    verb = ALIASES.get(first)
    if verb is None:
        raise CommandError(_unknown(words[0]))
    if verb == "play":
        if len(words) < 2:
            raise CommandError("Play which tile? Say play 5-3, or play and its number in your "
                               "hand.")
        return _play(words[1:], text)
    return Command(verb, tuple(w.lower() for w in words[1:]), text=rest)


def _unknown(word: str) -> str:
    close = difflib.get_close_matches(word.lower(), list(ALIASES), n=1, cutoff=0.6)
    hint = f" Did you mean {ALIASES[close[0]]}?" if close else ""
    return f"I do not know the command {word!r}.{hint} Type help for the list."


def _looks_like_tile(word: str) -> bool:
    return "-" in word


def _play(words: list[str], text: str) -> Command:
    if len(words) > 2:
        raise CommandError(f"Too many words in {text.strip()!r}: say play 5-3 right.")
    ref = parse_tile_ref(words[0])
    end = None
    if len(words) == 2:
        end = END_WORDS.get(words[1].lower())
        if end is None:
            raise CommandError(f"I do not know the end {words[1]!r}: say left, right, up, down.")
    return Command("play", tile=ref, end=end)


def parse_tile_ref(word: str) -> TileRef:
    """'2' (the second tile in your hand), '5-3', '3-5', 'five-three', 'double-six'.
    Raises CommandError."""
    w = word.lower()
    if w.isdigit():
        number = int(w)
        if number < 1:
            raise CommandError("Tiles in your hand are numbered from 1.")
        return TileRef(number=number)
    parts = w.split("-")
    if len(parts) == 2 and parts[0] == "double":
        parts = [parts[1], parts[1]]
    if len(parts) != 2:
        raise CommandError(f"I cannot read {word!r} as a tile: write it like 5-3, or its number.")
    halves = [_half(p, word) for p in parts]
    return TileRef(tile=Tile(max(halves), min(halves)))


def _half(part: str, word: str) -> int:
    if part.isdigit():
        n = int(part)
    elif part in NUMBER_WORDS or part in ("zero", "nought"):
        n = 0 if part in ("zero", "nought") else NUMBER_WORDS.index(part)
    else:
        raise CommandError(f"I cannot read {word!r} as a tile: write it like 5-3, or its number.")
    if n > 6:
        raise CommandError(f"There is no tile {word}: the numbers go from 0 to 6.")
    return n


def help_lines() -> list[str]:
    """One line per command, with its short forms."""
    out = []
    for verb, (aliases, what) in VERBS.items():
        short = f" (or {', '.join(aliases)})" if aliases else ""
        out.append(f"{verb}{short}: {what}.")
    out.append("A number alone plays that tile of your hand; an empty line deals the next hand.")
    return out
