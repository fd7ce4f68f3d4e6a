"""A typed move checked against the observation: the action to send, or a sentence saying why
there is none. Pure: the legal actions of the observation are the only authority."""

from __future__ import annotations

from lanomino.engine import Action, Draw, Observation, Pass, Play
from lanomino.lines.say import Voice, join_words
from lanomino.lines.typed import Command, CommandError
from lanomino.narrate import plural


def check_turn(obs: Observation, voice: Voice, local: bool) -> None:
    """Raises CommandError unless the reader is to move now."""
    if obs.phase != "play":
        raise CommandError("The hand is over." + (" Type next to deal the next one." if local
                                                  else ""))
    if not obs.is_my_turn:
        raise CommandError(f"It is {voice.who(obs.turn, False)}'s turn, not yours."
                           if obs.turn != voice.me else "It is not your turn.")


def play_for(obs: Observation, voice: Voice, command: Command, choices: str) -> Play:
    """The play ``command`` names (by number or tile, and end when it fits two places).
    ``choices`` is what the reader may do, said after a refusal. Raises CommandError."""
    ref = command.tile
    assert ref is not None  # the parser always sets it for play
    if ref.number is not None:
        if ref.number > len(obs.hand):
            raise CommandError(f"You hold {plural(len(obs.hand), 'tile')}: "
                               f"there is no tile {ref.number}. Type hand to hear them.")
        tile = obs.hand[ref.number - 1]
    else:
        assert ref.tile is not None
        tile = ref.tile
        if tile not in obs.hand:
            raise CommandError(f"You do not hold {voice.tile(tile)}. Type hand to hear yours.")
    plays = [a for a in obs.legal if isinstance(a, Play) and a.tile == tile]
    name = voice.tile(tile)
    if not plays:
        why = ("it may not open this hand" if obs.line.is_empty
               else voice.ends(obs.line)[:-1].lower())
        raise CommandError(f"{name} does not fit: {why}. {choices}")
    if command.end is not None and not obs.line.is_empty:
        ends = obs.line.ends
        fitting = [p for p in plays if p.end is not None and ends[p.end] == ends[command.end]]
        if not fitting:
            places = join_words([PLACES[str(p.end)] for p in plays if p.end is not None], "or")
            raise CommandError(f"{name} does not fit on {PLACES[str(command.end)]}; it fits on "
                               f"{places}.")
        plays = fitting[:1]
    if len(plays) > 1:
        places_ = [str(p.end) for p in plays]
        raise CommandError(f"{name} fits on {join_words([PLACES[p] for p in places_], 'or')}: "
                           f"say play {tile} {places_[0]}, or play {tile} {places_[1]}.")
    return plays[0]


# an end as a player says it (the word a command takes is the first one: play 5-1 up)
PLACES = {"left": "the left end", "right": "the right end", "up": "the spinner's up arm",
          "down": "the spinner's down arm"}


def draw_or_pass(obs: Observation, kind: type[Draw] | type[Pass], choices: str) -> Action:
    """The draw or pass, when the rules allow it now. Raises CommandError."""
    for action in obs.legal:
        if isinstance(action, kind):
            return action
    verb = "draw" if kind is Draw else "pass"
    if verb == "pass" and any(isinstance(a, Draw) for a in obs.legal):
        reason = "the boneyard has tiles to draw"
    elif any(isinstance(a, Play) for a in obs.legal):
        reason = "a tile of yours fits"
    else:
        reason = "nothing may be drawn"
    raise CommandError(f"You may not {verb}: {reason}. {choices}")
