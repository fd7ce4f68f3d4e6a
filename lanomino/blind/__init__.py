"""The locked deck: a deal that nobody, the host included, can read (issue 29). Pure.

An ElGamal deck on ristretto255 (``group.py``, through libsodium's ``rbcl`` binding) under the
sum of the holders' keys (``deck.py``); each holder shuffles and re-masks it in turn with a
Terelius–Wikström argument (``shuffle_proof.py``); keys carry Schnorr proofs and decryption shares
Chaum–Pedersen proofs (``proofs.py``), all bound by one Fiat–Shamir context (``hashing.py``). The
messages and their checks are in ``rounds.py``; a holder's side in ``holder.py``; the rule that
decides which share a holder may release in ``gate.py``; the record of a locked hand
(``hand_record.py``) and its offline verifier (``hand_check.py``); the public rounds that find
who leads (``lead_rounds.py``); the blind re-shuffle after a
holder is lost (``unheld.py``), the escrow of a key among the other holders
(``key_escrow.py``), and the scores after the reveal of a hand the host ran on the engine's
public view (``settle.py``, with ``engine/public.py``). Not wired into the table yet:
see docs/fair-deal.md, "The locked deck".
"""

from lanomino.blind.hashing import ALGORITHM

__all__ = ["ALGORITHM"]
