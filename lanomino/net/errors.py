"""Protocol errors, split by who is at fault (after h11).

``LocalProtocolError``: we were about to break the protocol (a bug on this side, or a message we
were asked to send that is not valid). ``RemoteProtocolError``: a peer sent something invalid. A
remote error never crashes a node: the caller drops the message (or the peer), counts it and logs
it. Both are ``ValueError`` so callers may catch either.
"""

from __future__ import annotations


class ProtocolError(ValueError):
    """Base class of the network protocol errors."""


class LocalProtocolError(ProtocolError):
    """This side tried to send something the protocol does not allow."""


class RemoteProtocolError(ProtocolError):
    """A peer sent something the protocol does not allow."""


class TransportError(OSError):
    """The transport could not do what was asked (not connected, handshake failed, queue full)."""
