"""The host form offers the locked deal in plain words (issue 29): on by default, one row to
turn it off, and the sentence under the form says what the host still sees; a host alone with
its computer players is told that its table deals fair."""

from __future__ import annotations

from lanomino.ui.lan import HOST_ROWS, HostForm, HostTable
from lanomino.ui.lobby import (
    DEAL_ALONE,
    DEAL_FAIR,
    DEAL_LOCKED,
    DEAL_LOCKED_BOTS,
    draw_host_form,
)
from lanomino.ui.render import Canvas


def _screen(form: HostForm) -> str:
    canvas = Canvas(80, 24)
    draw_host_form(form, canvas)
    return " ".join(canvas.text().split())


def test_the_host_form_deals_locked_unless_the_fair_deal_is_chosen() -> None:
    form = HostForm(name="Den")
    assert form.intent() == HostTable("Den", "classic", 2, 0, "normal", None, blind=True)
    assert "Deal ‹ locked ›" in _screen(form) and DEAL_LOCKED[:40] in _screen(form)
    form.row = HOST_ROWS.index("deal")
    form.change(1, ["normal"])
    assert form.intent() == HostTable("Den", "classic", 2, 0, "normal", None, blind=False)
    assert "Deal ‹ fair ›" in _screen(form) and DEAL_FAIR[:40] in _screen(form)
    assert "nobody, you included, can see another person's tiles" in DEAL_LOCKED
    assert "computer players" not in DEAL_LOCKED
    with_bot = HostForm(name="Den", seats=3, bots=1)  # host-side bots are not holders
    assert "computer players' tiles" in DEAL_LOCKED_BOTS and DEAL_LOCKED_BOTS[-40:] in _screen(
        with_bot)
    assert "works out every hand" in DEAL_FAIR


def test_the_host_form_says_a_host_alone_with_computer_players_deals_fair() -> None:
    form = HostForm(name="Den", seats=3, bots=2)  # (client/hosting.py deals such a table fair)
    screen = _screen(form)
    assert "Deal ‹ fair (only you) ›" in screen and DEAL_ALONE[:40] in screen
    assert DEAL_LOCKED[:20] not in screen


def test_host_help_says_where_the_move_clocks_bot_runs_at_a_locked_table() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "lanomino", "host", "--help"],
                          cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    words = " ".join(done.stdout.split())
    assert "at a locked table, the bot runs in that player's own program" in words
    assert "blind (the default)" in words and "the host is the only person" in words
