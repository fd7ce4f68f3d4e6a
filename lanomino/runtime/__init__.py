"""The runtime: the asyncio loops that run a table's sans-I/O sessions over real sockets.

``base`` (what every node shares), ``host_node`` (a table), ``peer_node`` (a seat at a table,
which may become its host; ``host_link``: its connection to the host of the moment).
``lanomino.node`` names what commands and clients use.
"""
