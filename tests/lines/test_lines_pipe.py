"""``lanomino play --lines`` on pipes, no terminal at all: a whole match played from what it
says, bad input refused without a change, the saved match resumed, history, replay, rules and
settings, tiles as words. Every move the play log holds was said exactly once."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lanomino.ui.settings import account_name

sys.path.insert(0, str(Path(__file__).parent))
from linekit import LANOMINO, ROOT, LinePipe, logged_record, play_match  # noqa: E402

OVER = r"^The match is over: "
MATCH = ("--players", "3", "--seed", "5", "--level", "normal")
PLAYED: list[str] = []  # everything the whole match below said and was told, in order
BOX = re.compile(r"[\u2500-\u259f\u25a0-\u25ff]")


def local(data: Path, *extra: str) -> LinePipe:
    return LinePipe(["play", "--lines", "--pause", "0", "--data-dir", str(data), *extra])


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A whole 3-player match played over pipes; its data directory and everything said."""
    data = tmp_path_factory.mktemp("lines")
    pipe = local(data, *MATCH)
    try:
        play_match(pipe, OVER)
        assert "Type new for another match" in pipe.until("Type new")
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
    finally:
        pipe.kill()
    PLAYED[:] = pipe.said
    return data, [line for line in pipe.said if not line.startswith(">>> ")]


def test_a_whole_match_is_played_over_pipes(finished: tuple[Path, list[str]]) -> None:
    data, said = finished
    assert said[0] == "Hand 1: you to open with 6-6; 13 tiles in the boneyard."
    record = logged_record(data)
    hands = record["hands"]
    assert isinstance(hands, list)
    moves = [m for hand in hands for m in hand["moves"]]
    plays = [m for m in moves if "play" in m]
    draws = [m for m in moves if m.get("draw")]
    assert plays and draws
    spoken_plays = [s for s in said if re.match(r"(You|Ana|Ben) (opened with|played) ", s)]
    assert len(spoken_plays) == len(plays), "every play said once, none twice"
    assert len([s for s in said if re.match(r"(You|Ana|Ben) drew ", s)]) == len(draws)
    assert len([s for s in said if re.match(r"Hand \d+: ", s)]) == len(hands)
    assert len([s for s in said if re.search(OVER, s)]) == 1
    hand_ends = [s for s in said if re.match(r"Hand \d+ is over: ", s)]
    assert len(hand_ends) == len(hands)


def test_the_output_is_plain_lines(finished: tuple[Path, list[str]]) -> None:
    _, said = finished
    for line in said:
        assert line.isascii() and line.isprintable(), line  # no colour codes, no box drawing
        assert not BOX.search(line) and len(line) < 200
    turns = [i for i, s in enumerate(said) if s == "Your turn."]
    assert turns and all(said[i + 1].startswith("Your hand: 1: ") for i in turns)


def test_bad_input_gets_a_sentence_and_changes_nothing(tmp_path: Path) -> None:
    pipe = local(tmp_path, "--players", "2", "--seed", "8")
    try:
        choices = pipe.until(r"Playable: |Nothing fits")
        pipe.send("hand")
        hand = pipe.until(r"^Your hand: ")
        assert pipe.read() == choices
        pipe.send("board")
        board = pipe.drain(0.5)
        refusals = {
            "plya": "Did you mean play?",
            "play 9-9": "There is no tile 9-9",
            "play 8": "there is no tile 8",
            "play 5-3 sideways": "do not know the end",
            "pass": "You may not pass",
            "next": "still being played",
        }
        for typed, words in refusals.items():
            pipe.send(typed)
            reply = pipe.drain(0.4)
            assert len(reply) >= 1 and words in reply[0], (typed, reply)
        pipe.send("hand")
        assert pipe.until(r"^Your hand: ") == hand
        assert pipe.read() == choices
        pipe.send("board")
        assert pipe.drain(0.5) == board
        pipe.send("quit")
        assert pipe.finish() == 0
    finally:
        pipe.kill()


def test_a_quit_match_continues_where_it_stopped(tmp_path: Path) -> None:
    pipe = local(tmp_path, "--players", "2", "--seed", "9", "--words")
    try:
        line = pipe.until(r"Playable: |Nothing fits")
        assert not re.search(r"\d-\d", line)  # tiles as words
        pipe.send(answer_for(line))
        pipe.until(r"^Your turn\.$")
        pipe.send("hand")
        hand = pipe.until(r"^Your hand: ")
        pipe.send("quit")
        assert "--continue" in pipe.until("saved")
        assert pipe.finish() == 0
    finally:
        pipe.kill()
    again = local(tmp_path, "--continue", "--words")
    try:
        assert re.fullmatch(r"Hand 1 is under way\.", again.read() or "")
        again.send("hand")
        assert again.until(r"^Your hand: ") == hand
        again.send("quit")
        assert again.finish() == 0
    finally:
        again.kill()


def answer_for(line: str) -> str:
    from linekit import answer

    reply = answer(line)
    assert reply is not None
    return reply


def test_history_replay_rules_and_settings(finished: tuple[Path, list[str]]) -> None:
    data, said = finished
    pipe = LinePipe(["play", "--lines", "--data-dir", str(data)])
    try:
        assert "Type new to play the computer" in pipe.read()
        pipe.send("history")
        assert pipe.read() == "1 match logged, newest first:"
        row = pipe.read() or ""
        me = account_name()  # (the name a player has until they choose one)
        assert row.startswith("Match 1, ") and f"{me}, Ana and Ben" in row and "replays" in row
        pipe.send("replay 1")
        pipe.until(r"^Match #1")
        assert re.fullmatch(r"Hand 1 of \d+, move 0 of \d+\.", pipe.read() or "")
        first_play = next(s for s in said if re.match(r"\w+ opened with ", s))
        pipe.send("next")
        pipe.until(r"move 1 of")
        # the replay says the move the game said (by the player's name, where the game said you)
        assert pipe.read() == re.sub(r"^You ", f"{me} ", first_play)
        pipe.send("stop")
        pipe.until("Type new to play the computer")
        pipe.send("rules allfives")
        assert pipe.read() == "All Fives to 150, 2 players."
        assert any("multiple of five" in line for line in pipe.drain(0.5))
        pipe.send("set words maybe")
        assert "on or off" in (pipe.read() or "")
        pipe.send("set lines on")
        assert pipe.read() == "lines is now on."
        pipe.send("settings")
        assert "lines: on" in pipe.drain(0.5)[7]
        pipe.send("quit")
        assert pipe.finish() == 0
    finally:
        pipe.kill()
    # the setting starts the line mode without --lines
    plain = LinePipe(["play", "--data-dir", str(data)])
    try:
        assert "Type new to play the computer" in (plain.read() or "")
        plain.send("stats")
        assert re.match(r"Matches: 1, won [01]\. ", plain.read() or "")
        plain.send("quit")
        assert plain.finish() == 0
    finally:
        plain.kill()


def test_resigning_watches_the_others_finish(tmp_path: Path) -> None:
    pipe = local(tmp_path, "--players", "3", "--seed", "5", "--pause", "0.3")
    try:
        pipe.until(r"Playable: |Nothing fits")
        pipe.send("resign")
        assert pipe.read() == "Type resign again to leave the match; anything else keeps you in it."
        pipe.send("resign")
        assert pipe.until(r"^You resigned") == "You resigned and left the table."
        assert pipe.read() == ("You watch the others play on: type finish to see the end at once, "
                               "menu to leave, or quit.")
        pipe.send("draw")
        assert pipe.until(r"^The hand|^It is") is not None
        pipe.send("finish")
        assert re.search(r": (Ana|Ben) won ", pipe.until(OVER, timeout_s=60))
        after = pipe.said[pipe.said.index("You resigned and left the table."):]
        assert not [s for s in after if s.startswith("Your turn")]
        pipe.send("quit")
        assert pipe.finish() == 0
    finally:
        pipe.kill()


def test_an_interrupt_leaves_like_quit(tmp_path: Path) -> None:
    pipe = local(tmp_path, "--players", "2", "--seed", "9")
    try:
        choices = pipe.until(r"Playable: |Nothing fits")
        pipe.proc.send_signal(signal.SIGINT)
        assert "--continue" in pipe.until("saved")
        assert pipe.finish() == 0
    finally:
        pipe.kill()
    again = local(tmp_path, "--continue")
    try:
        assert again.until(r"Playable: |Nothing fits") == choices  # saved where it stood
        again.send("quit")
        assert again.finish() == 0
    finally:
        again.kill()


def test_a_file_of_commands_replays_the_same_match(finished: tuple[Path, list[str]],
                                                   tmp_path: Path) -> None:
    """The commands typed in the whole match above, written to a file and fed at once: each
    line waits for its moment, so the same seed gives the very same sentences."""
    _, said = finished
    data = tmp_path / "again"
    typed = [line[4:] for line in PLAYED if line.startswith(">>> ")]
    script = tmp_path / "moves.txt"
    script.write_text("\n".join(typed) + "\n")
    with script.open() as moves:
        out = subprocess.run([*LANOMINO, "play", "--lines", "--pause", "0", "--data-dir",
                              str(data), *MATCH], stdin=moves, cwd=ROOT, capture_output=True,
                             text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == said


def test_hint_undo_and_yes_over_a_saved_match(tmp_path: Path) -> None:
    pipe = local(tmp_path, "--players", "2", "--seed", "4")
    try:
        choices = pipe.until(r"Playable: |Nothing fits")
        pipe.send("hand")
        hand = pipe.until(r"^Your hand: ")
        assert pipe.read() == choices
        pipe.send("hint")
        assert re.fullmatch(r"Expert would (play \d-\d( on the \w+)?|draw|pass)\.",
                            pipe.until(r"^Expert would"))
        pipe.send(answer_for(choices))
        pipe.until(r"Playable: |Nothing fits")
        pipe.send("undo")
        after = pipe.drain(1.0)
        assert "Your last move is taken back." in after
        turn = after.index("Your turn.")
        assert after[turn + 1:turn + 3] == [hand, choices]  # back where it was
        pipe.send("quit")
        assert pipe.finish() == 0
    finally:
        pipe.kill()
    again = local(tmp_path, "--players", "2", "--seed", "4")  # a new match over the saved one
    try:
        assert "saved game is waiting" in again.until("saved game")
        assert again.read() == ("Type yes to start the new match anyway, or continue to resume "
                                "the saved one.")
        again.send("yes")
        assert again.until(r"^Hand 1: ") and again.until(r"Playable: |Nothing fits") == choices
        again.send("quit")
        assert again.finish() == 0
    finally:
        again.kill()
