"""The messages' bytes: each value round-trips, and a short, long or malformed one is refused."""

from __future__ import annotations

import pytest
from blindkit import run_deal

from lanomino.blind.group import BlindError
from lanomino.blind.rounds import (
    KeyAnnouncement,
    Reveal,
    Share,
    ShuffleTurn,
    shares_from_bytes,
    shares_to_bytes,
)


def test_every_message_round_trips_and_bad_bytes_are_refused() -> None:
    dealt = run_deal(2)
    key = dealt.holders[1].announce()
    turn = dealt.round.turns[0]
    batch = dealt.round.shares[0]
    reveal = dealt.holders[0].reveal()
    assert KeyAnnouncement.from_bytes(key.to_bytes()) == key
    assert ShuffleTurn.from_bytes(turn.to_bytes(), 28) == turn
    assert shares_from_bytes(shares_to_bytes(batch)) == batch
    assert Reveal.from_bytes(reveal.to_bytes()) == reveal
    for parse, data in ((KeyAnnouncement.from_bytes, key.to_bytes()),
                        (Share.from_bytes, batch[0].to_bytes()),
                        (Reveal.from_bytes, reveal.to_bytes()),
                        (shares_from_bytes, shares_to_bytes(batch))):
        with pytest.raises(BlindError):
            parse(data[:-1])
        with pytest.raises(BlindError):
            parse(data + b"\0")
    with pytest.raises(BlindError):
        ShuffleTurn.from_bytes(turn.to_bytes()[:-1], 28)
    with pytest.raises(BlindError):
        ShuffleTurn.from_bytes(turn.to_bytes(), 55)
    broken = bytearray(batch[0].to_bytes())
    broken[2] ^= 1  # the share's point is no longer a point
    with pytest.raises(BlindError):
        Share.from_bytes(bytes(broken))
