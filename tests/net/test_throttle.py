"""Passphrase guessing is throttled per connection key and per table (lanomino.net.throttle)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.net.session import JoinRefused  # noqa: E402
from lanomino.net.throttle import GuessPolicy, GuessThrottle, passphrase_advice  # noqa: E402


def test_one_key_backs_off_exponentially() -> None:
    t = GuessThrottle(GuessPolicy(table_burst=100))
    waits = []
    now = 0.0
    for _ in range(8):
        assert t.wait_s("k", now) == 0
        t.failed("k", now)
        waits.append(t.wait_s("k", now))
        now += waits[-1]
    assert waits == [1, 2, 4, 8, 16, 32, 60, 60]
    t.succeeded("k")
    assert t.wait_s("k", now) == 0


def test_many_keys_share_the_tables_budget_so_a_pin_takes_days() -> None:
    """A guesser with a fresh key for every guess, asking as fast as it is let: in a simulated
    day the table checks at most one wrong answer a minute (after a first burst)."""
    t = GuessThrottle()
    checked, now, key = 0, 0.0, 0
    while now < 86_400:
        wait = t.wait_s(f"key{key}", now)
        if wait > 0:
            now += wait
            continue
        t.failed(f"key{key}", now)
        checked += 1
        key += 1
    assert checked <= GuessPolicy().table_burst + 86_400 / GuessPolicy().table_every_s + 1
    days_for_all_pins = 10_000 / checked
    assert days_for_all_pins > 6


def test_a_member_coming_back_is_not_held_by_strangers_guessing() -> None:
    t = GuessThrottle()
    for n in range(50):
        t.failed(f"stranger{n}", 0.0)
    assert t.wait_s("newcomer", 0.0) > 0
    assert t.wait_s("member", 0.0, member=True) == 0


def test_the_keys_remembered_are_bounded() -> None:
    t = GuessThrottle(GuessPolicy(max_keys=16))
    for n in range(5000):
        t.failed(f"k{n}", float(n))
    assert len(t._keys) == 16


@pytest.mark.parametrize("weak", ["1234", "kitchen", "two words"])
def test_weak_passphrases_get_advice(weak: str) -> None:
    advice = passphrase_advice(weak)
    assert advice is not None and "random words" in advice


def test_strong_passphrases_get_none() -> None:
    assert passphrase_advice("lamp otter quarry") is None
    assert passphrase_advice("a-long-passphrase-here") is None


def test_a_guessing_stranger_is_throttled_at_the_table_and_the_right_player_joins_later() -> None:
    table = Table(Rules.preset("classic", target=30), 2, peers=0, passphrase="7351")
    refusals: list[str] = []
    for n in range(8):
        guesser = table.add_peer(f"mallory{n}", passphrase=f"{n:04d}")
        table.run(lambda: False, max_time=0.3)
        refusals += [e.code for e in guesser.events if isinstance(e, JoinRefused)]
    burst = GuessPolicy().table_burst
    assert refusals == ["passphrase"] * burst + ["throttled"] * (8 - burst)
    assert table.host.stats["refused.passphrase"] == burst
    early = table.add_peer("alice", passphrase="7351")
    table.run(lambda: False, max_time=0.3)
    refused = [e for e in early.events if isinstance(e, JoinRefused)]
    assert refused and refused[0].code == "throttled" and "try again in" in refused[0].reason
    table.run(lambda: False, max_time=GuessPolicy().table_every_s)
    alice = table.add_peer("alice again", passphrase="7351")
    table.run(table.over)
    assert alice.session.verified_all
