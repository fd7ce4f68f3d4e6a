"""Opening a table: its checks and its host node, one builder for the host form and ``host``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from lanomino.engine import Rules

if TYPE_CHECKING:
    from lanomino.client.lobby import NetOptions
    from lanomino.node import HostNode
    from lanomino.ui.lan import HostTable

MAX_WATCHERS = 64


def table_rules(intent: HostTable, watchers: int) -> Rules:
    """The rules of the table ``intent`` asks for, once everything about it is checked.

    Raises:
        ValueError: a name the LAN cannot carry, a number of seats the rules do not allow, more
            bots than seats to fill, an unknown bot level, or a watcher count out of range (the
            message says which).
    """
    from lanomino.bots import get_bot
    from lanomino.discovery.announce import check_name

    rules = intent.rules or Rules.preset(intent.preset)
    check_name(intent.name)
    rules.check_players(intent.seats)
    if not 0 <= intent.bots < intent.seats:
        raise ValueError(f"bots must be 0..{intent.seats - 1} at a table of {intent.seats}")
    get_bot(intent.level)
    if not 0 <= watchers <= MAX_WATCHERS:
        raise ValueError(f"watchers must be 0..{MAX_WATCHERS}")
    return rules


def host_node(intent: HostTable, rules: Rules, options: NetOptions, player: str, *,
              headless: bool = False, port: int | None = None, on: str | None = None,
              reserve: Mapping[bytes, int] | None = None, reserve_s: float = 60.0) -> HostNode:
    """The node that hosts ``intent``'s table (``headless``: a bot at its level plays the host's
    seat); ``port`` and ``on`` (the one address to serve and announce on) override ``options``;
    ``reserve``: a rematch's seats kept for their players. Raises ValueError: a port asked for is
    taken (``check_ports``)."""
    from lanomino.node import HostNode

    o = options
    bind, interfaces = (on, [on]) if on else (o.bind, o.interfaces)
    check_ports(bind, o.port if port is None else port)
    return HostNode(data_dir=o.data_dir, rules=rules, seats=intent.seats, bots=intent.bots,
                    level=intent.level, name=intent.name,
                    player=player, passphrase=intent.passphrase, bind=bind,
                    port=o.port if port is None else port, timings=o.timings_or_default(),
                    interfaces=interfaces, headless=headless, announce=o.announce,
                    watchers=o.watchers, reserve=reserve, reserve_s=reserve_s,
                    escrow=intent.escrow,
                    # (a table where the host is the only person deals fair: nobody to hide from)
                    blind=intent.blind and intent.seats - intent.bots > 1)


def check_ports(bind: str | None, port: int) -> None:
    """A table asked to serve on ``port`` at ``bind`` needs an address of this machine, and the port
    and the next one (its key service, which answers joins by ``HOST:PORT/CODE``). Raises
    ValueError, in words, when the address is not this machine's, the port is out of range or
    either is taken; anything else is left for the real bind to say. Port 0 (any free one) is not
    checked."""
    import errno
    import socket

    _check_bind(bind)
    if not port:
        return
    if not 1 <= port <= 65534:  # (65535 has no next port for the key service)
        raise ValueError(f"--port {port} is not a port a table can use: give one from 1 to 65534 "
                         "(a table takes its port and the next one), or leave --port out for any "
                         "free one")
    host = (bind or "").strip("[]")
    for taken in (port, port + 1):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (as the real bind)
            try:
                probe.bind((host, taken))
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE:
                    return
                raise ValueError(_in_use(port, taken)) from None


def _check_bind(bind: str | None) -> None:
    """An address to serve on must be one of this machine's. Raises ValueError, in words."""
    import errno
    import socket

    host = (bind or "").strip("[]")
    if not host or host in ("*", "0.0.0.0", "::"):
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, 0))
        except OSError as exc:
            if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
                raise ValueError(f"{host} is not an address of this machine: serve on one of its "
                                 "own (127.0.0.1 for this machine only), or leave --bind out to "
                                 "serve on every interface") from None
        except (socket.gaierror, UnicodeError):
            raise ValueError(f"{host!r} is not an IP address: give one of this machine's, such "
                             "as 127.0.0.1") from None


def _in_use(port: int, taken: int) -> str:
    advice = "choose another --port, not next to another table's, or leave --port out for any"
    if taken == port:
        return (f"port {port} is in use on this machine, by another program or another table "
                f"(a table takes its port and the next one, for its key service): {advice} "
                "free one")
    return (f"port {taken} is in use on this machine, and a table on port {port} needs it too "
            f"(for its key service, which answers joins by HOST:PORT/CODE): {advice} free one")
