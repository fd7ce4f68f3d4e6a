"""Colours and attributes for the class names the renderers emit."""

from __future__ import annotations

import os

from prompt_toolkit.styles import Style

# One colour per pip number (0 stays plain), chosen to read on dark and light terminals.
PIP_COLOURS = ("", "ansiblue", "ansigreen", "ansired", "ansimagenta", "ansicyan", "ansiyellow")

_BASE = {
    "title": "bold",
    "header": "reverse",
    "dim": "",
    "key": "bold",
    "warn": "bold",
    "ok": "bold",
    "tile": "",
    "tile.playable": "bold underline",
    "tile.selected": "reverse bold",
    "tile.selected.mark": "bold",
    "tile.selected.nofit": "reverse",  # selected, but it fits nowhere: not bold, no underline
    "tile.dim": "",
    "tile.spinner": "bold",
    "tile.last": "reverse",  # the tile played last
    "mark": "reverse bold",  # an end of the line, marked where it lies
    "turn": "bold",
    "menu.selected": "reverse bold",
    "winner": "bold",
}

_COLOURED = {
    "dim": "ansibrightblack",
    "warn": "ansired bold",
    "ok": "ansigreen bold",
    "tile.dim": "ansibrightblack",
    "tile.selected.nofit": "ansibrightblack reverse",
    "turn": "ansiyellow bold",
    "mark": "ansiyellow reverse bold",
    "key": "ansicyan bold",
    "winner": "ansigreen bold",
    **{f"pip.{n}": colour for n, colour in enumerate(PIP_COLOURS) if colour},
}


def colour_allowed() -> bool:
    """False when the user asked for no colour (NO_COLOR, https://no-color.org)."""
    return not os.environ.get("NO_COLOR")


def build_style(colour: bool) -> Style:
    """The app's style; ``colour=False`` keeps only bold, underline and reverse."""
    rules = dict(_BASE)
    if colour:
        rules.update(_COLOURED)
    return Style.from_dict(rules)
