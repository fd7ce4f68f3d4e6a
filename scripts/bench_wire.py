"""Parsing a message at the edge: the stdlib json decoder plus lanomino's hand-written checks
(``net/wire``), against msgspec Structs (decode and validate in C) for the hot messages, ``move``
and ``update``, and a full ``snapshot_part``. msgspec is not a dependency: ``pip install msgspec``
to compare; without it the script measures our path alone. Medians of 5 runs, microseconds per
message.

Issue 12's point 1 measured again with the typed wire (messages.py dataclasses; this shared
2-core machine, load about 3.5, 16:41 UTC): parse to a typed body, move 25 us and update 36 us
(json.loads alone 10 us; the dict bodies before took 26 and 30 us); msgspec 4-5 us for either,
with the hex signature turned into bytes. Encoding an update: ours 19 us (mostly json), msgspec
1 us.

Issue 31 measured msgspec again: 3-7x faster per message, but that is about 12 us a move of the
host's 125 us. It would accept duplicate keys inside a signed move (the signature covers what the
signer meant, not what a lenient parser kept) and has no nesting limit of its own, so it could
not stand alone, and it needs a step after it for every hex field, the printable-name and pair
checks and the field-naming errors. msgspec stays out: we keep our wire, and look again only with
a new protocol version. (It would not be the first compiled dependency: pyzmq and cryptography
are.) The same issue dropped the base64 regex on ``snapshot_part``'s data: net/chunks.py decodes
the slice with ``validate=True`` anyway; the last row shows what the regex alone cost.
"""

import base64
import json
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from typing import Annotated, Any, Literal  # noqa: E402

from lanomino.net.chunks import PART_BYTES  # noqa: E402
from lanomino.net.codec import decode_json, encode_json  # noqa: E402
from lanomino.net.wire.schemas import envelope, parse_message  # noqa: E402
from lanomino.net.wire.values import event_from_json  # noqa: E402

try:
    import msgspec
except ImportError:  # not a dependency: the comparison is optional
    msgspec = None

move = {
    "v": 1,
    "type": "move",
    "term": 0,
    "seq": 12,
    "body": {
        "hand": 3,
        "index": 17,
        "move": {"seat": 1, "play": "6-4", "end": "left"},
        "signature": "ab" * 64,
        "seen": "cd" * 32,
        "seen_host": "ab" * 64,
        "seen_signature": "ab" * 64,
        "away": False,
    },
}
update = {
    "v": 1,
    "type": "update",
    "term": 0,
    "seq": 40,
    "body": {
        "hand": 3,
        "index": 17,
        "move": {"seat": 1, "play": "6-4", "end": "left"},
        "signature": "ab" * 64,
        "events": [{"e": "played", "seat": 1, "tile": "6-4", "end": "left", "first": False,
                    "exposed": 4, "spinner": False}],
        "turn": 2,
        "head": "ab" * 64,
        "away": False,
        "seen": "cd" * 32,
        "seen_host": "ab" * 64,
        "seen_signature": "ab" * 64,
    },
}
raw_move, raw_update = encode_json(move), encode_json(update)
part_data = base64.b64encode(bytes(range(256)) * (PART_BYTES // 256)).decode("ascii")
part = {"v": 1, "type": "snapshot_part", "term": 0, "seq": 3,
        "body": {"part": 0, "parts": 2, "data": part_data}}
BASE64_RE = re.compile(r"[A-Za-z0-9+/]*={0,2}")  # the check snapshot_part's data no longer has


def msgspec_decoders() -> tuple[Any, Any]:
    assert msgspec is not None
    hex128 = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{128}$")]
    hex64 = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
    count = Annotated[int, msgspec.Meta(ge=0, le=2**31 - 1)]

    class MMove(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
        hand: Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]
        index: count
        move: dict[str, Any]
        signature: hex128
        seen: hex64
        seen_host: hex128 | None
        seen_signature: hex128

    class MEnvMove(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
        v: Literal[1]
        type: Literal["move"]
        term: count
        seq: count
        body: MMove

    class MUpdate(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
        hand: Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]
        index: count
        move: dict[str, Any]
        signature: hex128
        events: list[dict[str, Any]]
        turn: Annotated[int, msgspec.Meta(ge=0, le=3)]
        head: hex128
        away: bool
        seen: hex64 | None
        seen_host: hex128 | None
        seen_signature: hex128 | None

    class MEnvUpdate(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
        v: Literal[1]
        type: Literal["update"]
        term: count
        seq: count
        body: MUpdate

    return msgspec.json.Decoder(MEnvMove), msgspec.json.Decoder(MEnvUpdate)


def bench(fn: Any, n: int = 20000) -> float:
    runs: list[float] = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        runs.append((time.perf_counter() - t) / n * 1e6)
    return statistics.median(runs)


def main() -> None:
    update_body = parse_message(decode_json(raw_update)).body
    for event in update["body"]["events"]:  # type: ignore[index]
        event_from_json(event)  # the sample is one a peer would take
    rows = [
        ("move   stdlib json + checks -> typed body", lambda: parse_message(decode_json(raw_move))),
        ("update stdlib json + checks -> typed body",
         lambda: parse_message(decode_json(raw_update))),
        ("update typed body -> JSON bytes (ours)",
         lambda: encode_json(envelope(update_body, 0, 40))),
        ("json.loads alone (move)", lambda: json.loads(raw_move)),
    ]
    for label, fn in rows:
        print(f"{label + ':':45}{bench(fn):6.2f} us")
    part_rows = [("snapshot_part checks, decoded (150 kB)", lambda: parse_message(part)),
                 ("the base64 regex it no longer runs", lambda: BASE64_RE.fullmatch(part_data))]
    for label, fn in part_rows:
        print(f"{label + ':':45}{bench(fn, 200):6.2f} us")
    if msgspec is None:
        print("msgspec is not installed: pip install msgspec to compare")
        return
    dec_move, dec_update = msgspec_decoders()
    print(f"move   msgspec decode+validate (+hex):       "
          f"{bench(lambda: bytes.fromhex(dec_move.decode(raw_move).body.signature)):6.2f} us")
    print(f"update msgspec decode+validate (+hex):       "
          f"{bench(lambda: bytes.fromhex(dec_update.decode(raw_update).body.signature)):6.2f} us")
    decoded = dec_update.decode(raw_update)
    encoder = msgspec.json.Encoder()
    encoded = bench(lambda: encoder.encode(decoded))
    print(f"{'update msgspec Struct -> JSON bytes:':45}{encoded:6.2f} us")


if __name__ == "__main__":
    main()
