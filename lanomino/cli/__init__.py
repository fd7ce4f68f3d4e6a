"""Command line entry point: ``main()`` and the command table.

Every subcommand lives in ``lanomino/commands/<name>.py`` with ``add_arguments(parser)`` and
``run(args) -> int``: it parses, then calls the client (``lanomino.client``) or a lower package.
The option groups several commands share are in ``cli/options.py``, the printing helpers in
``cli/output.py``. Only the module of the subcommand being run is imported (``lanomino --help``
and ``--version`` import none), and command modules import heavy libraries (zmq, zeroconf,
prompt_toolkit) only inside ``run``, so start-up stays fast (scripts/bench_startup.py).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

import lanomino
from lanomino import __version__
from lanomino.cli.errors import CliError
from lanomino.client import ClientError
from lanomino.client.logfile import LOG_NOTE

# (name, module, one-line help). Order is the order shown by --help.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("play", "lanomino.commands.play",
     "the full-screen game: play the computer (the default command)"),
    ("selfplay", "lanomino.commands.selfplay", "play whole matches between engine bots"),
    ("replay", "lanomino.commands.replay", "replay a game record and print what happened"),
    ("rules", "lanomino.commands.rules", "show the presets and rule options"),
    ("verify", "lanomino.commands.verify",
     "check a match transcript: the deal, every move, every score"),
    ("host", "lanomino.commands.host", "open a table on the LAN, played in the client or headless"),
    ("tables", "lanomino.commands.tables", "list the tables on the LAN"),
    ("join", "lanomino.commands.join",
     "sit at a LAN table, by name or HOST:PORT/KEY, in the client"),
    ("watch", "lanomino.commands.watch", "follow a LAN table without a seat, checking every deal"),
    ("bot", "lanomino.commands.bot",
     "a headless bot player that joins a table and verifies every hand"),
    ("history", "lanomino.commands.history", "the matches in your play log, newest first"),
    ("stats", "lanomino.commands.stats",
     "your results: wins per opponent and level, hands, tiles, streaks"),
    ("export", "lanomino.commands.export", "write a logged match's record or transcript to a file"),
    ("hint", "lanomino.commands.hint",
     "what Expert would play at a point of a game record, and why"),
)

CLIENT_COMMANDS = ("play", "host", "join", "watch")  # (they may open the client)


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser for ``argv``: every subcommand is listed, but only the one ``argv`` names gets
    its arguments, so only its module is imported."""
    chosen = _command_named(argv)
    parser = argparse.ArgumentParser(
        prog="lanomino",
        description="Dominoes for people on the same local network.",
        epilog=LOG_NOTE,
    )
    parser.add_argument("--version", action="version", version=f"lanomino {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name, help_text in COMMANDS:
        command_parser = sub.add_parser(name, help=help_text, description=help_text,
                                        epilog=LOG_NOTE if name in CLIENT_COMMANDS else None)
        if name == chosen:
            importlib.import_module(module_name).add_arguments(command_parser)
        command_parser.set_defaults(_module=module_name)
    return parser


def _command_named(argv: Sequence[str]) -> str | None:
    """The subcommand in ``argv``: its first word that is not an option (the top-level options,
    ``--help`` and ``--version``, take no value), when that word is a command's name."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return first if any(first == name for name, _, _ in COMMANDS) else None


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # started from a shell: name commands the way this one was started
        lanomino.COMMAND = invoked_as(sys.argv[0])
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(words)
    args = parser.parse_args(words)
    if args.command is None:
        default = _default_command()
        if default is None:
            parser.print_help()
            return 0
        args = build_parser([default]).parse_args([default, *words])
    module = importlib.import_module(args._module)
    try:
        result: int = module.run(args)
    except (CliError, ClientError) as exc:
        print(f"lanomino {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`| head`): nothing more to say, no traceback
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (for the flush at exit)
        return 141  # (as a shell reports a program ended by SIGPIPE)
    return result


def invoked_as(argv0: str, executable: str = sys.executable) -> str:
    """The command that started this process, as the person can type it again: ``lanomino`` when
    the PATH finds this very program, else the path they typed (``.venv/bin/lanomino``, as the
    README's install leaves it), or ``PYTHON -m lanomino`` (the interpreter by name when the PATH
    finds this one, else by its path)."""
    import os
    import shutil

    def found(name: str, path: str) -> bool:
        where = shutil.which(name)
        return where is not None and os.path.abspath(where) == os.path.abspath(path)

    if os.path.basename(argv0) == "__main__.py":  # python -m lanomino
        python = os.path.basename(executable)
        return f"{python if found(python, executable) else executable} -m lanomino"
    if os.sep not in argv0 or found("lanomino", argv0):
        return "lanomino"
    return argv0


def _default_command() -> str | None:
    """The subcommand that plain ``lanomino`` runs (the local game once the client exists)."""
    names = {name for name, _, _ in COMMANDS}
    return "play" if "play" in names else None
