"""The Help screen's words: the rules of this table, built from its ``Rules``, and the keys."""

from __future__ import annotations

from lanomino.engine import Rules

GAME_NAMES = {"draw": "the Draw game", "block": "the Block game", "allfives": "All Fives"}


def describe_game(rules: Rules) -> str:
    """A short title: 'Draw game to 100', 'Partnership Block game to 100'."""
    name = {"draw": "Draw game", "block": "Block game", "allfives": "All Fives"}[rules.game]
    if rules.partnership:
        name = f"Partnership {name}"
    return f"{name} to {rules.target}" if rules.target else f"{name}, one hand"


def rules_text(rules: Rules, players: int, playing: int | None = None) -> list[str]:
    """The rules of a table with ``players`` seats, one paragraph per item, in our own words;
    ``playing``: how many of them are still dealt in (a LAN table others left)."""
    size = rules.hand_size_for(players)
    lines = [f"You are playing {GAME_NAMES[rules.game]} with a double-six set (28 tiles)."]
    if rules.partnership:
        lines.append("Four players sit as two teams; partners face each other "
                     "(seats 1 and 3, 2 and 4) and their points go to the team.")
    dealt = players if playing is None else playing
    left = 28 - size * dealt
    lines.append(f"Each player gets {size} tiles; " + (
        f"the other {left} stay face down in the boneyard." if left else "no tiles are left over."))
    which = "Every hand is" if rules.next_opener == "highest-double" else "The first hand is"
    lines.append(f"{which} opened by the player with the highest double, who must lead it.")
    if rules.no_double == "reshuffle":
        lines.append("If nobody was dealt a double, the tiles are shuffled and dealt again.")
    else:
        lines.append("If nobody holds a double, the heaviest tile opens instead.")
    opener = {
        "winner": "the winner of the last hand opens the next one with any tile",
        "highest-double": "",
        "alternate": "the lead passes to the next player each hand, with any tile",
        "left-of-last": "the player after the last opener opens the next hand, with any tile",
    }[rules.next_opener]
    if opener:
        lines.append(f"After that, {opener}.")
    lines.append("On your turn, lay one tile whose number matches an open end of the line; "
                 "doubles are laid across.")
    if rules.draws:
        stuck = "If nothing fits you draw from the boneyard until something does"
        if rules.boneyard_reserve:
            stuck += f", but the last {rules.boneyard_reserve} tiles are never drawn"
        lines.append(stuck + "; when drawing is no longer possible you pass.")
        if rules.draw_when_playable:
            lines.append("You may also draw when you could play.")
    else:
        lines.append("Nobody draws: if nothing fits, you pass.")
    if rules.fives:
        lines.append("The first double becomes the spinner: once both of its sides hold a tile, "
                     "tiles may also be laid on its top and bottom.")
        lines.append("Whenever the open ends add up to a multiple of five "
                     "(a double at an end counts both halves), "
                     "the player who made it scores that many points at once.")
    lines.append("The hand ends when someone plays their last tile, or when nobody can move "
                 "(the line is blocked).")
    lines.append("Going out scores the pips left in the other hands.")
    tie = ("nobody scores" if rules.blocked_tie == "nobody"
           else "whoever holds the lightest single tile wins")
    least = ("the team holding the fewest pips (both partners' tiles together)"
             if rules.partnership else "whoever holds the fewest pips")
    if rules.blocked_scoring == "difference":
        lines.append(f"In a blocked hand {least} wins and scores the others' pips minus their "
                     f"own; on a tie {tie}.")
    else:
        lines.append(f"In a blocked hand {least} wins and scores all the others' pips; on a tie "
                     f"{tie}.")
    if rules.round_to_5:
        lines.append("Hand scores are rounded to the nearest multiple of five.")
    if rules.target:
        lines.append(f"The first to reach {rules.target} points wins the match"
                     + (", even in the middle of a hand." if rules.fives else "."))
    else:
        lines.append("The match is a single hand.")
    lines.append("A player who resigns leaves with their tiles; when only one player (or team) is "
                 "left, they win.")
    return lines


KEYS_TEXT: tuple[tuple[str, str], ...] = (
    ("← →", "pick a tile in your hand (or the place, when a tile fits two)"),
    ("1-9, 0", "pick and play the tile with that number"),
    ("Enter", "play the picked tile / deal the next hand"),
    ("1 2 3 4", "choose the end when a tile fits more than one"),
    ("d", "draw from the boneyard (when drawing is allowed)"),
    ("p", "pass (when nothing fits and nothing can be drawn)"),
    ("s", "the score sheet: every hand of the match so far (s or Esc goes back)"),
    ("l", "the whole log of the match, ↑/↓ to scroll (l or Esc goes back)"),
    ("h", "against the computer: what Expert would play, its tile picked "
          "(History marks the match)"),
    ("u", "against the computer: take back your last move (History marks the match)"),
    ("r", "after a LAN match: play again (the host offers it and keeps everyone's seat; "
          "the others see the offer and accept with r)"),
    ("b", "at a LAN table after your time ran out (the table's bot plays for you): come back "
          "and play your own turns (any key that plays does too)"),
    ("Esc", "cancel a choice, go back"),
    ("?", "this help, from any screen"),
    ("q", "leave the table (asks first; the game is saved) or resign"),
    ("Ctrl-C", "quit (a local game is saved after every move; at a LAN table it asks first)"),
)


SETTINGS_TEXT: tuple[tuple[str, str], ...] = (
    ("Your name", "What the other players see you as. At a table you are always 'you'."),
    ("Coloured pips", "Each number gets its own colour. Off: the table uses bold and reverse "
     "only (NO_COLOR in the environment also turns colour off)."),
    ("Sound", "The terminal bell rings when it is your turn and when a hand ends."),
    ("Auto-draw", "When nothing in your hand fits, draw for you until something does, and pass "
     "when nothing can be drawn. The table says what it did for you."),
    ("Default computer level", "The level a new game starts its computer players at; you can "
     "still change each one in the new-game form."),
    ("Default rules", "The rules a new game starts with."),
    ("Computer move pause", "How long a computer player seems to think, so you can follow its "
     "move."),
    ("Line mode", "From the next start, plain sentences and typed commands instead of this "
     "screen: for screen readers and scripts (lanomino play --lines does it once)."),
    ("Tiles as words", "In line mode, tiles are said as five-three rather than 5-3."),
)
