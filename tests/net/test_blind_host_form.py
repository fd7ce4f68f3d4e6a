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
