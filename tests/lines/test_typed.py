"""Typed commands: what parses, and the sentence for what does not."""

from __future__ import annotations

import pytest

from lanomino.engine import End, Tile
from lanomino.lines.say import Voice
from lanomino.lines.typed import CommandError, TileRef, parse_command


@pytest.mark.parametrize("text,tile,end", [
    ("play 5-3 right", TileRef(tile=Tile(5, 3)), End.RIGHT),
    ("play 3-5", TileRef(tile=Tile(5, 3)), None),
    ("PLAY five-three L", TileRef(tile=Tile(5, 3)), End.LEFT),
    ("play double-six", TileRef(tile=Tile(6, 6)), None),
    ("play 2", TileRef(number=2), None),
    ("2", TileRef(number=2), None),
    ("6-blank up", TileRef(tile=Tile(6, 0)), End.UP),
])
def test_a_play_names_a_tile_and_maybe_an_end(text: str, tile: TileRef, end: End | None) -> None:
    command = parse_command(text)
    assert (command.verb, command.tile, command.end) == ("play", tile, end)


@pytest.mark.parametrize("text,words", [
    ("plya", "Did you mean play?"),
    ("play 9-9", "There is no tile 9-9"),
    ("play 5-3 sideways", "do not know the end"),
    ("play", "Play which tile?"),
    ("play 0", "numbered from 1"),
    ("play 5-3-2", "as a tile"),
    ("xyzzy", "Type help for the list."),
])
def test_what_does_not_parse_gets_a_sentence(text: str, words: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(text)
    message = str(caught.value)
    assert words in message and message[0].isupper() and message.rstrip()[-1] in ".?"


def test_short_forms_and_arguments() -> None:
    assert parse_command("  b ").verb == "board"
    assert parse_command("").verb == ""
    assert parse_command("set name Ana Maria").text == "name Ana Maria"
    assert parse_command("next hand").args == ("hand",)


def test_tiles_as_words_and_digits() -> None:
    assert Voice(("A",), words=True).tile(Tile(5, 3)) == "five-three"
    assert Voice(("A",), words=True).tile(Tile(6, 0)) == "six-blank"
    assert Voice(("A",), words=True).tile(Tile(4, 4)) == "double-four"
    assert Voice(("A",)).tile(Tile(5, 3)) == "5-3"
    # what is said can be typed back
    assert parse_command("play six-blank").tile == TileRef(tile=Tile(6, 0))


def test_the_ends_are_named_once_the_spinner_opens() -> None:
    from lanomino.engine import End as E
    from lanomino.engine.line import Line

    line = Line(fives=True)
    line.place_first(Tile(5, 5), E.LEFT)
    assert Voice(("A",)).ends(line) == "Ends: 5-5 alone: 10 in all."  # (counted once)
    line.place(Tile(5, 1), E.LEFT)
    line.place(Tile(6, 5), E.RIGHT)
    said = Voice(("A",), words=True).ends(line)
    assert said == ("Ends: left one and right six; up five and down five do not count yet: 7 in "
                    "all.")
    plain = Line(fives=False)
    plain.place_first(Tile(5, 5), E.LEFT)
    assert Voice(("A",)).ends(plain) == "Ends: 5 and 5."


def test_the_ends_add_up_to_what_all_fives_scores() -> None:
    """A listener adds the ends said and gets the game's count: a double across an end is said
    as the double, an arm nobody has played on is said not to count (issue 30: 'left 5, right 1,
    up 2 and down 3' added up to 13 where the game scored 10)."""
    from lanomino.engine import End as E
    from lanomino.engine.line import Line

    line = Line(fives=True)
    line.place_first(Tile(2, 2), E.LEFT)  # the spinner
    line.place(Tile(5, 2), E.LEFT)
    line.place(Tile(2, 1), E.RIGHT)  # both sides played: the arms open on 2
    line.place(Tile(3, 2), E.DOWN)
    line.place(Tile(1, 1), E.RIGHT)  # a double across the right end
    assert line.fives_count() == 10
    assert Voice(("A",)).ends(line) == (
        "Ends: left 5, right 1-1 and down 3; up 2 does not count yet: 10 in all.")
    assert Voice(("A",), words=True).ends(line) == (
        "Ends: left five, right double-one and down three; up two does not count yet: 10 in all.")
