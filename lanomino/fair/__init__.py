"""The verifiable deal: commit-reveal shuffle, escrow, signed transcripts and their verifier.

Pure: imports the engine, hashlib, hmac and ``cryptography``; ``secrets`` is used only in
``entropy.py``; the key file helper in ``keystore.py`` is the only file I/O.
"""

from lanomino.fair.commit import CommitmentError, DealContext, commitment, new_secret, opens
from lanomino.fair.escrow import Escrow, EscrowError, Share, rebuild, resplit, split
from lanomino.fair.identity import Identity, KeyRing, peer_id
from lanomino.fair.shuffle import ALGORITHM, deal_from_deck, deck_order, derive_deal, shuffle_seed
from lanomino.fair.transcript import FORMAT, TranscriptError, parse_transcript
from lanomino.fair.verify import Failure, HandReport, Report, to_record, verify_transcript

__all__ = [
    "ALGORITHM", "FORMAT", "CommitmentError", "DealContext", "Escrow", "EscrowError", "Failure",
    "HandReport", "Identity", "KeyRing", "Report", "Share", "TranscriptError", "commitment",
    "deal_from_deck", "deck_order", "derive_deal", "new_secret", "opens", "parse_transcript",
    "peer_id", "rebuild", "resplit", "shuffle_seed", "split", "to_record", "verify_transcript",
]
