"""Where a node keeps its match as it goes (``runtime/base.py``): the transcript file, written
again after every hand, and the play log behind history and stats, written off the event loop.

The play log checks the transcript it is given, and a node logs its match after every hand: it
checks through one ``TranscriptStream`` (``fair/stream2.py``), which checks each hand once. A
fresh check of the whole transcript each time made a locked match slower hand after hand at every
node (about 20 ms of CPU for each hand already played). One play-log write at a time, the latest:
an older one still waiting is skipped (the newer holds it all)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from lanomino.fair.stream2 import TranscriptStream
from lanomino.net.session import TranscriptUpdated


class MatchLog:
    """A node's transcript file and play-log entry for the match it takes part in."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.checks = TranscriptStream()
        self.lock = threading.Lock()
        self.latest: TranscriptUpdated | None = None

    def write(self, event: TranscriptUpdated) -> Path:
        """The transcript as it stands, to its file (a new file, then renamed over the old)."""
        folder = self.data_dir / "transcripts"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{event.table}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(event.transcript, indent=1))
        tmp.replace(path)
        self.latest = event
        return path

    def log_play(self, event: TranscriptUpdated, me: int | None, table: str,
                 verified: bool | None) -> None:
        """Add the match, as ``event`` has it, to the play log (in a thread: it checks the
        transcript), unless a newer transcript was written since."""
        from lanomino.store import PlayLog, open_store

        with self.lock:
            if event is not self.latest:
                return
            store = open_store(self.data_dir)
            try:
                PlayLog(store).log_match(event.transcript, uid=f"lan:{event.table}", me=me,
                                         table=table, verified=verified, check=self.checks.check)
            finally:
                store.close()
