"""The host form offers the locked deal in plain words (issue 29): off by default, one row to
turn it on, and the sentence under the form says what the host still sees."""

from __future__ import annotations

from lanomino.ui.lan import HOST_ROWS, HostForm, HostTable
from lanomino.ui.lobby import DEAL_FAIR, DEAL_LOCKED


def test_the_host_form_deals_fair_unless_the_locked_deal_is_chosen() -> None:
    form = HostForm(name="Den")
    assert form.intent() == HostTable("Den", "classic", 2, 0, "normal", None, blind=False)
    form.row = HOST_ROWS.index("deal")
    form.change(1, ["normal"])
    assert form.intent() == HostTable("Den", "classic", 2, 0, "normal", None, blind=True)
    assert "nobody, you included, can see another person's tiles" in DEAL_LOCKED
    assert "computer players' tiles" in DEAL_LOCKED  # host-side bots are not holders
    assert "works out every hand" in DEAL_FAIR


def test_host_help_says_where_the_move_clocks_bot_runs_at_a_locked_table() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "lanomino", "host", "--help"],
                          cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    words = " ".join(done.stdout.split())
    assert "with --deal blind, the bot runs in that player's own program" in words
