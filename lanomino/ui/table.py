"""The table during a hand: the others, the line of play, your hand, the message and the log."""

from __future__ import annotations

import math
import time

from lanomino.engine import End, Observation
from lanomino.narrate import Cast, dealt_again, event_lines
from lanomino.ui.board import draw_line, line_view, tracks
from lanomino.ui.chrome import fit, footer, header, wrap
from lanomino.ui.helptext import describe_game
from lanomino.ui.render import Canvas, draw_hand
from lanomino.ui.state import UiState, out_of_time, place_label, playable, seat_name
from lanomino.ui.table_words import auto_draw_note, ends_count, last_action

BOARD_MIN = 11  # rows the line of play keeps before the log may grow
LOG_MAX = 8


def cast_of(ui: UiState, obs: Observation) -> Cast:
    """The people at this table, with the human seat as 'you'."""
    names = tuple(seat_name(ui, s) for s in range(obs.players))
    gone = tuple(sorted(ui.lan.departures.items())) if ui.lan is not None else ()
    return Cast(names, obs.rules, obs.seat, departures=gone)


def table_header(ui: UiState, canvas: Canvas, obs: Observation, over: int | None = None) -> None:
    """The table's header: where, the game, the hand (``over``: the hand that just ended) and,
    when the rules draw, the boneyard."""
    where = f"{ui.lan.table} · " if ui.lan is not None else ""
    if ui.lan is not None and ui.lan.host_note:
        where += f"{ui.lan.host_note} · "
    if ui.lan is not None and ui.lan.watchers:
        where += f"{ui.lan.watchers} watching · "
    if ui.lan is not None and ui.lan.move_clock_s:
        where += f"{ui.lan.move_clock_s:g} s a move · "
    if over is not None:
        what = f"hand {over} is over"
    else:
        what = f"hand {obs.dealt_hands + (obs.phase == 'play')}"
        if obs.rules.draws:
            what += f" · boneyard {obs.boneyard}"
    keys = "? help  q leave"
    room = canvas.width - len(keys) - 3
    game = describe_game(obs.rules)
    if len(f"{where}{game} · {what}") > room:  # a narrow screen: the hand matters more
        game = game.replace(" game", "")  # "Partnership Block to 100"
    title = f"{where}{game} · {what}"
    header(canvas, title if len(title) <= room else f"{where}{what}", keys)


def draw_table(ui: UiState, canvas: Canvas) -> None:
    obs = ui.obs
    if obs is None:
        canvas.put(2, 2, "Dealing…", "class:dim")
        return
    w, h = canvas.width, canvas.height
    table_header(ui, canvas, obs)
    y = 1
    for seat in range(obs.players):
        if seat != obs.seat:
            y = draw_opponent(ui, obs, canvas, seat, y)
    _separator(canvas, y, ends_count(obs.line) if obs.rules.fives else "")
    hand_rows = 2 * max(1, -(-len(obs.hand) // max(1, (w + 1) // 6)))
    message = _message(ui, obs, w - 2)
    msg_rows = max(1, len(message))
    log_rows = max(1, min(LOG_MAX, h - y - hand_rows - msg_rows - BOARD_MIN - 4))
    bottom = h - 1 - log_rows - msg_rows - hand_rows - 1  # key bar, log, message, hand, title
    draw_board(ui, obs, canvas, y + 1, bottom - 1)
    canvas.put(0, bottom - 1, "─" * w, "class:dim")
    _draw_own(ui, obs, canvas, bottom)
    hand = draw_hand(obs.hand, playable(obs), ui.selected if obs.is_my_turn else None, w,
                     ui.settings.colour)
    canvas.blit(hand, 0, bottom + 1)
    msg_y = bottom + 1 + hand_rows
    for i, row in enumerate(message):
        canvas.put_fragments(1, msg_y + i, row)
    log = event_lines(obs.history, cast_of(ui, obs), ui.view.current_bot_made())
    for i, text in enumerate(log[-log_rows:]):
        canvas.put(1, msg_y + msg_rows + i, fit(text, w - 2), "class:dim")
    footer(canvas, _keys_hint(ui, obs))


def _separator(canvas: Canvas, y: int, text: str) -> None:
    canvas.put(0, y, "─" * canvas.width, "class:dim")
    if text:
        canvas.put(2, y, f" {fit(text, canvas.width - 6)} ", "class:title")


def draw_board(ui: UiState, obs: Observation, canvas: Canvas, top: int, bottom: int) -> None:
    """The line of play between rows ``top`` and ``bottom`` (exclusive), centred in that room,
    its ends marked where they lie when it turns corners or while you choose where to play."""
    height = bottom - top
    if height <= 0:
        return
    marks: dict[End, str] = {}
    if ui.places:
        for i, play in enumerate(ui.places):
            if play.end is not None:
                marks[play.end] = str(i + 1)
    view = line_view(obs.history)
    if not marks and tracks(view, canvas.width) > 1:  # it turns corners: say which end is which
        marks = {End.LEFT: "L", End.RIGHT: "R"}
    arms_open = obs.rules.fives and obs.line.ends[End.UP] >= 0
    board = draw_line(view, canvas.width, height, ui.settings.colour, marks, arms_open)
    rows = [i for i, line in enumerate(board.text().splitlines()) if line.strip()]
    used = (rows[-1] - rows[0] + 1) if rows else 0
    shift = max(0, (height - used) // 2 - (rows[0] if rows else 0))
    canvas.blit(board, 0, top + shift)


def draw_opponent(ui: UiState, obs: Observation, canvas: Canvas, seat: int, y: int) -> int:
    w = canvas.width
    name_w = 22 if w >= 76 else 14
    turn = obs.phase == "play" and obs.turn == seat
    level = ui.seat_levels[seat] if seat < len(ui.seat_levels) else ""
    name = seat_name(ui, seat)
    if obs.rules.partnership and obs.seat >= 0 and obs.side_of(seat) == obs.side_of(obs.seat):
        name += " (partner)"
    elif level:
        name += f" ({level})"
    canvas.put(0, y, "▶" if turn else " ", "class:turn")
    canvas.put(2, y, fit(name, name_w), "class:turn" if turn else "")
    x = 2 + name_w + 2
    how = ui.lan.departures.get(seat) if ui.lan is not None else None
    if not obs.active[seat]:
        canvas.put(x, y, how or "has left the table", "class:dim")
        return y + 1
    until = ui.lan.dropped.get(seat) if ui.lan is not None else None
    if until is not None:  # (a LAN seat out of touch: kept for its player until then)
        left_s = max(0, math.ceil(until - time.monotonic()))
        canvas.put(x, y, fit(f"lost touch: seat kept {left_s} s more", w - x - 1), "class:warn")
        return y + 1
    count = obs.hand_sizes[seat]
    canvas.put(x, y, f"{count:2} tile{'s' if count != 1 else ' '}")
    canvas.put(x + 9, y, f"{obs.scores[obs.side_of(seat)]:4} pts")
    doing = "thinking…" if ui.thinking == seat else last_action(obs.history, seat)
    canvas.put(x + 19, y, fit(doing, w - x - 20), "class:dim")
    return y + 1


def _draw_own(ui: UiState, obs: Observation, canvas: Canvas, y: int) -> None:
    if obs.seat < 0:  # a watcher: no seat, no hand; whose turn it is
        turn = f"{seat_name(ui, obs.turn)} to play" if obs.phase == "play" else ""
        canvas.put(1, y, fit(f"Watching · no seat · {turn}", canvas.width - 2), "class:title")
        return
    score = obs.scores[obs.side_of(obs.seat)]
    partner = ""
    if obs.rules.partnership:
        partner = f" · with {seat_name(ui, (obs.seat + 2) % 4)}"
    target = f" (to {obs.rules.target})" if obs.rules.target else ""
    turn, style = "", "class:dim"
    if ui.lan is not None and ui.lan.closed:
        turn = "the table is closed"  # (nobody plays on at it)
    elif obs.is_my_turn:
        turn, style = "▶ your turn", "class:turn"
    elif obs.phase == "play":
        turn = f"{seat_name(ui, obs.turn)} to play"
    title = f"Your hand · {seat_name(ui, obs.seat)}{partner} · {score} pts"
    room = canvas.width - 2 - len(turn) - 3
    x = canvas.put(1, y, fit(title, room), "class:title")
    if x + len(target) <= room + 1:  # "(to 100)" whole, or not at all (the header says it too)
        x = canvas.put(x, y, target, "class:dim")
    canvas.put(x + 3, y, turn, style)


Row = list[tuple[str, str]]  # one message row as styled fragments
OUT_OF_TIME = ("Your time ran out: the table's bot is playing for you. Press b, or any key that "
               "plays, to come back and play your own turns.")


def _message(ui: UiState, obs: Observation, width: int) -> list[Row]:
    """The message rows under your hand: a question, a refusal, the places to play, or what
    auto-draw did; wrapped between words, at most two rows."""
    if ui.places:
        row: Row = [("class:turn", "Play where? ")]
        for i, play in enumerate(ui.places):
            style = "class:menu.selected" if i == ui.place_index else ""
            row += [(style, f" {i + 1}: {place_label(obs, play)} "), ("", " ")]
        return [row]
    text, style = "", "class:warn"
    if ui.confirm_quit:
        text = _leave_question(ui)
    elif ui.lan is not None and ui.lan.closed:
        text = f"{ui.lan.closed} · q: leave"
    elif ui.finishing:
        text, style = "The others are playing the match out…", "class:dim"
    elif ui.resigned:
        text = ("You resigned: the others play on. q: leave" if ui.lan is not None
                else "You resigned: the others play on. f: finish now · q: menu (stays saved)")
    elif out_of_time(ui):
        text = OUT_OF_TIME
    elif ui.message:
        text = ui.message
    elif ui.view.redealt is not None and ui.view.redealt[0] == obs.hand_no:
        text = dealt_again(*ui.view.redealt, cast_of(ui, obs))
    elif ui.lan is not None and ui.lan.news and ui.lan.news_hand == obs.hand_no:
        text = ui.lan.news
    elif ui.settings.auto_draw:
        text, style = auto_draw_note(obs.history, obs.seat, cast_of(ui, obs)), "class:dim"
    if not text:
        return []
    lines = wrap(text, width)
    if len(lines) > 2:
        lines = [lines[0], fit(" ".join(lines[1:]), width)]
    return [[(style, line)] for line in lines]


def _leave_question(ui: UiState) -> str:
    if ui.lan is None:
        return "Leave the table? y: leave (the game is saved) · r: resign the match · n: stay"
    if ui.lan.watching:
        return "Stop watching? y: stop · n: stay"
    if ui.lan.hands_over(ui.obs, ui.match_result is not None):
        return ("Leave the table? The others play on under a new host. y: leave · r: resign "
                "and watch · n: stay")
    if ui.lan.role == "host":
        return "Close the table for everyone? y: close · r: resign and watch · n: stay"
    return "Leave the table? y: leave (you resign) · r: resign and watch · n: stay"


def _keys_hint(ui: UiState, obs: Observation) -> str:
    """The footer's keys, the most needed first (the header already shows ? help and q leave)."""
    if ui.resigned:
        if ui.lan is not None:
            return "you resigned: watching the others · s scores · l log"
        return "f finish the match now · q back to the menu · s scores · l log"
    if ui.places:
        return "←/→ or number: choose the end · Enter play · Esc cancel"
    panels = "s scores · l log"
    if ui.lan is not None and ui.lan.closed:
        return f"q leave · {panels}"
    if ui.lan is not None and ui.lan.watching:
        return f"watching: every hand is shown when it ends · {panels}"
    if out_of_time(ui):
        return f"b or any move key: come back and play your turns · {panels}"
    if obs.is_my_turn:
        extra = []
        if any(type(a).__name__ == "Draw" for a in obs.legal):
            extra.append("d draw")
        if any(type(a).__name__ == "Pass" for a in obs.legal):
            extra.append("p pass")
        if ui.lan is None:  # (against the computer only)
            extra += ["h hint", "u undo"]
        return " · ".join(["←/→ pick", "Enter play", *extra, panels])
    return f"waiting for the others · {panels}"
