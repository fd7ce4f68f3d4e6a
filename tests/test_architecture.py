"""The arrows of STYLE.md, read from the imports of every module in lanomino/.

Each package row says which other lanomino packages it may import and which modules it must never
import; each I/O library has the one place allowed to use it. A package or module that does not
must exist: a row whose package is missing (renamed, moved) fails, instead of silently checking
nothing. To add a rule, add a row to LAYERS or OWNERS.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lanomino"

IO_LIBS = ("zmq", "zeroconf", "prompt_toolkit", "sqlite3")
HEAVY = ("zmq", "zeroconf", "prompt_toolkit")


@dataclass(frozen=True)
class Layer:
    package: str
    may_import: tuple[str, ...]  # other lanomino packages (its own is always allowed)
    never: tuple[str, ...]  # top-level module names it must not import
    third_party: tuple[str, ...] | None = None  # allowed non-stdlib libraries; None: any
    siblings: bool = True  # its modules may import each other
    # module -> names it may use anyway
    exempt: dict[str, tuple[str, ...]] = field(default_factory=dict)


# what both sessions (net/host/, net/peer/) build on
NET_PLUMBING = ("lanomino.net.chunks", "lanomino.net.codec", "lanomino.net.election",
                "lanomino.net.errors", "lanomino.net.session_base",
                "lanomino.net.blind_transcript")

# where SIGTERM, SIGHUP and SIGINT are wired for every process (standard library only): the client
# and the line mode use it without the rest of the runtime
STOPPING = "lanomino.runtime.stopping"

LAYERS: tuple[Layer, ...] = (
    Layer(
        "lanomino.engine",
        may_import=(),
        never=("time", "random", "asyncio", "socket", "sqlite3", "logging", "threading",
               "subprocess", "secrets", *IO_LIBS),
        third_party=(),
        # Under `if TYPE_CHECKING:` only: mypyc's native 64-bit int for the compiled build's tile
        # count; never imported at run time.
        exempt={"lanomino.engine.observe": ("mypy_extensions",)},
    ),
    Layer(
        "lanomino.fair",
        may_import=("lanomino.engine", "lanomino.blind"),  # (the locked deck's transcript/2)
        never=("random", "secrets", "asyncio", "socket", "logging", *IO_LIBS),
        third_party=("cryptography",),
        exempt={"lanomino.fair.entropy": ("secrets",)},  # the single place a secret is made
    ),
    Layer(  # the locked deck (issue 29): pure; randomness only as seeds passed in
        "lanomino.blind",
        may_import=("lanomino.engine",),
        never=("random", "secrets", "time", "asyncio", "socket", "logging", "threading",
               "subprocess", "os", *IO_LIBS),
        third_party=("rbcl",),
        # the one file it touches: the binding's own temporary copy of libsodium, removed once
        # loaded (rbcl leaves it behind in every process: group._drop_library_copy)
        exempt={"lanomino.blind.group": ("os",)},
    ),
    Layer(
        "lanomino.record",
        may_import=("lanomino.engine",),
        never=("random", "time", "asyncio", "socket", "logging", *IO_LIBS),
        third_party=(),
    ),
    Layer(
        "lanomino.bots",
        may_import=("lanomino.engine",),
        never=("asyncio", "socket", "logging", *IO_LIBS),
        third_party=(),
    ),
    Layer(
        "lanomino.net",
        may_import=("lanomino.engine", "lanomino.fair", "lanomino.record", "lanomino.blind"),
        never=("time", "asyncio", "socket", "random", *IO_LIBS),
        exempt={f"lanomino.net.zmq_transport.{part}": ("zmq", "asyncio", "time", "socket")
                for part in ("sockets", "router", "dealer")},  # the zmq adapter
    ),
    Layer(  # the wire: messages and the JSON of game values, parsed once at the edge
        "lanomino.net.wire",
        may_import=("lanomino.engine", "lanomino.net.codec", "lanomino.net.errors",
                    "lanomino.net.chunks", "lanomino.fair.transcript_model",
                    "lanomino.fair.attempt", "lanomino.fair.header",
                    "lanomino.fair.reshuffle", "lanomino.blind",  # the locked deck's values
                    "lanomino.fair.statements2"),  # (and what its transcript signs)
        never=("time", "asyncio", "socket", "random", *IO_LIBS),
        third_party=(),
    ),
    Layer(  # the host's session and its parts; a new host grows from a peer's session (type only)
        "lanomino.net.host",
        may_import=("lanomino.engine", "lanomino.fair", "lanomino.net.wire", *NET_PLUMBING,
                    "lanomino.net.budget", "lanomino.net.fair_round", "lanomino.net.throttle",
                    "lanomino.net.watchers", "lanomino.net.peer.session", "lanomino.blind"),
        never=("time", "asyncio", "socket", "random", *IO_LIBS),
        third_party=(),
    ),
    Layer(  # the peer's session and its parts: never the host's
        "lanomino.net.peer",
        may_import=("lanomino.engine", "lanomino.fair", "lanomino.net.wire", *NET_PLUMBING,
                    "lanomino.net.view", "lanomino.blind",
                    "lanomino.net.budget"),  # (a member's checks of pre-votes: prevotes.py)
        never=("time", "asyncio", "socket", "random", *IO_LIBS),
        third_party=(),
    ),
    Layer(  # the runtime: asyncio loops carrying the sessions' output out; never the UI
        "lanomino.runtime",
        may_import=("lanomino.engine", "lanomino.fair", "lanomino.net", "lanomino.discovery",
                    "lanomino.bots", "lanomino.store", "lanomino.record"),
        never=("prompt_toolkit", "sqlite3"),
    ),
    Layer(
        "lanomino.discovery",
        may_import=("lanomino.engine", "lanomino.net", "lanomino.fair"),
        never=("time", "asyncio", "socket", "random", *IO_LIBS),
        exempt={"lanomino.discovery.zeroconf_adapter": ("zeroconf", "asyncio", "socket", "time"),
                "lanomino.discovery.key_service": ("asyncio",)},
    ),
    Layer(
        "lanomino.store",
        may_import=("lanomino.engine", "lanomino.fair", "lanomino.record"),
        never=("zmq", "zeroconf", "prompt_toolkit"),
    ),
    Layer(
        "lanomino.narrate",
        may_import=("lanomino.engine",),
        never=("time", "random", "asyncio", "socket", "logging", *IO_LIBS),
        third_party=(),
    ),
    Layer(
        "lanomino.ui",
        may_import=("lanomino.engine", "lanomino.narrate"),
        never=("zmq", "zeroconf", "sqlite3", "socket"),
        third_party=("prompt_toolkit",),
    ),
    Layer(  # the controller shows its state through a Frontend: no terminal library of its own
        "lanomino.client",
        may_import=("lanomino.engine", "lanomino.narrate", "lanomino.ui", "lanomino.lines",
                    "lanomino.net", "lanomino.store", "lanomino.bots", "lanomino.record",
                    "lanomino.fair", "lanomino.discovery", "lanomino.localgame", "lanomino.node",
                    "lanomino.paths", STOPPING),
        never=("sqlite3", *HEAVY),
    ),
    Layer(  # main() and the option groups; the commands are loaded by name, never imported
        "lanomino.cli",
        may_import=("lanomino.client", "lanomino.engine", "lanomino.bots", "lanomino.net",
                    "lanomino.paths"),
        never=("sqlite3", *HEAVY),
    ),
    Layer(  # each command parses and calls the client or a lower package; never a sibling, and
        # the LAN (discovery, a node) only through the client
        "lanomino.commands",
        may_import=("lanomino.cli", "lanomino.client", "lanomino.engine", "lanomino.narrate",
                    "lanomino.ui", "lanomino.net", "lanomino.store", "lanomino.bots",
                    "lanomino.record", "lanomino.fair", "lanomino.paths", "lanomino.botmatch"),
        never=("sqlite3", *HEAVY),
        siblings=False,
    ),
    Layer(  # the line mode: the client's plain state and words, never the full-screen toolkit
        "lanomino.lines",
        may_import=("lanomino.engine", "lanomino.narrate", "lanomino.ui.state",
                    "lanomino.ui.settings", "lanomino.ui.lan", "lanomino.ui.history",
                    "lanomino.ui.helptext", "lanomino.ui.board", STOPPING),
        never=("zmq", "zeroconf", "sqlite3", "socket", "prompt_toolkit"),
        third_party=(),
    ),
)

# library -> the modules (or packages) allowed to import it at run time
OWNERS: dict[str, tuple[str, ...]] = {
    "zmq": ("lanomino.net.zmq_transport",),
    "zeroconf": ("lanomino.discovery.zeroconf_adapter",),
    "prompt_toolkit": ("lanomino.ui",),
    "sqlite3": ("lanomino.store",),
}


@dataclass(frozen=True)
class Import:
    module: str  # absolute dotted name
    line: int
    runtime: bool  # False under `if TYPE_CHECKING:`
    top_level: bool  # at module level (not inside a function or class)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path) -> list[Import]:
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, runtime: bool, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend(Import(a.name, child.lineno, runtime, top) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    target = ".".join([*base, child.module] if child.module else base)
                else:
                    target = child.module or ""
                found.append(Import(target, child.lineno, runtime, top))
                # `from lanomino import ui` imports the package lanomino.ui
                for alias in child.names:
                    candidate = f"{target}.{alias.name}"
                    if candidate in MODULES:
                        found.append(Import(candidate, child.lineno, runtime, top))
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    visit(ast.Module(body=[stmt], type_ignores=[]), False, top)
                for stmt in child.orelse:
                    visit(ast.Module(body=[stmt], type_ignores=[]), runtime, top)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                    ast.Lambda)):
                visit(child, runtime, False)
            else:
                visit(child, runtime, top)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), True, True)
    return found


MODULES = all_modules()


def _in(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _top(module: str) -> str:
    return module.split(".")[0]


def layer_violations(layer: Layer) -> Iterator[str]:
    for name, path in MODULES.items():
        if not _in(name, layer.package):
            continue
        exempt = layer.exempt.get(name, ())
        for imp in imports_of(path):
            where = f"{path.relative_to(ROOT)}:{imp.line}"
            top = _top(imp.module)
            if top == "lanomino":
                if _in(imp.module, layer.package) and not layer.siblings and imp.module not in (
                        layer.package, name):
                    yield f"{where}: {name} imports {imp.module}, a sibling in {layer.package}"
                    continue
                if imp.module == "lanomino" or _in(imp.module, layer.package):
                    continue  # the root package (its version) or the layer itself
                if not any(_in(imp.module, allowed) for allowed in layer.may_import):
                    allowed = ", ".join(layer.may_import) or "the standard library"
                    yield (f"{where}: {name} imports {imp.module}; "
                           f"{layer.package} may import only {allowed}")
            elif top in layer.never and top not in exempt:
                yield (f"{where}: {name} imports {imp.module}, "
                       f"which {layer.package} must never import")
            elif (
                layer.third_party is not None
                and top not in sys.stdlib_module_names
                and top != "__future__"
                and top not in layer.third_party
                and top not in exempt
            ):
                libraries = ", ".join(layer.third_party) or "the standard library"
                yield (f"{where}: {name} imports the library {top}; "
                       f"{layer.package} may use only {libraries}")


@pytest.mark.parametrize("layer", LAYERS, ids=lambda layer: layer.package)
def test_package_imports_point_the_right_way(layer: Layer) -> None:
    assert any(_in(name, layer.package) for name in MODULES), (
        f"{layer.package} is gone: move its row to where the code went")
    assert list(layer_violations(layer)) == []


def upward_imports() -> list[str]:
    """Imports of the command line from below it: ``lanomino.commands`` is loaded by name only
    (``cli.COMMANDS``), and ``lanomino.cli`` is imported only by the commands and ``__main__``
    (a lower package raises its own error, e.g. ``ClientError``, never ``CliError``). The
    modules outside every row (``node.py``, ``localgame.py``, ``paths.py``...) are held to it
    too."""
    return [f"{path.relative_to(ROOT)}:{imp.line}: {name} imports {imp.module}"
            for name, path in MODULES.items()
            for imp in imports_of(path)
            if (_in(imp.module, "lanomino.commands") and not _in(name, "lanomino.commands"))
            or (_in(imp.module, "lanomino.cli") and not any(
                _in(name, above) for above in ("lanomino.cli", "lanomino.commands",
                                               "lanomino.__main__")))]


def test_nothing_below_the_command_line_imports_it() -> None:
    assert upward_imports() == []


@pytest.mark.parametrize("library", sorted(OWNERS))
def test_each_io_library_is_imported_in_one_place(library: str) -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{imp.line}: {name} imports {imp.module}"
        for name, path in MODULES.items()
        for imp in imports_of(path)
        if imp.runtime and _top(imp.module) == library
        and not any(_in(name, o) for o in OWNERS[library])
    ]
    assert wrong == []


def test_bots_use_only_the_random_they_are_given() -> None:
    """A bot takes ``rng: random.Random``; ``random``'s module functions use the global RNG."""
    wrong = []
    for name, path in MODULES.items():
        if not _in(name, "lanomino.bots"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "random" and node.attr != "Random"):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                wrong += [f"{path.relative_to(ROOT)}:{node.lineno}: from random import {a.name}"
                          for a in node.names if a.name != "Random"]
    assert wrong == []


def test_cli_start_up_imports_no_heavy_library() -> None:
    """What ``lanomino --help`` loads: cli/, every command module, and what they import at
    module level, followed through lanomino. None of it may import zmq, zeroconf, prompt_toolkit."""
    from lanomino.cli import COMMANDS

    todo = ["lanomino.cli", *(module for _name, module, _help in COMMANDS)]
    seen: set[str] = set()
    wrong = []
    while todo:
        name = todo.pop()
        if name in seen or name not in MODULES:
            continue
        seen.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(2, len(parts))]  # parent packages run first
        for imp in imports_of(MODULES[name]):
            if not (imp.runtime and imp.top_level):
                continue
            if _top(imp.module) in HEAVY:
                wrong.append(f"{name} imports {imp.module} at start-up")
            elif _top(imp.module) == "lanomino":
                todo.append(imp.module)
    assert "lanomino.engine" in seen  # the walk did follow the imports
    assert wrong == []


# The protocol core and the client's rooms (the controller, the full screen, the line mode) keep
# small rooms (STYLE.md: a module over ~400 lines is a prompt to look for a seam).
CORE = ("lanomino.net", "lanomino.runtime", "lanomino.node", "lanomino.client", "lanomino.ui",
        "lanomino.lines")
CORE_LIMIT = 400
# Modules that stay larger, each one machine whose parts read the fields the others set:
LARGER = {
    # a seat at a LAN table: its node's life (open, follow a new host, close), the Table protocol,
    # the node's events on the screen, the match's end and the way to a rematch; the news about a
    # change of host sets who hosts and where to sit again (role, new_host, host_seat, port, key,
    # again), which the moves, the match's end and the controller's rematch all read
    "lanomino.client.lan": 430,
    # taking a table over: adopt the peer's state, wait for a majority (and, at a locked table,
    # for the log a member ahead owes), rebuild the hand in play (escrow, re-shuffle or a fresh
    # deal) and resume; every step reads the members' reports and the carried peer state the
    # one before it kept. The seam if it grows: the fair table's re-shuffle (_reshuffle,
    # _resume_reshuffled) beside reshuffle_round.py
    "lanomino.net.host.takeover": 430,
}


def test_core_and_client_modules_stay_small() -> None:
    big = {name: len(path.read_text(encoding="utf-8").splitlines())
           for name, path in MODULES.items() if any(_in(name, core) for core in CORE)}
    assert all(any(_in(name, core) for name in big) for core in CORE)  # each part exists
    over = {n: lines for n, lines in big.items() if lines > LARGER.get(n, CORE_LIMIT)}
    assert over == {}

# Sessions have their parts instead of inheriting them (STYLE.md): no class in net/ sits on a
# stack of more than two of our own classes (itself and one base).
MAX_CLASS_STACK = 2


def class_stacks(package: str) -> dict[str, int]:
    """Each class defined under ``package``: how many lanomino classes its longest chain of bases
    holds, itself included (a base is found by its name among the classes of ``lanomino``)."""
    bases: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases[f"{name}.{node.name}"] = [
                    b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                    if isinstance(b, (ast.Name, ast.Attribute))]
    by_name: dict[str, list[str]] = {}
    for qualified in bases:
        by_name.setdefault(qualified.rpartition(".")[2], []).append(qualified)

    def depth(qualified: str, seen: frozenset[str]) -> int:
        parents = [q for b in bases[qualified] for q in by_name.get(b, []) if q not in seen]
        return 1 + max((depth(q, seen | {q}) for q in parents), default=0)

    return {q: depth(q, frozenset({q})) for q in bases if _in(q.rpartition(".")[0], package)}


def test_no_class_stack_in_net_is_deeper_than_two() -> None:
    stacks = class_stacks("lanomino.net")
    assert "lanomino.net.host.session.HostSession" in stacks  # the walk found the sessions
    assert stacks["lanomino.net.peer.session.PeerSession"] == 2  # PeerState -> PeerSession
    assert {q: d for q, d in stacks.items() if d > MAX_CLASS_STACK} == {}


# A wait in the loops that drive a node must survive a cancel (issue 32, runtime/stopping.py): on
# Python 3.11 ``asyncio.wait_for`` returns instead of raising when the cancel lands just after
# the wait it wraps has finished, and a loop around it runs on. ``asyncio.timeout`` does not.
CANCEL_SAFE = ("lanomino.runtime", "lanomino.discovery", "lanomino.net.zmq_transport")


def wait_for_calls(path: Path) -> list[int]:
    """The lines of ``path`` that name ``wait_for`` (``asyncio.wait_for``, or imported bare)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted(node.lineno for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and node.attr == "wait_for"
                  or isinstance(node, ast.Name) and node.id == "wait_for"
                  or isinstance(node, ast.alias) and node.name == "wait_for")


def swallowed_cancels(path: Path) -> list[int]:
    """The lines of ``path`` where a handler catches a cancel (``CancelledError``,
    ``BaseException``, a bare ``except``) and has no ``raise`` in it."""
    def catches_cancel(handler: ast.ExceptHandler) -> bool:
        caught = handler.type
        names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
        said = [n.id if isinstance(n, ast.Name) else n.attr for n in names
                if isinstance(n, (ast.Name, ast.Attribute))]
        return caught is None or bool({"CancelledError", "BaseException"} & set(said))

    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted(h.lineno for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler)
                  and catches_cancel(h) and not any(isinstance(n, ast.Raise)
                                                    for s in h.body for n in ast.walk(s)))


def test_no_handler_swallows_a_cancel_where_a_node_must_stop() -> None:
    found = {name: lines for name, path in MODULES.items()
             if any(_in(name, package) for package in CANCEL_SAFE)
             and (lines := swallowed_cancels(path))}
    assert found == {}


def test_no_wait_for_where_a_node_must_stop() -> None:
    checked = {name: path for name, path in MODULES.items()
               if any(_in(name, package) for package in CANCEL_SAFE)}
    assert all(any(_in(name, package) for name in checked) for package in CANCEL_SAFE)
    found = {name: lines for name, path in checked.items() if (lines := wait_for_calls(path))}
    assert found == {}


# ----- the checker itself ----------------------------------------------------------------------


def test_checker_sees_a_wrong_arrow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "lanomino" / "engine"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "bad.py").write_text(
        "import time\nfrom lanomino.net import codec\nimport numpy\n"
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import zmq\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "lanomino")
    monkeypatch.setattr(sys.modules[__name__], "MODULES", all_modules())
    found = list(layer_violations(LAYERS[0]))
    assert any("imports time" in v for v in found)
    assert any("imports lanomino.net" in v for v in found)
    assert any("library numpy" in v for v in found)
    assert any("imports zmq" in v for v in found)  # type-only imports count for the arrows
    assert [i.runtime for i in imports_of(fake / "bad.py") if i.module == "zmq"] == [False]


def test_checker_counts_a_class_stack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "lanomino" / "net"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    source = "class A:\n    pass\nclass B(A):\n    pass\nclass C(B):\n    pass\n"
    (fake / "stack.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "lanomino")
    monkeypatch.setattr(sys.modules[__name__], "MODULES", all_modules())
    assert class_stacks("lanomino.net") == {"lanomino.net.stack.A": 1, "lanomino.net.stack.B": 2,
                                            "lanomino.net.stack.C": 3}


def test_no_name_is_shared_by_a_fair_module_and_a_net_module_or_two_self_plays() -> None:
    """The collisions the layout issue named stay gone: the re-shuffle's two sides and the three
    self-plays each have their own name (``lanomino selfplay`` is commands/selfplay.py)."""
    def names(package: str) -> set[str]:
        return {n.rpartition(".")[2] for n in MODULES if _in(n, package) and n != package
                and not MODULES[n].name == "__init__.py"}

    assert names("lanomino.fair") & names("lanomino.net") == set()
    selfplays = [n for n in MODULES if n.rpartition(".")[2] == "selfplay"]
    assert selfplays == ["lanomino.commands.selfplay"]


def test_checker_sees_a_wait_for(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import asyncio\nfrom asyncio import wait_for\n\n"
                      "async def f() -> None:\n    await asyncio.wait_for(g(), 1)\n")
    assert wait_for_calls(module) == [2, 5]


def test_checker_sees_a_command_importing_another(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "lanomino" / "commands"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "join.py").write_text("from lanomino.cli.options import add_table_arguments\n")
    (fake / "watch.py").write_text("def run() -> None:\n    from lanomino.commands.join import x\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "lanomino")
    monkeypatch.setattr(sys.modules[__name__], "MODULES", all_modules())
    commands = next(layer for layer in LAYERS if layer.package == "lanomino.commands")
    found = list(layer_violations(commands))
    assert len(found) == 1 and "lanomino.commands.join, a sibling" in found[0]


def test_checker_sees_a_swallowed_cancel(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import asyncio\n\nasync def f() -> None:\n"
                      "    try:\n        await g()\n    except asyncio.CancelledError:\n"
                      "        pass\n    try:\n        await g()\n"
                      "    except (OSError, asyncio.CancelledError):\n        raise\n")
    assert swallowed_cancels(module) == [6]


def test_checker_sees_the_command_line_imported_from_below(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for package in ("cli", "commands", "client"):
        (tmp_path / "lanomino" / package).mkdir(parents=True)
        (tmp_path / "lanomino" / package / "__init__.py").write_text("")
    (tmp_path / "lanomino" / "__main__.py").write_text("from lanomino.cli import main\n")
    (tmp_path / "lanomino" / "commands" / "join.py").write_text("from lanomino.cli import x\n")
    (tmp_path / "lanomino" / "client" / "find.py").write_text(
        "def f() -> None:\n    from lanomino.cli.errors import CliError\n")
    (tmp_path / "lanomino" / "node.py").write_text("from lanomino.commands import join\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "lanomino")
    monkeypatch.setattr(sys.modules[__name__], "MODULES", all_modules())
    assert [line.split(": ", 1)[1] for line in upward_imports()] == [
        "lanomino.client.find imports lanomino.cli.errors",
        "lanomino.node imports lanomino.commands",
        "lanomino.node imports lanomino.commands.join"]
