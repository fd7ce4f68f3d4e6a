"""The identity key file in the user's data directory (the only file I/O in ``fair``).

The file ``identity.key`` holds the 32-byte Ed25519 private seed as hex and has mode 0600.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from lanomino.fair.entropy import fresh_bytes
from lanomino.fair.identity import Identity

KEY_FILE = "identity.key"


class KeyStoreError(Exception):
    """The key file exists but cannot be used."""


def load_or_create_identity(directory: Path) -> Identity:
    """The identity stored in ``directory``, created (mode 0600) on first use.

    Raises KeyStoreError when the file is unreadable or damaged.
    """
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = directory / KEY_FILE
    try:
        return _load(path)
    except FileNotFoundError:
        pass
    seed = fresh_bytes(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return _load(path)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(seed.hex() + "\n")
    return Identity.from_seed(seed)


def _load(path: Path) -> Identity:
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        os.chmod(path, 0o600)  # never leave a private key readable by others
    try:
        text = path.read_text(encoding="ascii").strip()
        return Identity.from_seed(bytes.fromhex(text))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise KeyStoreError(f"the identity key file {path} is damaged: {exc}") from exc
