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


async def _settled(table: LocalTable, timeout_s: float = 10.0) -> bool:
    """Wait until no automatic move is due (the player's turn with a tile that fits, or the end
    of the hand); False if the computer stopped moving before that."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while asyncio.get_running_loop().time() < deadline:
        state, obs = table.match.state, table.match.observe()
        stuck = obs.is_my_turn and not any(isinstance(a, Play) for a in obs.legal)
        if state.phase.value != "play" or (obs.is_my_turn and not stuck):
            return True
        if table.match.bot_to_move() is None and not table.ui.settings.auto_draw:
            return True
        await asyncio.sleep(0.01)
    return False


def test_a_move_made_while_a_bot_thinks_does_not_stop_the_computer() -> None:
    """The player resigns while a computer seat is thinking: the answer is stale and dropped,
    and the loop that was still running looks again (resign found it running and started none)."""
    ui = UiState(settings=Settings(pause_s=0.2))
    table = LocalTable(LocalMatch(config(3, players=3)), ui, lambda r: None, Headless())

    async def main() -> None:
        table.start()
        for _ in range(50):
            obs = table.match.observe()
            if table.match.bot_to_move() is not None and ui.thinking is not None:
                break
            if obs.is_my_turn:
                table.submit(obs.legal[0])
            await asyncio.sleep(0.01)
        assert ui.thinking is not None, "no computer seat started thinking"
        moves = len(table.match.log)
        table.resign()  # while the bot sleeps before answering
        assert await _settled(table), f"the computer stopped: {table.match.state}"
        assert len(table.match.log) > moves + 1  # the others played on after the resignation
        table.stop()
    asyncio.run(main())


def test_the_player_drawing_by_hand_during_an_auto_draw_pause_does_not_stop_the_computer() -> None:
    """With auto-draw on, the player presses draw (and plays) during the pause before the
    automatic draw: that answer is stale, and the computer still moves afterwards."""
    for seed in range(1, 200):
        ui = UiState(settings=Settings(pause_s=0.4, auto_draw=True))
        table = LocalTable(LocalMatch(config(seed)), ui, lambda r: None, Headless())
        if _race_a_manual_draw(table, ui):
            return
    pytest.fail("no seed gave a player who must draw at the start")


def _race_a_manual_draw(table: LocalTable, ui: UiState) -> bool:
    """Draw by hand while the auto-draw pause runs; False when this deal never needs a draw."""
    async def main() -> bool:
        table.start()
        for _ in range(100):  # until the player's first turn
            obs = table.match.observe()
            if obs.is_my_turn:
                break
            await asyncio.sleep(0.01)
        if any(isinstance(a, Play) for a in obs.legal) or Draw() not in obs.legal:
            table.stop()
            return False  # not stuck at the first turn: try another deal
        await asyncio.sleep(0)  # the loop is now in its auto-draw pause
        table.submit(Draw())  # by hand, during the pause: the automatic draw goes stale
        legal = table.match.observe().legal
        if not any(isinstance(a, Play) for a in legal):
            table.stop()
            return False  # still stuck: try another deal
        table.submit(next(a for a in legal if isinstance(a, Play)))
        assert table.match.bot_to_move() is not None or table.match.state.phase.value != "play"
        assert await _settled(table), f"the computer stopped: {table.match.state}"
        table.stop()
        return True
    return asyncio.run(main())
