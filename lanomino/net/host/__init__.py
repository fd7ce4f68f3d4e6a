"""The host's sans-I/O session and its parts (session.py says how they fit together)."""
