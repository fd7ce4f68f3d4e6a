"""Game records: the JSON that says everything needed to replay a match (pure)."""

from lanomino.record.format import (
    FORMAT,
    HandRecord,
    MalformedRecordError,
    Move,
    Record,
    action_to_json,
    parse_record,
    record_to_json,
)
from lanomino.record.replay import HandSummary, IllegalMoveError, ReplayResult, replay

__all__ = [
    "FORMAT", "HandRecord", "HandSummary", "IllegalMoveError", "MalformedRecordError", "Move",
    "Record", "ReplayResult", "action_to_json", "parse_record", "record_to_json", "replay",
]
