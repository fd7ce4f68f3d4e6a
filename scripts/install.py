"""Install lanomino into a private virtual environment (``.venv`` next to this checkout).

Why a script and not ``pip install .``: the Pythons most people have (Debian's, Ubuntu's,
Fedora's, Homebrew's) refuse to install into themselves (PEP 668, "externally-managed-
environment"), and on Debian and Ubuntu ``python3 -m venv`` fails when the python3-venv package is
missing. This script needs neither ``sudo`` nor ``--break-system-packages``:

1. it makes ``.venv`` with ``python -m venv`` (or reuses the one that is there);
2. when that fails because ``ensurepip`` is missing, it makes the environment without pip and
   installs with the interpreter's own pip, pointed at the environment (``pip --python``);
3. it installs this checkout into it (``.[test]`` with ``--test``) and says how to start lanomino.
   When the environment already holds this very checkout (same sources, recorded after the last
   install), it is not built again: ``--test`` then only adds the test tools (compiling the
   engine takes a minute or more).

Without a C compiler the install still works: the engine is then plain Python (see setup.py).
Run it with any Python 3.11 or newer: ``python3 scripts/install.py [--test] [--venv DIR]``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIN_PYTHON = (3, 11)
MIN_PIP_WITH_PYTHON_OPTION = (22, 3)  # the first pip with ``--python``


def venv_python(venv: Path) -> Path:
    """The interpreter inside a virtual environment, on this platform."""
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def venv_command(venv: Path, name: str) -> Path:
    """A console script inside a virtual environment, on this platform."""
    if os.name == "nt":
        return venv / "Scripts" / f"{name}.exe"
    return venv / "bin" / name


def source_digest() -> str:
    """A digest of everything an install builds from: the package's sources and build files."""
    digest = hashlib.sha256()
    files = sorted((ROOT / "lanomino").rglob("*.py"))
    for path in [ROOT / "pyproject.toml", ROOT / "setup.py", *files]:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def installed_marker(venv: Path) -> Path:
    """Where an install records the digest of the sources it built."""
    return venv / "lanomino-source.sha256"


def test_requirements() -> list[str]:
    """The test tools, as pyproject.toml lists them (the ``test`` extra)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        project = tomllib.load(f)["project"]
    return list(project["optional-dependencies"]["test"])


def _runs(command: list[str]) -> bool:
    return subprocess.run(command, capture_output=True).returncode == 0


def _pip_version(python: str) -> tuple[int, ...] | None:
    done = subprocess.run([python, "-m", "pip", "--version"], capture_output=True, text=True)
    if done.returncode != 0:
        return None
    try:  # "pip 23.0.1 from ... (python 3.11)"
        return tuple(int(part) for part in done.stdout.split()[1].split(".")[:2])
    except (IndexError, ValueError):
        return None


def make_venv(venv: Path, *, bare: bool = False) -> bool:
    """Make (or reuse) the environment. True when it has its own pip."""
    python = venv_python(venv)
    if python.exists():
        return _runs([str(python), "-m", "pip", "--version"])
    print(f"lanomino: making a virtual environment in {venv}")
    command = [sys.executable, "-m", "venv", str(venv)]
    made = subprocess.run(command, capture_output=True, text=True) if not bare else None
    if made is not None and made.returncode == 0:
        return True
    # Debian and Ubuntu without python3-venv: venv works, only its pip bootstrap (ensurepip) is
    # missing. Make the environment bare; the interpreter's own pip installs into it.
    if made is not None:
        print("lanomino: this Python cannot put pip into a new environment (no ensurepip);"
              " making it without pip")
    if subprocess.run([*command, "--without-pip"]).returncode != 0:
        why = made.stderr.strip() if made is not None else ""
        sys.exit(f"lanomino: could not make a virtual environment in {venv}\n{why}".rstrip())
    return False


def pip_command(venv: Path, own_pip: bool) -> list[str]:
    """The pip that installs into the environment."""
    python = str(venv_python(venv))
    if own_pip:
        return [python, "-m", "pip"]
    version = _pip_version(sys.executable)
    if version is None or version < MIN_PIP_WITH_PYTHON_OPTION:
        sys.exit(
            "lanomino: this Python has no pip that can install into a virtual environment.\n"
            "  On Debian or Ubuntu: sudo apt install python3-venv   (then run this again)\n"
            "  Or, where pipx is installed: pipx install ."
        )
    return [sys.executable, "-m", "pip", "--python", python]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Install lanomino into its own virtual environment.")
    parser.add_argument("--test", action="store_true", help="also install the test tools")
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv",
                        help="where the environment goes (default: .venv in the checkout)")
    parser.add_argument("--without-pip", action="store_true",
                        help="make the environment without pip and install with this Python's pip"
                             " (what happens by itself where ensurepip is missing)")
    args = parser.parse_args(argv)
    if sys.version_info < MIN_PYTHON:
        sys.exit(f"lanomino needs Python {'.'.join(map(str, MIN_PYTHON))} or newer;"
                 f" this is {sys.version.split()[0]}")
    venv = args.venv.resolve()
    pip = pip_command(venv, make_venv(venv, bare=args.without_pip))
    marker, digest = installed_marker(venv), source_digest()
    current = (marker.exists() and marker.read_text().strip() == digest
               and venv_command(venv, "lanomino").exists())
    if current:  # this checkout is installed as it is: nothing to build again
        print(f"lanomino: {venv} already holds this checkout")
        if args.test:
            print("lanomino: adding the test tools")
            if subprocess.run([*pip, "install", "--quiet", *test_requirements()]).returncode != 0:
                return 1
    else:
        target = f"{ROOT}[test]" if args.test else str(ROOT)
        print(f"lanomino: installing {'lanomino with its test tools' if args.test else 'lanomino'}"
              f" into {venv} (compiling the engine takes a minute where a C compiler is found)")
        marker.unlink(missing_ok=True)
        if subprocess.run([*pip, "install", "--quiet", target]).returncode != 0:
            return 1
        marker.write_text(digest + "\n")
    start = venv_command(venv, "lanomino")
    if start.is_relative_to(Path.cwd()):
        start = start.relative_to(Path.cwd())
    print(f"lanomino: installed. Start it with {start}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
