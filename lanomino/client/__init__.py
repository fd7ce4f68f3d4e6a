"""The client: one controller for local and LAN games, behind typed seams (``client.seam``).

``controller`` acts on the UI's intents; ``local`` and ``lan`` are the two kinds of table it
drives; ``lobby`` finds, opens and joins LAN tables; ``logbook`` reads and writes the play log.
"""
