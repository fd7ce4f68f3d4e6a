"""Online passphrase guessing, throttled per connection, per source address and per table. Pure.

A joiner proves it knows the table's passphrase with an HMAC over the host's challenge, so the
only way to guess is to ask the host, once per challenge. Without a limit a host answers about
1,800 guesses a second and a 4-digit PIN falls in seconds. The host may check a wrong answer
only when one of these budgets has room for it:

* the sender's source address (an IP, as the connection's TCP handshake proved it): three wrong
  answers, then one more a day. An address gets this budget the first time it answers wrong,
  and only while the *newcomers'* budget has room: ten new addresses, then one every 10 minutes.
* the table's: five wrong answers from anyone, then one a minute.

Per connection key, on top: after the n-th wrong answer that key waits ``first_wait_s * 2**(n-1)``
(at most ``max_wait_s``) before its next answer is checked.

Why per address. Keys are free, so a guesser opens many connections; a limit shared by every
connection (the table's alone) is then spent by the guesser, and the person who knows the
passphrase is refused with it ("too many wrong passphrases") for as long as the guessing goes on.
Addresses are not free: a machine has one (or a few) on a LAN, and it cannot answer from an
address it does not hold (the TCP handshake has to complete). A guesser spends its own address's
budget and then the table's; a person at another address still has a whole budget of their own,
so the right passphrase is checked at once, however many keys guess meanwhile. A right answer
spends nothing.

The arithmetic (``test_throttle.py`` runs it for a day). A 4-digit PIN has 10^4 values; guessed
in a random order, half of them are tried before the right one on average. From one address the
table checks 3 + 5 wrong answers, then one a minute: about 1,450 a day, so all PINs take 6.9 days
(half of them 3.5). An attacker with any number of addresses (IPv6, or claiming many IPv4
addresses on the LAN) also gets 10 new addresses, then 144 a day, three answers each, and one
more a day for each address it holds: simulated, about 1,900 answers in the first day and 8,400
by the end of the fourth, so all PINs take more than 4 days (half of them about 2.5). So "days":
a guesser may use the whole budget, a few answers a minute for the table, and no more.

Limits. Such an attacker can also spend the newcomers' and the table's budgets, and then a
person joining from a new address waits like everybody else (the refusal says how long); a
guesser at the person's own address (the same machine, or behind the same NAT router) spends
that address's budget too. A member of the match coming back (its identity key is already
seated, which it proves by signing the join) is held only by its own connection's backoff, never
by another's guessing. Three random words instead of a PIN make all of this moot.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from lanomino.net.budget import Bucket, Limit

__all__ = ["GuessPolicy", "GuessThrottle", "Wait", "passphrase_advice"]


@dataclass(frozen=True, slots=True)
class GuessPolicy:
    first_wait_s: float = 1.0
    max_wait_s: float = 60.0
    table_burst: int = 5
    table_every_s: float = 60.0
    address_burst: int = 3
    address_every_s: float = 86_400.0
    newcomer_burst: int = 10  # new addresses given a budget at once ...
    newcomer_every_s: float = 600.0  # ... then one every this many seconds
    max_keys: int = 1024  # connection keys remembered (the oldest are forgotten first)
    max_addresses: int = 1024  # addresses remembered (forgotten ones are newcomers again)


@dataclass(frozen=True, slots=True)
class Wait:
    """How long until an answer may be checked, and whose budget is spent (``connection``,
    ``address`` or ``table``); ``s == 0``: now."""

    s: float
    whose: str = ""


@dataclass(slots=True)
class _Record:
    wrong: int = 0
    until: float = 0.0


def _bucket(burst: int, every_s: float, now: float) -> Bucket:
    return Bucket.full(Limit(1.0 / every_s, float(burst)), now)


class GuessThrottle:
    """Whether a passphrase answer may be checked now, and what a wrong one spends."""

    def __init__(self, policy: GuessPolicy = GuessPolicy()) -> None:
        self.policy = policy
        self._keys: OrderedDict[str, _Record] = OrderedDict()
        self._addresses: OrderedDict[str, Bucket] = OrderedDict()
        self._table: Bucket | None = None
        self._newcomers: Bucket | None = None
        self.wrong = 0

    def _shared(self, now: float) -> tuple[Bucket, Bucket]:
        """The table's budget and the newcomers' (made on first use: ``now`` starts them)."""
        p = self.policy
        if self._table is None or self._newcomers is None:
            self._table = _bucket(p.table_burst, p.table_every_s, now)
            self._newcomers = _bucket(p.newcomer_burst, p.newcomer_every_s, now)
        return self._table, self._newcomers

    def wait(self, key: str, address: str | None, now: float, *, member: bool = False) -> Wait:
        """How long an answer from ``key`` at ``address`` (None: unknown, the table's budget
        alone applies) must wait before it is checked."""
        record = self._keys.get(key)
        own = 0.0 if record is None else max(0.0, record.until - now)
        if own > 0 or member:
            return Wait(own, "connection")
        table, newcomers = self._shared(now)
        at_table = table.ready_at(now) - now
        if address is None:
            return Wait(max(0.0, at_table), "table")
        mine = self._addresses.get(address)
        at_address = (mine or newcomers).ready_at(now) - now
        if at_address <= 0 or at_table <= 0:
            return Wait(0.0)
        # a known address has spent its own budget; a new one waits for the newcomers' or the
        # table's
        return Wait(min(at_address, at_table), "table" if mine is None else "address")

    def failed(self, key: str, address: str | None, now: float, *, member: bool = False) -> None:
        """A wrong answer from ``key`` at ``address``: its backoff grows, and the address's
        budget is spent (a new address's from the newcomers'), or else the table's."""
        self.wrong += 1
        p = self.policy
        record = self._keys.pop(key, None) or _Record()
        record.wrong += 1
        record.until = now + min(p.max_wait_s, p.first_wait_s * 2 ** (record.wrong - 1))
        self._keys[key] = record
        if len(self._keys) > p.max_keys:
            self._keys.popitem(last=False)
        if member:
            return
        table, newcomers = self._shared(now)
        if address is not None and self._spend_address(address, newcomers, now):
            return
        table.take(now)

    def _spend_address(self, address: str, newcomers: Bucket, now: float) -> bool:
        mine = self._addresses.pop(address, None)
        if mine is None:
            if not newcomers.take(now):
                return False
            p = self.policy
            mine = _bucket(p.address_burst, p.address_every_s, now)
        self._addresses[address] = mine  # (the most recently wrong is forgotten last)
        if len(self._addresses) > self.policy.max_addresses:
            self._addresses.popitem(last=False)
        return mine.take(now)

    def succeeded(self, key: str) -> None:
        """A right answer: that key starts afresh (nothing was spent for it)."""
        self._keys.pop(key, None)


def passphrase_advice(passphrase: str) -> str | None:
    """What to tell a host whose passphrase is easy to guess (None when it is not)."""
    words = passphrase.split()
    if len(passphrase) >= 16 or len(words) >= 3:
        return None
    kind = "a PIN" if passphrase.isdigit() else "a short passphrase"
    return (f"{kind} can be guessed: the host checks about one wrong guess a minute, so 4 digits "
            "last days (about a week from one machine, more than 4 days from many). Three or "
            "more random words (e.g. 'lamp otter quarry') are practically unguessable and "
            "easy to say aloud.")
