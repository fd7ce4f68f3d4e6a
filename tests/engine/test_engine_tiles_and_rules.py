"""The set of tiles and the rule options (seed 003 'The tiles', the issue's option table)."""

from __future__ import annotations

import pickle

import pytest

from lanomino.engine import PRESETS, TILES, Rules, RulesError, TileError, parse_tile, rules_from_cli
from lanomino.engine.tiles import heavier


def test_double_six_set_has_28_tiles_168_pips_and_7_per_number() -> None:
    assert len(TILES) == 28
    assert len(set(TILES)) == 28
    assert sum(t.pips for t in TILES) == 168
    for number in range(7):
        assert sum(1 for t in TILES if t.has(number)) == 7
    assert sum(1 for t in TILES if t.is_double) == 7


def test_tiles_with_a_three_are_the_seven_listed_in_seed_001() -> None:
    threes = {str(t) for t in TILES if t.has(3)}
    assert threes == {"3-0", "3-1", "3-2", "3-3", "4-3", "5-3", "6-3"}


def test_tile_worth_is_its_pip_total() -> None:
    assert parse_tile("6-4").pips == 10
    assert parse_tile("0-0").pips == 0
    assert max(TILES, key=lambda t: t.pips) == parse_tile("6-6")


def test_tile_parses_in_either_order_and_prints_high_first() -> None:
    assert parse_tile("3-5") == parse_tile("5-3")
    assert str(parse_tile("3-5")) == "5-3"
    assert repr(parse_tile("5-3")) == "Tile(5, 3)"


@pytest.mark.parametrize("text", ["7-1", "6", "a-b", "6-4-1", "", "-1-2"])
def test_bad_tile_text_is_refused(text: str) -> None:
    with pytest.raises(TileError):
        parse_tile(text)


def test_six_three_beats_five_four_as_heaviest() -> None:
    assert heavier(parse_tile("6-3"), parse_tile("5-4"))
    assert not heavier(parse_tile("5-4"), parse_tile("6-3"))


def test_presets_match_the_issue() -> None:
    classic = Rules.preset("classic")
    assert (classic.game, classic.target, classic.partnership) == ("draw", 100, False)
    assert Rules.preset("block").game == "block"
    fives = Rules.preset("allfives")
    assert (fives.game, fives.target, fives.round_to_5) == ("allfives", 150, True)
    team = Rules.preset("partnership")
    assert (team.partnership, team.target, team.next_opener) == (True, 100, "left-of-last")
    assert team.game in ("block", "allfives")
    assert set(PRESETS) == {"classic", "block", "allfives", "partnership"}


def test_default_hand_sizes_follow_player_count() -> None:
    rules = Rules.preset("classic")
    assert [rules.hand_size_for(n) for n in (2, 3, 4)] == [7, 5, 5]
    assert Rules.preset("partnership").hand_size_for(4) == 7


@pytest.mark.parametrize(
    "overrides",
    [
        {"game": "poker"},
        {"target": -1},
        {"boneyard_reserve": 3},
        {"no_double": "cry"},
        {"next_opener": "loser"},
        {"hand_size": 0},
        {"draw_when_playable": "yes"},
        {"nonsense": 1},
    ],
)
def test_impossible_option_values_raise_rules_error(overrides: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Rules.preset("classic", **overrides)


def test_impossible_combinations_raise_rules_error() -> None:
    with pytest.raises(RulesError, match="partnership"):
        Rules.preset("partnership", game="draw")
    with pytest.raises(RulesError, match="hand_size"):
        Rules.preset("partnership", hand_size=5)
    with pytest.raises(RulesError, match="draw_when_playable"):
        Rules.preset("block", draw_when_playable=True)
    with pytest.raises(RulesError, match="round_to_5"):
        Rules.preset("classic", round_to_5=True)
    with pytest.raises(RulesError, match="4 players"):
        Rules.preset("partnership").check_players(3)
    with pytest.raises(RulesError):
        Rules.preset("classic").check_players(5)
    with pytest.raises(RulesError, match="tiles"):
        Rules.preset("classic", hand_size=8).check_players(4)


def test_unknown_preset_names_the_presets() -> None:
    with pytest.raises(RulesError, match="classic"):
        Rules.preset("mexican-train")


def test_rules_from_cli_parses_values_and_refuses_bad_ones() -> None:
    rules = rules_from_cli(
        "classic",
        ["target=61", "blocked_scoring=total", "draw_when_playable=yes", "hand_size=null"],
    )
    assert (rules.target, rules.blocked_scoring, rules.draw_when_playable) == (61, "total", True)
    with pytest.raises(RulesError, match="whole number"):
        rules_from_cli("classic", ["target=lots"])
    with pytest.raises(RulesError, match="name=value"):
        rules_from_cli("classic", ["target"])
    with pytest.raises(RulesError, match="unknown rule option"):
        rules_from_cli("classic", ["colour=red"])


@pytest.mark.parametrize(
    ("preset", "settings"),
    [
        # seed 000: total for a blocked hand, a tied block moves the lead on, target 50/100/150
        ("classic", ["blocked_scoring=total", "no_winner_opener=next-seat", "target=50"]),
        # seed 001: highest double opens every hand, target 61 with three or four
        ("classic", ["next_opener=highest-double", "target=61"]),
        # seed 002: reshuffle when nobody holds a double, lightest tile breaks a blocked tie
        ("classic", ["no_double=reshuffle", "blocked_tie=lightest-tile"]),
        # seed 003: all four presets as they are
        ("allfives", []),
        # seed 004: two players, alternating opener
        ("classic", ["next_opener=alternate", "target=150"]),
        ("allfives", ["next_opener=alternate"]),
    ],
)
def test_every_seed_table_is_a_valid_rules_line(preset: str, settings: list[str]) -> None:
    rules = rules_from_cli(preset, settings)
    assert Rules.from_spec(rules.to_spec(preset)) == rules


def test_rules_spec_round_trips_for_every_preset() -> None:
    for name in PRESETS:
        rules = Rules.preset(name, target=77)
        spec = rules.to_spec(name)
        assert spec == {"preset": name, "target": 77}
        assert Rules.from_spec(spec) == rules


def test_rules_pickle_as_their_constructor_call() -> None:
    # The benchmarks hand rules to worker processes; compiled, a frozen class cannot be unpickled
    # field by field (Rules.__reduce__).
    for rules in (Rules.classic(), Rules.preset("allfives", target=50), Rules.partnership_game()):
        again = pickle.loads(pickle.dumps(rules))
        assert again == rules and type(again) is Rules
