"""lanomino: dominoes on the local network, with a deal anyone can check."""

__version__ = "0.1.0"

# How the person started lanomino, for the words that tell them a command to type: "lanomino"
# when the PATH finds it, else as they typed it (".venv/bin/lanomino", "python3 -m lanomino").
# ``cli.main`` sets it from how this process was started (``cli.invoked_as``).
COMMAND = "lanomino"


def command(words: str = "") -> str:
    """``lanomino WORDS`` as the person can type it here (``command("play --continue")``)."""
    return f"{COMMAND} {words}" if words else COMMAND
