from __future__ import annotations

import asyncio

import pytest

from lanomino.client.local import LocalTable
from lanomino.client.seam import Headless
from lanomino.engine import Draw, End, Pass, Play, Rules, parse_tile
from lanomino.localgame import LocalMatch, decode_action, make_config
from lanomino.ui.settings import Settings
from lanomino.ui.state import UiState


def config(seed: int = 5, rules: Rules | None = None, players: int = 2):
    return make_config(rules or Rules.classic(), players, ("greedy",), "You", seed)


def test_same_seed_same_deal_and_different_seed_different_deal() -> None:
    a, b, c = LocalMatch(config(5)), LocalMatch(config(5)), LocalMatch(config(6))
    for m in (a, b, c):
        m.deal()
    assert a.state.hands == b.state.hands
    assert a.state.hands != c.state.hands


@pytest.mark.parametrize("text",
                         ["draw", "pass", "resign", "play 6-4", "play 6-4 left", "play 5-5 up"])
def test_moves_survive_their_text_form(text: str) -> None:
    assert str(decode_action(text)) == text


def test_bad_move_text_is_refused() -> None:
    for text in ["", "play", "play 7-7", "fly 6-4", "play 6-4 sideways"]:
        with pytest.raises(ValueError):
            decode_action(text)


def play_out(table: LocalTable, ui: UiState) -> None:
    """Play the human seat with the first legal move, the bots answering, until the match ends."""
    async def main() -> None:
        for _ in range(5000):
            if table.match.is_over:
                return
            while await table.step():
                pass
            obs = ui.obs
            assert obs is not None
            if obs.phase == "deal":
                table.next_hand()
            elif obs.is_my_turn:
                table.submit(obs.legal[0])
    asyncio.run(main())


def test_a_whole_match_saves_after_every_move_and_continues_exactly() -> None:
    saves: list[object] = []
    ui = UiState(settings=Settings(pause_s=0.0))
    match = LocalMatch(config(11, Rules.classic(target=50)))
    table = LocalTable(match, ui, saves.append, Headless())
    table.start()
    moves_before = len([e for e in match.log if e != "deal"])
    assert moves_before == 0 and len(saves) == 1
    play_out(table, ui)
    assert match.is_over and ui.match_result is not None
    assert saves[-1] is None  # a finished match leaves nothing to continue
    assert len(saves) == len(match.log)  # one save per deal and per move
    records = [s for s in saves if s is not None]
    assert len(records) == len(match.log) - 1
    # every save, replayed, gives the position that was on the screen then
    middle = records[len(records) // 2]
    again = LocalMatch.from_record(middle)
    assert again.log == middle["log"]
    replay = LocalMatch(match.config)
    for entry in middle["log"]:
        if entry == "deal":
            replay.deal()
        else:
            replay.apply(entry[0], decode_action(entry[1]))
    assert again.state.hands == replay.state.hands and again.state.scores == replay.state.scores


def test_damaged_save_is_refused_with_a_clear_error() -> None:
    match = LocalMatch(config())
    match.deal()
    record = match.to_record()
    record["log"].append([0, "play 6-6 up"])
    with pytest.raises(ValueError, match="damaged"):
        LocalMatch.from_record(record)
    with pytest.raises(ValueError):
        LocalMatch.from_record({"version": 99})


def test_illegal_human_move_changes_nothing_and_explains() -> None:
    ui = UiState(settings=Settings(pause_s=0.0))
    match = LocalMatch(config(3))
    table = LocalTable(match, ui, lambda r: None, Headless())
    table.start()
    before = list(match.log)
    table.submit(Pass())
    table.submit(Play(parse_tile("6-6"), End.UP))
    table.submit(Draw())
    assert match.log == before
    assert ui.message.startswith("you may not")
