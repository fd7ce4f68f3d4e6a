"""Online passphrase guessing, throttled per connection and per table. Pure.

A joiner proves it knows the table's passphrase with an HMAC over the host's challenge, so the
only way to guess is to ask the host, once per challenge. Without a limit a host answers about
1,800 guesses a second and a 4-digit PIN falls in seconds. Two limits apply to wrong answers:

* per connection key, an exponential backoff: after the n-th wrong answer that key waits
  ``first_wait_s * 2**(n-1)`` (at most ``max_wait_s``) before its next answer is checked;
* per table, a token bucket shared by every key: ``table_burst`` wrong answers at once, then one
  per ``table_every_s``. A guesser with many keys (cheap to make) still gets one guess a minute,
  so the 10,000 PINs of four digits take about a week, and a passphrase of three random words
  far longer than a match lasts.

A member of the match coming back (its identity key is already seated, which it proved by
signing the join) is held only by its own connection's backoff, never by the table's: a
stranger's guessing cannot lock a player out of its own seat. A newcomer may have to wait while
someone is guessing; the refusal says how long.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from lanomino.net.budget import Bucket, Limit

__all__ = ["GuessPolicy", "GuessThrottle", "passphrase_advice"]


@dataclass(frozen=True, slots=True)
class GuessPolicy:
    first_wait_s: float = 1.0
    max_wait_s: float = 60.0
    table_burst: int = 5
    table_every_s: float = 60.0
    max_keys: int = 1024  # connection keys remembered (the oldest are forgotten first)


@dataclass(slots=True)
class _Record:
    wrong: int = 0
    until: float = 0.0


class GuessThrottle:
    """Whether a passphrase answer may be checked now, and the backoff after wrong ones."""

    def __init__(self, policy: GuessPolicy = GuessPolicy()) -> None:
        self.policy = policy
        self._keys: OrderedDict[str, _Record] = OrderedDict()
        self._table: Bucket | None = None
        self.wrong = 0

    def _bucket(self, now: float) -> Bucket:
        if self._table is None:
            p = self.policy
            self._table = Bucket.full(Limit(1.0 / p.table_every_s, float(p.table_burst)), now)
        return self._table

    def wait_s(self, key: str, now: float, *, member: bool = False) -> float:
        """How long ``key`` must wait before its next answer is checked (0: now)."""
        record = self._keys.get(key)
        own = 0.0 if record is None else max(0.0, record.until - now)
        if member:
            return own
        table = self._bucket(now).ready_at(now) - now
        return max(own, table)

    def failed(self, key: str, now: float, *, member: bool = False) -> None:
        """A wrong answer from ``key``: its backoff grows and the table's budget is spent."""
        self.wrong += 1
        record = self._keys.pop(key, None) or _Record()
        record.wrong += 1
        p = self.policy
        record.until = now + min(p.max_wait_s, p.first_wait_s * 2 ** (record.wrong - 1))
        self._keys[key] = record
        if len(self._keys) > p.max_keys:
            self._keys.popitem(last=False)
        if not member:
            self._bucket(now).take(now)

    def succeeded(self, key: str) -> None:
        """A right answer: that key starts afresh."""
        self._keys.pop(key, None)


def passphrase_advice(passphrase: str) -> str | None:
    """What to tell a host whose passphrase is easy to guess (None when it is not)."""
    words = passphrase.split()
    if len(passphrase) >= 16 or len(words) >= 3:
        return None
    kind = "a PIN" if passphrase.isdigit() else "a short passphrase"
    return (f"{kind} can be guessed: the host allows about one wrong guess a minute, so 4 digits "
            "last about a week. Three or more random words (e.g. 'lamp otter quarry') are "
            "practically unguessable and easy to say aloud.")
