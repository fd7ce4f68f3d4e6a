"""End to end: a whole match of every preset, played by keys in the real ``lanomino play`` in a
detached tmux at 80x24, checking what a player reads on the way: the words (you-grammar, plurals,
seats from 1), the header, partners, the All Fives count, the end of each hand with its board,
the score sheet and the log one key away, and the match's end."""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from test_tmux_play import ROOT, TILE, Tmux, session_ends, wait_for

from lanomino.engine import Rules

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

# what must never be read: the old words and the broken grammar the narration replaced
BAD = re.compile(r"\bYou (opens|has|scores|wins|holds)\b|\byou (has|scores|holds)\b|\b1 pips\b"
                 r"|\bits own\b|\bseat 0\b|\bteam [01]\b|\(fives\)|Hand over:")


def _hand(screen: str) -> list[str]:
    """The tiles of the human seat's hand, in order, as the narration names them ("3-2")."""
    rows = screen.splitlines()
    start = next(i for i, r in enumerate(rows) if "Your hand" in r) + 1
    return [f"{a}-{b}" for row in rows[start:start + 4:2] for a, b in TILE.findall(row)]


def _answered(tile: str, screen: str) -> bool:
    """The key for ``tile`` took effect: it did not fit (said so), or it was played (it left the
    hand, or the turn passed), or the place is asked."""
    return (f"{tile} does not fit" in screen or "this hand opens with" in screen
            or "Play where" in screen
            or "your turn" not in screen or tile not in _hand(screen))


def _press_tile(tmux: Tmux, screen: str, tile: str) -> str:
    """Press the number of ``tile`` and wait for its answer."""
    digit = str(_hand(screen).index(tile) + 1)[-1]  # 1..9, then 0 for the tenth
    tmux.keys(digit)
    deadline = time.monotonic() + 5
    while not _answered(tile, screen := tmux.screen()) and time.monotonic() < deadline:
        time.sleep(0.01)
    return screen


def _turn(tmux: Tmux, screen: str) -> None:
    """One step of the human seat's play, by the keys a new player would press. Tiles are
    played by their numbers, never by Enter: a key still on its way when the hand ends must not
    dismiss the end-of-hand screen (Enter there deals the next hand). The first tile is tried;
    when it does not fit, the message names one that does, and that one is played."""
    footer = screen.rstrip().splitlines()[-1]
    if "Play where" in screen:
        tmux.keys("1")
    elif "d draw" in footer:
        tmux.keys("d")
    elif "p pass" in footer:
        tmux.keys("p")
    elif "your turn" in screen:
        hand = _hand(screen)
        screen = _press_tile(tmux, screen, hand[0])
        fits = re.search(r"(?:you must play:|this hand opens with) (\d-\d)", screen)
        if fits and "your turn" in screen and hand.index(fits.group(1)) < 10:
            _press_tile(tmux, screen, fits.group(1))


def _check_hand_end(tmux: Tmux, screen: str, rules: Rules) -> int:
    """The checks on a hand's end screen; returns the hand's number."""
    rows = screen.splitlines()
    found = re.search(r"hand (\d+) is over", rows[0])
    assert found, screen
    hands = int(found.group(1))
    assert "Tiles left in each hand:" in screen and "Points this hand:" in screen, screen
    title = next(i for i, r in enumerate(rows) if f"Hand {hands} is over" in r)
    assert any("[" in r or "╭" in r for r in rows[1:title]), f"no final board:\n{screen}"
    if rules.fives and "for the ends" in screen:
        assert re.search(r"\d+ \((\d+ for the pips, )?\d+ for the ends\)", screen), screen
    tmux.keys("s")
    sheet = wait_for(tmux, "How it ended")
    assert any(re.match(rf"\s*{hands}  \S", r) for r in sheet.splitlines()), sheet
    tmux.keys("s")
    tmux.keys("l")
    log = wait_for(tmux, "the log")
    assert f"Hand {hands} is over" in log, log
    tmux.keys("Escape")
    wait_for(tmux, "Points this hand:")
    return hands


def play_match(tmp_path: Path, preset: str, players: int, seed: int) -> tuple[list[str], int]:
    """Play the match by keys; returns every screen seen and the last hand whose end was read."""
    rules = Rules.preset(preset)
    command = (f"cd {ROOT} && {sys.executable} -m lanomino play --rules {preset} "
               f"--players {players} --level random --seed {seed} --pause 0 --data-dir {tmp_path}")
    tmux = Tmux()
    screens: list[str] = []
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", command)
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        wait_for(tmux, "Your hand", 20)
        hands = 0
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            screen = tmux.screen()
            screens.append(screen)
            assert not BAD.search(screen), f"{BAD.search(screen)}:\n{screen}"
            if "The match is over:" in screen:
                break
            if re.search(r"hand \d+ is over", screen.splitlines()[0]):
                time.sleep(0.3)  # the match's end may show a moment after the hand's
                screen = tmux.screen()
                if "The match is over:" in screen:
                    screens.append(screen)
                    break
                hands = _check_hand_end(tmux, screen, rules)
                tmux.keys("Enter")
                wait_for(tmux, "Your hand", 10)
                continue
            header = screen.splitlines()[0]
            assert ("boneyard" in header) == rules.draws, header
            if rules.fives and "[" in screen.split("─" * 10)[1]:
                assert re.search(r"ends [\d+ -]+ = \d+: (scores \d+|no score)", screen), screen
            if rules.partnership:
                assert "(partner)" in screen and " · with " in screen, screen
            _turn(tmux, screen)
            time.sleep(0.05)
        else:
            raise AssertionError(f"the match did not end; last screen:\n{screens[-1]}")
        end = screens[-1]
        assert re.search(r"The match is over: .* won", end), end
        assert re.search(r"^\s+1\.\s+\S", end, re.M), end
        tmux.keys("Enter")
        wait_for(tmux, "What would you like to do?")
        tmux.keys("q")
        assert session_ends(tmux), "q on the menu did not quit"
    finally:
        tmux.kill()
    return screens, hands


@pytest.mark.parametrize(("preset", "players", "seed"), [
    ("classic", 2, 3), ("block", 3, 4), ("allfives", 2, 5), ("partnership", 4, 6)])
def test_a_whole_match_by_keys_reads_right_at_80x24(tmp_path: Path, preset: str, players: int,
                                                    seed: int) -> None:
    screens, hands = play_match(tmp_path, preset, players, seed)
    assert len(screens) > 10 and hands >= 1  # (a preset's target takes more than one hand)
