"""Passphrase guessing is throttled per connection key, per source address and per table
(lanomino.net.throttle)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.net.session import JoinRefused  # noqa: E402
from lanomino.net.throttle import GuessPolicy, GuessThrottle, passphrase_advice  # noqa: E402

GUESSER = "192.0.2.66"  # (documentation addresses: these tests send nothing anywhere)
PERSON = "192.0.2.7"


def test_one_key_backs_off_exponentially() -> None:
    t = GuessThrottle(GuessPolicy(table_burst=100))
    waits = []
    now = 0.0
    for _ in range(8):
        assert t.wait("k", GUESSER, now).s == 0
        t.failed("k", GUESSER, now)
        waits.append(t.wait("k", GUESSER, now))
        now += waits[-1].s
    assert [w.s for w in waits] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert {w.whose for w in waits} == {"connection"}
    t.succeeded("k")
    assert t.wait("k", GUESSER, now).s == 0


def _guess_for_a_day(t: GuessThrottle, address: Callable[[int], str]) -> int:
    """A guesser with a fresh key for every answer, asking as fast as it is let, from
    ``address(n)`` for its n-th answer; how many wrong answers the table checked in a day."""
    checked, now, n = 0, 0.0, 0
    while now < 86_400:
        wait = t.wait(f"key{n}", address(checked), now)
        if wait.s > 0:
            now += min(max(wait.s, 0.01), 1.0)  # (another address may have budget sooner)
            n += 1
            continue
        t.failed(f"key{n}", address(checked), now)
        checked += 1
        n += 1
    return checked


def test_from_one_address_a_pin_takes_about_a_week() -> None:
    """Many keys, one machine: its address's budget, then the table's one a minute."""
    p = GuessPolicy()
    checked = _guess_for_a_day(GuessThrottle(), lambda _: GUESSER)
    assert checked <= p.address_burst + p.table_burst + 86_400 / p.table_every_s + 1
    assert 10_000 / checked > 6.5  # days for every PIN (half of them on average)


def _guess_from_many_addresses(t: GuessThrottle, days: int) -> list[int]:
    """A guesser with as many addresses as it likes (IPv6, or many IPv4 addresses claimed on the
    LAN) and a fresh key for every answer: every 5 minutes (the table's burst holds 5 minutes of
    its budget, so nothing is lost between looks) it asks from a new address, then from each
    address it holds, while any is let through. How many answers were checked by each day's end."""
    held: list[str] = []
    checked, now, by_day = 0, 0.0, []
    while len(by_day) < days:
        for address in [f"2001:db8::{len(held):x}", *held]:
            while t.wait(f"key{checked}", address, now).s == 0:
                t.failed(f"key{checked}", address, now)
                checked += 1
                if address not in held:
                    held.append(address)
                    break
        now += 300
        if now % 86_400 == 0:
            by_day.append(checked)
    return by_day


def test_from_any_number_of_addresses_a_pin_takes_more_than_4_days() -> None:
    """The newcomers' budget bounds how many addresses get one of their own (figures quoted in
    throttle.py's docstring)."""
    by_day = _guess_from_many_addresses(GuessThrottle(), 4)
    assert by_day[0] < 2_000 and by_day[3] < 10_000, by_day
    assert by_day[1] < 5_000, by_day  # half the PINs: more than two days


def test_a_person_at_another_address_is_checked_at_once_while_one_address_guesses() -> None:
    t = GuessThrottle()
    for n in range(500):
        if t.wait(f"mallory{n}", GUESSER, n / 100).s == 0:
            t.failed(f"mallory{n}", GUESSER, n / 100)
    held = t.wait("mallory-next", GUESSER, 5.0)
    assert held.s > 0 and held.whose == "address"
    assert t.wait("alice", PERSON, 5.0).s == 0
    # alice mistypes twice: her own address's budget pays, the guesser's stays spent
    t.failed("alice", PERSON, 5.0)
    t.failed("alice2", PERSON, 6.0)
    assert t.wait("alice3", PERSON, 6.0).s == 0
    assert t.wait("mallory-next", GUESSER, 6.0).s > 0


def test_a_person_with_no_known_address_shares_the_tables_budget() -> None:
    t = GuessThrottle()
    for n in range(GuessPolicy().table_burst):
        t.failed(f"k{n}", None, 0.0)
    wait = t.wait("alice", None, 0.0)
    assert wait.s > 0 and wait.whose == "table"


def test_many_addresses_spend_the_newcomers_budget_and_a_new_person_then_waits() -> None:
    """The limit stated in throttle.py: an attacker with many addresses can make a person at a
    new address wait (never more than the table's minute), not guess faster."""
    t = GuessThrottle()
    p = GuessPolicy()
    for n in range(p.newcomer_burst + p.table_burst):
        t.failed(f"k{n}", f"198.51.100.{n}", 0.0)
    wait = t.wait("alice", PERSON, 0.0)
    assert 0 < wait.s <= p.table_every_s and wait.whose == "table"


def test_a_member_coming_back_is_not_held_by_strangers_guessing() -> None:
    t = GuessThrottle()
    for n in range(50):
        t.failed(f"stranger{n}", None, 0.0)
    assert t.wait("newcomer", None, 0.0).s > 0
    assert t.wait("member", None, 0.0, member=True).s == 0


def test_the_keys_and_addresses_remembered_are_bounded() -> None:
    t = GuessThrottle(GuessPolicy(max_keys=16, max_addresses=8, newcomer_burst=10_000))
    for n in range(5000):
        t.failed(f"k{n}", f"a{n}", float(n))
    assert len(t._keys) == 16 and len(t._addresses) == 8


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


def test_a_guesser_at_one_address_does_not_keep_the_right_player_at_another_out() -> None:
    """In memory, addresses as the transport would give them: the guesser spends its address's
    budget and the table's, is then refused at its hello (no challenge made for it), and the
    right player at another address sits down at once."""
    table = Table(Rules.preset("classic", target=30), 2, peers=0, passphrase="7351")
    refusals: list[str] = []
    for n in range(12):
        guesser = table.add_peer(f"mallory{n}", passphrase=f"{n:04d}", ip=GUESSER)
        table.run(lambda: False, max_time=0.3)
        refusals += [e.code for e in guesser.events if isinstance(e, JoinRefused)]
    p = GuessPolicy()
    checked = p.address_burst + p.table_burst
    assert refusals == ["passphrase"] * checked + ["throttled"] * (12 - checked)
    last = [e for e in guesser.events if isinstance(e, JoinRefused)][-1]
    assert last.reason.startswith("too many wrong passphrases from your address: try again in")
    assert not table.host.seating.pending  # refused at hello: no challenge was kept for it
    alice = table.add_peer("alice", passphrase="7351", ip=PERSON)
    table.run(table.over)
    assert alice.session.verified_all
