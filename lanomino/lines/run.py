"""The client in line mode (``--lines``): the line front end driving the client's controller.

``run_lines`` is the line mode's counterpart of building the full-screen ``Application``: the
controller (``lanomino.client``: local matches, LAN tables, saves, the play log) is the same
object, shown through ``LineFrontend``, whose redraw asks the line front end to say what is new.
The front end sends the controller intents and reads the ``UiState`` it keeps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Callable

    from lanomino.ui.state import Intent, UiState


class Driver(Protocol):
    """What the line mode needs of the client's controller."""

    frontend: Any  # set to the ``LineFrontend``

    def handle(self, intent: Intent) -> None: ...

    def close(self, lines: bool = False) -> str: ...


class LineFrontend:
    """The controller's ``Frontend`` in line mode: a redraw says what is new, exit ends the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.future: asyncio.Future[int] = loop.create_future()
        self.on_change: Callable[[], None] = lambda: None
        import asyncio  # (not at module level: `lanomino --help` loads this module)

        self.changed = asyncio.Event()  # set by every redraw

    def redraw(self) -> None:
        self.changed.set()
        if not self.future.done():  # nothing more is said once the reader has quit
            self.on_change()

    async def until(self, ready: Callable[[], bool]) -> None:
        """Wait (redraw by redraw) until ``ready()`` holds or the client exits."""
        import asyncio

        while not ready() and not self.future.done():
            self.changed.clear()
            changed: asyncio.Future[Any] = asyncio.ensure_future(self.changed.wait())
            waits: list[asyncio.Future[Any]] = [changed, self.future]
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            changed.cancel()

    def bell(self) -> None:
        """No bell: a screen reader announces the turn, and a pipe wants no control bytes."""

    def exit(self) -> None:
        if not self.future.done():
            self.future.set_result(0)


def run_lines(ui: UiState, controller: Driver, first: Intent | None, words: bool) -> int:
    """Play in line mode on stdin and stdout until quit or the end of input. Input that is not a
    terminal is taken a line at a time when the game waits for the reader (their turn, a hand's
    end, no game), so a file of commands plays the same way every time."""
    import asyncio

    return asyncio.run(_serve(ui, controller, first, words))


async def _serve(ui: UiState, controller: Driver, first: Intent | None, words: bool) -> int:
    import asyncio
    import sys

    from lanomino.lines.console import Console
    from lanomino.lines.front import LineFront

    loop = asyncio.get_running_loop()
    console = Console(sys.stdin, sys.stdout, prompt=sys.stdin.isatty() and sys.stdout.isatty())
    front = LineFront(ui, controller.handle, console.say, words=words)
    console.waiting = front.waiting
    app = LineFrontend(loop)
    app.on_change = front.refresh
    controller.frontend = app
    _quit_on_interrupt(loop, front.quit)
    if first is not None:
        controller.handle(first)
    front.refresh()
    console.start()
    reading = True
    scripted = not sys.stdin.isatty()  # input from a file or a program may run ahead of play
    while not app.future.done():
        if front.waiting():
            console.show_prompt()
        waits: list[asyncio.Future[Any]] = [app.future]
        line = asyncio.ensure_future(console.lines.get()) if reading else None
        if line is not None:
            waits.append(line)
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        if line is None:
            continue
        if not line.done():
            line.cancel()
            break
        console.typed()
        text = line.result()
        if scripted and not front.at_once(text):  # a line read ahead waits for its moment
            await app.until(front.waiting)
            if app.future.done():
                break
        if text is None:  # end of input: leave as `quit` would
            reading = False
            front.quit()
        else:
            front.on_line(text)
    farewell = controller.close(lines=True)  # (a local match in play is saved: how to resume it)
    console.prompt = False  # (the last word: no prompt after it)
    if farewell:
        console.say(farewell)
    return app.future.result() if app.future.done() else 0


def _quit_on_interrupt(loop: asyncio.AbstractEventLoop, quit_: Callable[[], None]) -> None:
    """Ctrl-C (SIGINT), SIGTERM and SIGHUP leave as quit does: the local match saved, a LAN
    table told (runtime/stopping.py: the 2 s watchdog too)."""
    from lanomino.runtime.stopping import on_stop_signals

    on_stop_signals(quit_)
