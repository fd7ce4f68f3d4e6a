"""Messages name a command the way the person started lanomino (issue 30 item 22): after the
README's install ``lanomino`` is not on the PATH, so "the game is saved" says
``.venv/bin/lanomino play --continue``; ``lanomino`` when the PATH finds this very program; and
``PYTHON -m lanomino`` for ``python -m lanomino``. The real client in tmux at 80x24, started by a
launcher like the one the install writes."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest
from test_tmux_play import ROOT, Tmux, wait_for

from lanomino.cli import invoked_as

BARE_PATH = "/usr/bin:/bin"


def _launcher(folder: Path) -> Path:
    """``folder/.venv/bin/lanomino``, a console script as pip writes it."""
    script = folder / ".venv" / "bin" / "lanomino"
    script.parent.mkdir(parents=True)
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom lanomino.cli import main\n"
                      "sys.exit(main())\n")
    script.chmod(0o755)
    return script


def test_the_command_is_named_as_it_can_be_typed_here(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    script = _launcher(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", BARE_PATH)
    assert invoked_as(".venv/bin/lanomino") == ".venv/bin/lanomino"
    assert invoked_as(str(script)) == str(script)
    monkeypatch.setenv("PATH", f"{script.parent}:{BARE_PATH}")
    assert invoked_as(str(script)) == "lanomino" == invoked_as("lanomino")
    main = str(ROOT / "lanomino" / "__main__.py")
    python = tmp_path / "bin" / "python9"
    python.parent.mkdir()
    python.symlink_to(sys.executable)
    assert invoked_as(main, str(python)) == f"{python} -m lanomino"
    monkeypatch.setenv("PATH", f"{python.parent}:{BARE_PATH}")
    assert invoked_as(main, str(python)) == "python9 -m lanomino"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.skipif(shutil.which("lanomino", path=BARE_PATH) is not None,
                    reason="a lanomino is installed system-wide")
def test_the_saved_game_message_names_the_launcher_the_readme_installs(tmp_path: Path) -> None:
    _launcher(tmp_path)
    command = (f"cd {tmp_path} && PATH={BARE_PATH} PYTHONPATH={ROOT} .venv/bin/lanomino play "
               f"--data-dir {tmp_path / 'data'}; sleep 30")
    tmux = Tmux()
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", command)
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        wait_for(tmux, "Play against the computer")
        tmux.keys("p")
        wait_for(tmux, "Start the game")
        tmux.keys("Enter")
        wait_for(tmux, "Your hand")
        time.sleep(0.5)
        tmux.keys("C-c")  # quit at once: the game in play is saved
        said = wait_for(tmux, "The game is saved", 10)
        assert "The game is saved: `.venv/bin/lanomino play --continue`" in said, said
    finally:
        tmux.kill()
