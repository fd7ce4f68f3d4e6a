"""The line mode's settings are in the full-screen Settings too, so a helper can switch a
screen-reader user's client over: toggled by keys, saved, read back by the next start."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from test_keys import DOWN, RIGHT, run_keys  # noqa: E402

from lanomino.ui.screens import SETTINGS_ROWS, render_screen  # noqa: E402
from lanomino.ui.settings import Settings
from lanomino.ui.state import SaveSettings, Screen, UiState


def test_lines_and_words_toggle_in_settings_and_are_saved() -> None:
    ui = UiState()
    downs = [DOWN] * SETTINGS_ROWS.index("lines")
    intents = run_keys(ui, ["s", *downs, RIGHT, DOWN, RIGHT, "\r"])
    saved = [i for i in intents if isinstance(i, SaveSettings)]
    assert saved and saved[-1].settings.lines and saved[-1].settings.words
    assert Settings.from_dict(saved[-1].settings.to_dict()) == saved[-1].settings
    ui.screen = Screen.SETTINGS
    text = "".join(t for _, t in render_screen(ui, 80, 24))
    assert "Line mode (next start)" in text and "Tiles as words (lines)" in text
