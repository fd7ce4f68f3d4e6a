"""The client: one controller for local and LAN games, behind typed seams (``client.seam``).

``controller`` acts on the UI's intents; ``local`` and ``lan`` are the two kinds of table it
drives; ``lobby`` finds, opens and joins LAN tables; ``logbook`` reads and writes the play log.
The commands use the same parts: ``find`` (a table by name or address, and whether to trust its
host), ``hosting`` (a table's checks and its host node), ``headless`` (a node run to its end,
told in sentences or JSON lines), ``replay`` (a document to a record to a view) and ``launch``
(the full screen or the line mode).
"""


class ClientError(Exception):
    """What a person asked for cannot be done; the message says why (the command line prints it
    and exits with status 2)."""
