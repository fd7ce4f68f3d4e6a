"""The words a newcomer tripped over (issue 30, items 18 and 19), each where it is made."""

from __future__ import annotations

from lanomino.engine import HandEnd, HandEnded, HandTally, Rules, Tile
from lanomino.engine.line import Line
from lanomino.fair.report import HandReport
from lanomino.narrate import Cast, final_result, hand_end_sentence, hand_points
from lanomino.ui.lan import LanView, SeatInfo
from lanomino.ui.table_words import ends_count

PAIR = ("Tess", "Ana")


def test_going_out_over_only_blanks_scores_nothing_in_plain_words() -> None:
    ended = HandEnded(1, HandEnd.DOMINO, 1, (0, 0), (0, 0), ((Tile(0, 0),), ()),
                      HandTally(1, 0, 0, 0, 0))
    assert hand_end_sentence(ended, Cast(PAIR, Rules.preset("classic"), you=0)) == (
        "Ana went out and scores nothing: the tiles you have left hold no pips.")


def test_a_blocked_hand_of_two_names_the_other_player_not_the_others() -> None:
    ended = HandEnded(1, HandEnd.BLOCKED, 0, (10, 0), (0, 10), ((), ()),
                      HandTally(None, 10, 0, 10, 10))
    said = hand_end_sentence(ended, Cast(PAIR, Rules.preset("block"), you=0))
    assert said.endswith("score 10: Ana's 10 pips minus your 0.") and "others" not in said
    three = HandEnded(1, HandEnd.BLOCKED, 0, (12, 0, 0), (0, 5, 7), ((),) * 3,
                      HandTally(None, 12, 0, 12, 12))
    assert "the others' 12 pips" in hand_end_sentence(
        three, Cast(("Tess", "Ana", "Ben"), Rules.preset("block"), you=0))


def test_a_name_that_ends_in_a_number_keeps_apart_from_its_points() -> None:
    names = ("Tess", "normal bot 1")
    ended = HandEnded(1, HandEnd.DOMINO, 0, (35, 5), (0, 27), ((), ()),
                      HandTally(0, 27, 0, 27, 25))
    cast = Cast(names, Rules.preset("allfives"), you=0)
    assert hand_points(ended, cast) == ["You 35 (25 for the pips, 10 for the ends)",
                                        "normal bot 1: 5 (5 for the ends)"]
    assert final_result(0, (61, 40), cast) == "you won: you 61, normal bot 1: 40"


def test_the_all_fives_opening_line_names_the_tile() -> None:
    from lanomino.engine import End

    double, plain = Line(fives=True), Line(fives=True)
    double.place_first(Tile(6, 6), End.LEFT)
    plain.place_first(Tile(5, 0), End.LEFT)
    assert ends_count(double) == "ends 6-6 = 12: no score"  # never "ends 12 = 12"
    assert ends_count(plain) == "ends 5 + 0 = 5: scores 5"


def test_the_waiting_line_says_when_every_seat_is_taken() -> None:
    lan = LanView("host", "Kitchen", seats=2,
                  roster=[SeatInfo(0, "Me", "host"), SeatInfo(1, "Bea", "human")])
    assert lan.waiting_line() == "every seat is taken (2/2): the match starts"
    lan.roster = lan.roster[:1]
    assert lan.waiting_line() == "waiting for players (1/2)"


def test_the_deal_check_calls_the_match_totals_so_and_no_commitments() -> None:
    one = HandReport(hand=2, attempts=1, commitments=3, tiles=28, draws=1, scores=(61, 0, 15))
    assert one.describe() == ("hand 2: fair: shuffled by 3 players, 28 tiles, 1 draw, "
                              "match totals 61-0-15")


def test_a_tile_that_fits_two_places_names_them_as_a_player_would() -> None:
    import pytest
    from tablekit import game, play

    from lanomino.engine import End, observe
    from lanomino.lines.moves import play_for
    from lanomino.lines.say import Voice
    from lanomino.lines.typed import CommandError, parse_command

    rules = Rules.preset("allfives")
    state = game(rules, ["5-5 5-2 4-4 0-0 6-0 6-1 6-2", "5-1 3-1 5-3 1-0 2-0 3-0 4-0"])
    for seat, tile, end in ((0, "5-5", None), (1, "5-1", End.LEFT), (0, "5-2", End.RIGHT),
                            (1, "3-1", End.LEFT), (0, "6-2", End.RIGHT)):
        play(state, seat, tile, end)
    obs = observe(state, 1)
    with pytest.raises(CommandError) as asked:
        play_for(obs, Voice(PAIR, me=1, rules=rules), parse_command("play 5-3"), "")
    assert str(asked.value) == ("5-3 fits on the left end or the spinner's up arm: say play 5-3 "
                                "left, or play 5-3 up.")


def test_a_wrong_passphrase_counts_its_wrong_answers_in_words() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
    from sessionkit import Table

    from lanomino.net.session import JoinRefused

    table = Table(Rules.preset("classic", target=30), 2, peers=0, passphrase="kitchen")
    wrong = table.add_peer("mallory", passphrase="garden")
    table.run(lambda: False, max_time=0.5)
    [refused] = [e for e in wrong.events if isinstance(e, JoinRefused)]
    assert refused.reason == "wrong passphrase (1 wrong answer so far)"
