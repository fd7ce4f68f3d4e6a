"""The offline verifier of a locked hand, on whole hands played in memory: honest hands check
out; each kind of lie names its signer, judged in order."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from blindkit import play_hand, run_deal

from lanomino.blind.group import BlindError
from lanomino.blind.hand_check import check_blind_hand
from lanomino.blind.hand_record import (
    BlindHand,
    BlindMove,
    NotMe,
    Resignation,
    ShuffleEntry,
    format_blind_hand,
    parse_blind_hand,
)
from lanomino.blind.rounds import Reveal
from lanomino.engine import DRAW, PASS, TILES, Draw, Play


@pytest.fixture(scope="module")
def three() -> tuple[BlindHand, object]:
    return play_hand(3, rng_seed=5)


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (3, 2), (4, 3), (4, 4)])
def test_honest_hands_check_out(n: int, seed: int) -> None:
    record, before = play_hand(n, rng_seed=seed)
    verdict = check_blind_hand(record, before)
    assert verdict.ok, verdict.describe()
    assert sorted(verdict.tiles) == list(range(28))
    assert any(isinstance(m.action, Play) for m in record.moves)


def test_the_record_round_trips_through_json(three) -> None:  # type: ignore[no-untyped-def]
    record, _ = three
    text = json.dumps(format_blind_hand(record))
    assert parse_blind_hand(json.loads(text)) == record


def test_malformed_records_are_refused(three) -> None:  # type: ignore[no-untyped-def]
    record, _ = three
    obj = format_blind_hand(record)
    for key, value in (("format", "lanomino.transcript/1"), ("table", "zz"), ("hand", -1),
                       ("keys", ["00"]), ("moves", [{"seat": 0, "fly": True}]),
                       ("opening", [{"seat": 0, "not_me": "7-7"}]), ("points", "12")):
        with pytest.raises(BlindError):
            parse_blind_hand({**obj, key: value})


def verdict_of(record: BlindHand, before: object) -> tuple[str, int | None, str]:
    v = check_blind_hand(record, before)  # type: ignore[arg-type]
    return v.check, v.culprit, v.reason


def test_a_bad_key_proof_names_its_holder(three) -> None:  # type: ignore[no-untyped-def]
    record, before = three
    key = record.keys[1]
    forged = replace(key, proof=replace(key.proof, s=key.proof.s + 1))
    keys = (record.keys[0], forged, record.keys[2])
    assert verdict_of(replace(record, keys=keys), before)[:2] == ("keys", 1)


def test_a_withheld_or_false_key_names_its_holder(three) -> None:  # type: ignore[no-untyped-def]
    record, before = three
    assert verdict_of(replace(record, reveals=record.reveals[:2]), before)[:2] == ("reveal", 2)
    lie = Reveal(0, record.reveals[0].secret + 1, record.reveals[0].seed)
    reveals = (lie, *record.reveals[1:])
    check, culprit, reason = verdict_of(replace(record, reveals=reveals), before)
    assert (check, culprit) == ("reveal", 0) and "not its key" in reason


def test_a_seed_that_does_not_reproduce_the_signed_deck_names_the_shuffler(three) -> None:  # type: ignore[no-untyped-def]
    record, before = three
    reveals = list(record.reveals)
    reveals[1] = replace(reveals[1], seed=bytes(32))
    check, culprit, reason = verdict_of(replace(record, reveals=tuple(reveals)), before)
    assert (check, culprit, reason) == ("shuffle", 1, "its seed does not reproduce the deck it "
                                        "signed")
    reveals[1] = replace(reveals[1], seed=None)
    check, culprit, reason = verdict_of(replace(record, reveals=tuple(reveals)), before)
    assert (check, culprit, reason) == ("shuffle", 1, "withheld its shuffle seed")


def test_a_lost_seed_is_made_good_by_the_stored_argument_and_a_bad_one_is_named() -> None:
    record, before = play_hand(3, rng_seed=5)
    dealt = run_deal(3)  # the same seeds: the same turns as the record's
    reveals = list(record.reveals)
    reveals[2] = replace(reveals[2], seed=None)
    entries = list(record.shuffles)
    entries[2] = replace(entries[2], turn=dealt.round.turns[2])
    lost = replace(record, reveals=tuple(reveals), shuffles=tuple(entries))
    assert check_blind_hand(lost, before).ok
    assert parse_blind_hand(json.loads(json.dumps(format_blind_hand(lost)))) == lost
    turn = dealt.round.turns[2]
    forged = replace(turn, argument=replace(turn.argument, s1=turn.argument.s1 + 1))
    entries[2] = ShuffleEntry.of(forged, keep=True)  # the shuffler signed a bad argument
    bad = replace(lost, shuffles=tuple(entries))
    check, culprit, reason = verdict_of(bad, before)
    assert (check, culprit) == ("shuffle", 2) and "argument does not hold" in reason
    entries[2] = replace(lost.shuffles[2], turn=forged)  # the host kept another argument
    check, culprit, reason = verdict_of(replace(lost, shuffles=tuple(entries)), before)
    assert (check, culprit) == ("shuffle", lost.host) and "not the one it signed" in reason


def test_a_false_not_me_names_its_signer(three) -> None:  # type: ignore[no-untyped-def]
    record, before = three
    tiles = check_blind_hand(record, before).tiles
    seat_two_tile = TILES[tiles[10]]  # seat 2's first dealt position (hands of 5)
    lie = (*record.opening, NotMe(2, seat_two_tile))
    check, culprit, reason = verdict_of(replace(record, opening=lie), before)
    assert (check, culprit) == ("opening", 2) and str(seat_two_tile) in reason


def first(record: BlindHand, kind: type) -> int:
    return next(i for i, m in enumerate(record.moves) if isinstance(m.action, kind))


def test_a_play_from_a_position_the_seat_does_not_hold_names_it(three) -> None:  # type: ignore[no-untyped-def]
    record, before = three
    i = first(record, Play)
    move = record.moves[i]
    elsewhere = next(p for p in range(15) if p // 5 != move.seat)
    moves = list(record.moves)
    moves[i] = replace(move, position=elsewhere)
    check, culprit, reason = verdict_of(replace(record, moves=tuple(moves)), before)
    assert (check, culprit) == ("moves", move.seat) and "does not hold" in reason


def test_a_draw_at_the_wrong_position_names_the_host() -> None:
    record, before = next(r for r in (play_hand(2, rng_seed=s) for s in range(1, 30))
                          if any(isinstance(m.action, Draw) for m in r[0].moves))
    i = first(record, Draw)
    moves = list(record.moves)
    moves[i] = replace(moves[i], position=(moves[i].position or 0) + 1)
    assert verdict_of(replace(record, moves=tuple(moves)), before)[:2] == ("moves", record.host)


def test_a_false_i_cannot_play_names_its_signer() -> None:
    """A seat that could play says it cannot and draws (or passes): found at the hand's end."""
    record, before = play_hand(2, rng_seed=3)
    later = [i for i, m in enumerate(record.moves) if isinstance(m.action, Play) and i > 0]
    i = later[0]
    seat = record.moves[i].seat
    next_position = 14 + sum(isinstance(m.action, Draw) for m in record.moves[:i])
    lie = BlindMove(seat, DRAW, next_position)
    check, culprit, reason = verdict_of(replace(record, moves=(*record.moves[:i], lie)), before)
    assert (check, culprit) == ("moves", seat), reason
    assert f"seat {seat + 1} may not draw" in reason and "fits" in reason, reason


def test_a_move_the_public_facts_refuse_names_the_host_that_let_it_in() -> None:
    """The host runs the rules on public state: a pass while the boneyard has tiles, a move out
    of turn, a tile that does not match the line are its to refuse, so its fault when logged."""
    record, before = play_hand(2, rng_seed=3)
    i = next(i for i, m in enumerate(record.moves) if isinstance(m.action, Play) and i > 0)
    seat = record.moves[i].seat
    next_position = 14 + sum(isinstance(m.action, Draw) for m in record.moves[:i])
    for lie, why in ((BlindMove(seat, PASS), "the boneyard has tiles to draw"),
                     (BlindMove(1 - seat, DRAW, next_position), f"seat {seat + 1}'s turn")):
        check, culprit, reason = verdict_of(
            replace(record, moves=(*record.moves[:i], lie)), before)
        assert (check, culprit) == ("moves", record.host), reason
        assert why in reason and "the table could see" in reason, reason


def test_points_other_than_the_hands_name_the_host(three) -> None:  # type: ignore[no-untyped-def]
    record, before = three
    points = tuple(p + 1 if i == 0 else p for i, p in enumerate(record.points))
    check, culprit, _ = verdict_of(replace(record, points=points), before)
    assert (check, culprit) == ("score", record.host)
    check, culprit, _ = verdict_of(replace(record, moves=record.moves[:-1]), before)
    assert (check, culprit) == ("score", record.host)


def test_the_passes_that_find_a_blocked_hand_are_true_and_nothing_else_may_follow() -> None:
    """The engine, knowing every hand, ends a blocked hand at once; the table learns it as every
    seat passes in turn. Those passes check out; a play after the end names the host."""
    blocked = None
    for seed in range(1, 80):
        record, before = play_hand(3, rng_seed=seed)
        verdict = check_blind_hand(record, before)
        assert verdict.ok
        last = record.moves[-1]
        mine = [m.action for m in record.moves if m.seat == last.seat]
        held = 5 + sum(isinstance(a, Draw) for a in mine) - sum(isinstance(a, Play) for a in mine)
        if held:  # the last mover did not go out: the hand was blocked
            blocked = (record, before, last)
            break
    assert blocked is not None, "no blocked hand among the seeds"
    record, before, last = blocked
    passes = tuple(BlindMove((last.seat + k) % 3, PASS) for k in range(1, 4))
    assert check_blind_hand(replace(record, moves=record.moves + passes), before).ok
    play = next(m for m in record.moves if isinstance(m.action, Play))
    check, culprit, reason = verdict_of(replace(record, moves=record.moves + (play,)), before)
    assert (check, culprit) == ("moves", record.host) and "after the hand ended" in reason


# ----- resignations ----------------------------------------------------------------------------


def test_a_hand_with_a_seat_s_own_resignation_checks_out_and_round_trips() -> None:
    record, before = play_hand(3, rng_seed=5, resign=Resignation(2, 3))
    assert record.resignations == (Resignation(2, 3),)
    verdict = check_blind_hand(record, before)
    assert verdict.ok, verdict.describe()
    assert all(m.seat != 2 for m in record.moves[3:])  # the seat left: the others play on
    text = json.dumps(format_blind_hand(record))
    assert parse_blind_hand(json.loads(text)) == record
    assert "resignations" not in format_blind_hand(replace(record, resignations=()))


def test_a_resignation_that_leaves_one_side_ends_the_hand_and_nothing_may_follow() -> None:
    record, before = play_hand(2, rng_seed=3, resign=Resignation(1, 2))
    assert len(record.moves) == 2 and record.resignations == (Resignation(1, 2),)
    assert check_blind_hand(record, before).ok
    later = BlindMove(0, PASS)
    check, culprit, reason = verdict_of(replace(record, moves=(*record.moves, later)), before)
    assert (check, culprit) == ("moves", record.host) and "after the hand ended" in reason


def test_the_host_signs_a_resignation_only_for_a_seat_that_left_or_one_away_on_a_clock() -> None:
    seat_signed, before = play_hand(3, rng_seed=5, resign=Resignation(2, 3))
    left = replace(seat_signed, resignations=(Resignation(2, 3, "left"),))
    assert check_blind_hand(left, before).ok
    away = replace(seat_signed, resignations=(Resignation(2, 3, "away"),))
    assert check_blind_hand(away, before, clock=True).ok
    check, culprit, reason = verdict_of(away, before)
    assert (check, culprit) == ("moves", away.host) and "without a move clock" in reason


def test_a_resignation_the_engine_refuses_names_its_signer() -> None:
    record, before = play_hand(3, rng_seed=5, resign=Resignation(2, 3))
    twice = (Resignation(2, 3), Resignation(2, 4))
    check, culprit, reason = verdict_of(replace(record, resignations=twice), before)
    assert (check, culprit) == ("moves", 2) and "not in the match" in reason
    by_host = (Resignation(2, 3), Resignation(2, 4, "left"))
    host = record.host
    assert verdict_of(replace(record, resignations=by_host), before)[:2] == ("moves", host)


def test_a_moved_or_dropped_resignation_does_not_verify() -> None:
    record, before = play_hand(3, rng_seed=5, resign=Resignation(2, 3))
    assert not check_blind_hand(replace(record, resignations=()), before).ok
    assert not check_blind_hand(replace(record, resignations=(Resignation(2, 5),)), before).ok
    assert not check_blind_hand(replace(record, resignations=(Resignation(1, 3),)), before).ok


def test_malformed_resignations_are_refused(three) -> None:  # type: ignore[no-untyped-def]
    record, _ = three
    obj = format_blind_hand(record)
    moves = len(record.moves)
    for value in ([{"seat": 0, "at": 1}], [{"seat": 0, "at": 1, "by": "bot"}],
                  [{"seat": 0, "at": moves + 1, "by": "seat"}], "none",
                  [{"seat": 0, "at": 3, "by": "seat"}, {"seat": 1, "at": 2, "by": "seat"}]):
        with pytest.raises(BlindError):
            parse_blind_hand({**obj, "resignations": value})
