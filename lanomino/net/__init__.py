"""Networked tables: the pure protocol (codec, errors) and, apart, the ZeroMQ adapter.

Importing ``lanomino.net`` does not import zmq; only ``lanomino.net.zmq_transport`` does.
"""

from lanomino.net.codec import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Envelope,
    decode,
    decode_json,
    encode,
    encode_json,
    parse_envelope,
)
from lanomino.net.errors import (
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
    TransportError,
)

__all__ = [
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "Envelope",
    "LocalProtocolError",
    "ProtocolError",
    "RemoteProtocolError",
    "TransportError",
    "decode",
    "decode_json",
    "encode",
    "encode_json",
    "parse_envelope",
]
