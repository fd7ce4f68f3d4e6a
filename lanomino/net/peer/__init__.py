"""A peer's sans-I/O session and its parts (session.py and state.py say how they fit together)."""
