"""A person playing the host's own seat at a locked table (net/host/blind.py, blind/table_hand.py),
in memory through the real codec. The host's program holds that seat's tiles, so it checks what
only those tiles decide before the move goes out: a draw while a tile fits is refused on the
spot (it was once passed on and the honest host named a cheat at the hand's end), and while
the tile it drew is still opening its turn offers no move and refuses one. Once open, the tile is
in the hand and the draw's event shows it, as a peer's screen shows its own draws."""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table  # noqa: E402

from lanomino.engine import Draw, Observation, Pass, Play, Rules, TileDrawn  # noqa: E402
from lanomino.engine.errors import IllegalActionError  # noqa: E402
from lanomino.net.session import MatchOver  # noqa: E402


def test_the_host_person_draws_only_when_nothing_fits_and_sees_each_drawn_tile() -> None:
    t = Table(Rules.preset("classic", target=60), 2, blind=True, seed=3)
    host = t.host
    host.shared.local[0] = replace(host.shared.local[0], policy=None)  # a person, by a UI
    rng = random.Random(3)
    refused_draw = opening_seen = opened_seen = 0

    def mine() -> Observation | None:
        s = host.shared
        if s.state is None or s.phase.value != "play" or s.state.turn != 0:
            return None
        return s.observe(s.state, 0)

    while not t.over():
        t.run(lambda: mine() is not None or t.over(), max_time=60)
        obs = mine()
        if obs is None:
            continue
        if not obs.legal:  # its drawn tile still opening: no move yet, and one is refused
            opening_seen += 1
            assert isinstance(obs.history[-1], TileDrawn) and obs.history[-1].tile is None
            with pytest.raises(IllegalActionError, match="still opening"):
                host.submit(Draw(), t.now)
            t.run(lambda: bool((o := mine()) and o.legal) or t.over(), max_time=60)
            continue
        plays = [a for a in obs.legal if isinstance(a, Play)]
        if plays and obs.drawable:  # a tile fits: a draw is refused, and changes nothing
            before = len(obs.history)
            with pytest.raises(IllegalActionError, match="not a legal move"):
                host.submit(Draw(), t.now)
            after = mine()
            assert after is not None and len(after.history) == before
            refused_draw += 1
        action = rng.choice(plays) if plays else next(
            a for a in obs.legal if isinstance(a, Draw | Pass))
        host.submit(action, t.now)
        if isinstance(action, Draw):
            drawn = mine()
            if drawn is not None and drawn.legal:  # (open at once: the only other holder
                opened_seen += 1                   #  answered within the step)
                assert isinstance(drawn.history[-1], TileDrawn)
                assert drawn.history[-1].tile in drawn.hand
    over = [e for e in t.slots[0].events if isinstance(e, MatchOver)]
    assert over and over[-1].verified, over
    assert refused_draw and opening_seen, (refused_draw, opening_seen, opened_seen)


def test_the_host_person_sees_how_many_tiles_each_other_seat_holds() -> None:
    """The host's seat at a locked table counts the others' tiles from the public view (its
    screen said '0 tiles' for every other seat: only its own tiles were in its observation)."""
    t = Table(Rules.preset("classic", target=60), 2, blind=True, seed=3)
    host, peer = t.host, t.slots[0]
    host.shared.local[0] = replace(host.shared.local[0], policy=None)  # a person, by a UI
    seen = 0
    while not t.over() and seen < 6:
        t.run(lambda: (s := host.shared).state is not None and s.phase.value == "play"
              and s.state.turn == 0 and bool(s.observe(s.state, 0).legal) or t.over(),
              max_time=60)
        s = host.shared
        if t.over() or s.state is None:
            break
        obs = s.observe(s.state, 0)
        assert peer.session.view is not None
        theirs = peer.session.view.observation()
        assert obs.hand_sizes == (len(obs.hand), len(theirs.hand)), (obs.hand_sizes, seen)
        assert theirs.hand_sizes == obs.hand_sizes
        seen += 1
        host.submit(obs.legal[0], t.now)
    assert seen >= 3
