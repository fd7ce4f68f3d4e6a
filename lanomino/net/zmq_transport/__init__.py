"""The ZeroMQ adapter: a CURVE-encrypted ROUTER on the host, a DEALER per peer. Only zmq importer.

``sockets.py`` holds what both ends share (keypairs, socket options, the descriptor wake-up),
``router.py`` the host's ROUTER with its ZAP handler, ``dealer.py`` a peer's DEALER.

Theory of operation:

* Every connection is CURVE: the host's ROUTER is a CURVE server with its own keypair; each peer's
  DEALER is a CURVE client that must know the host's public key before it connects (from the
  discovery TXT record, or from a direct ``HOST:PORT/KEY`` address). A peer holding the wrong key
  never completes the handshake, so it can neither send nor receive anything.
* The host runs a ZAP handler that accepts any client key (anyone on the LAN may sit down; the
  passphrase is the session's business) but makes libzmq attach the client's authenticated public
  key to every message. ``Incoming.peer_key`` is that key: the session can recognise a returning
  player by it, whatever connection it comes back on.
* Messages are single frames of UTF-8 JSON objects (``codec.encode_json`` / ``decode_json``), never
  pickle. libzmq drops a connection that sends a frame over ``max_message_bytes``
  (``ZMQ_MAXMSGSIZE``); frames that arrive but are not valid JSON objects are counted, reported to
  ``on_malformed`` and dropped, and never raise out of ``receive``.
* Sends never block: the host's ROUTER is ``ROUTER_MANDATORY`` and a send to a gone or saturated
  peer returns False; the peer's DEALER is ``IMMEDIATE`` and a send with no live connection raises
  ``TransportError`` (nothing is queued for a host that might come back in a later term).
* ``LINGER=0`` everywhere and each transport owns its context, so ``close`` is immediate and leaves
  no libzmq thread behind. Heartbeats, sequence numbers and terms are the session's job.
* No connection gets more than its budget (``net/budget.py``): when the host passes ``budgets``
  and ``is_seated``, a frame over its connection's budget (small without a seat, larger with
  one) is dropped before it is parsed, and counted (``stats.over_budget``). The work done per
  turn of the event loop is bounded: after ``MAX_BATCH`` frames read back to back, ``receive``
  yields to the loop, so timers (heartbeats), sends and the CURVE handshakes of newcomers (the
  ZAP handler runs on the same loop) always get their turn, whatever a flood queues.
* The hot path does not go through ``zmq.asyncio``'s futures: the sockets are plain (blocking-API)
  pyzmq sockets used only with ``NOBLOCK``, and ``sockets.Wakeup`` watches the socket's descriptor
  with ``loop.add_reader``. A receive first takes a message that is already queued (no event-loop
  hop at all when several arrived together) and only waits when there is none. libzmq's descriptor
  is edge-triggered and any call on the socket (a send, too) may consume its signal, so after each
  send a waiting receive is woken if a message is ready. Closing a transport cancels a receive
  waiting on it. Needs a selector event loop (the default on Linux and macOS).
"""

from lanomino.net.zmq_transport.dealer import CONNECT_TIMEOUT_S, PeerTransport
from lanomino.net.zmq_transport.router import MAX_BATCH, HostTransport, Incoming
from lanomino.net.zmq_transport.sockets import (
    CLOSE_LINGER_MS,
    HIGH_WATER_MARK,
    CurveKeypair,
    MalformedHandler,
    TransportStats,
)

__all__ = [
    "CLOSE_LINGER_MS",
    "CONNECT_TIMEOUT_S",
    "HIGH_WATER_MARK",
    "MAX_BATCH",
    "CurveKeypair",
    "HostTransport",
    "Incoming",
    "MalformedHandler",
    "PeerTransport",
    "TransportStats",
]
