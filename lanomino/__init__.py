"""lanomino: dominoes on the local network, with a deal anyone can check."""

__version__ = "0.1.0"
