"""Every seat's side of the fair-deal protocol, in one process: a match played by bots that ends
in a signed transcript (``lanomino selfplay --transcripts DIR``, tests, benchmarks).

Each seat is its own ``Identity`` with its own secrets; the host (a seat) collects commitments,
signs and sends the set, checks the echoes, takes the reveals and deals. Nothing here is trusted
by the verifier: it only checks what ends up in the transcript.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lanomino.engine import (
    Action,
    DealVoided,
    HandEnded,
    MatchEnded,
    Observation,
    Rules,
    apply,
    observe,
)
from lanomino.engine.state import GameState, Phase, new_game, start_hand
from lanomino.fair import statements as st
from lanomino.fair.commit import (
    DealContext,
    check_own_in_set,
    commitment,
    new_secret,
    new_table_id,
)
from lanomino.fair.commit_reveal import CommitReveal, deal_domain
from lanomino.fair.identity import Identity, KeyRing
from lanomino.fair.shuffle import ALGORITHM, derive_deal

# A bot sees an observation and its own random source (any object the bot understands).
SeatBot = Callable[[Observation, Any], Action]
SecretSource = Callable[[], bytes]
MAX_ATTEMPTS = 1000


@dataclass(frozen=True, slots=True)
class FairMatch:
    transcript: dict[str, Any]
    outcome: MatchEnded | None  # None when the match stopped at max_hands
    hands: int  # hands played, void deals excluded
    hand_points: tuple[int, ...]  # total points per side over the match


class ProtocolError(RuntimeError):
    """A side of the in-process protocol caught another cheating (a bug here: nobody cheats)."""


def play_fair_match(
    rules: Rules,
    players: Sequence[str],
    bots: Sequence[SeatBot],
    rngs: Sequence[Any],
    *,
    identities: Sequence[Identity] | None = None,
    secret_source: SecretSource = new_secret,
    table_id: bytes | None = None,
    host: int = 0,
    max_hands: int = 1000,
    include_deal: bool = False,
    rules_spec: dict[str, Any] | None = None,
) -> FairMatch:
    """Play one match with the fair-deal protocol: its ``lanomino.transcript/1`` JSON
    (``.transcript``), outcome and points.

    ``bots[i]`` plays seat i with ``rngs[i]``. Pass ``identities``, ``secret_source`` and
    ``table_id`` to make the transcript reproducible (Ed25519 signatures are deterministic).
    """
    n = len(players)
    if not (len(bots) == len(rngs) == n):
        raise ValueError("one bot and one random source per player")
    ids = list(identities) if identities is not None else [Identity.generate() for _ in range(n)]
    table = table_id if table_id is not None else new_table_id()
    header = st.header_of(table, ALGORITHM, rules_spec or rules.to_spec(), players,
                          [i.public_key for i in ids], None)  # (no move clock: bots move at once)
    digest_ = st.header_digest(header)
    signatures = [ids[s].sign_statement(st.header_statement(digest_, s)).hex() for s in range(n)]
    doc: dict[str, Any] = {**header, "header_signatures": signatures, "hands": []}
    state = new_game(rules, n)
    while state.phase is Phase.DEAL and len(doc["hands"]) < max_hands:
        number = len(doc["hands"]) + 1
        table_hand = _FairHand(state, ids, table, digest_, number, host, secret_source)
        doc["hands"].append(table_hand.play(bots, rngs, include_deal))
    winner = state.outcome.winner if state.outcome is not None else None
    finished = state.phase is Phase.OVER
    end = st.end_statement(digest_, host, len(doc["hands"]), finished, winner, state.scores)
    doc["end"] = {"host": host, "hands": len(doc["hands"]), "finished": finished, "winner": winner,
                  "scores": list(state.scores), "signature": ids[host].sign_statement(end).hex()}
    totals = [0] * state.sides
    for result in state.results:
        totals = [t + p for t, p in zip(totals, result.points, strict=True)]
    return FairMatch(doc, state.outcome, state.dealt_hands, tuple(totals))


class _FairHand:
    """One hand: commit-reveal rounds until a playable deal, then play, then the signed log."""

    def __init__(self, state: GameState, ids: Sequence[Identity], table: bytes, header: str,
                 hand: int, host: int, secret_source: SecretSource) -> None:
        self.state, self.ids, self.table, self.header = state, ids, table, header
        self.hand, self.host, self.secret_source = hand, host, secret_source
        self.host_id = ids[host]
        self.deals: list[dict[str, Any]] = []
        self.digests: list[bytes] = []
        self.secrets: list[list[tuple[int, bytes]]] = []

    def play(self, bots: Sequence[SeatBot], rngs: Sequence[Any],
             include_deal: bool) -> dict[str, Any]:
        hands, boneyard = self.deal()
        moves: list[dict[str, Any]] = []
        signatures: list[str] = []
        state = self.state
        while state.phase is Phase.PLAY:
            seat = state.turn
            action = bots[seat](observe(state, seat), rngs[seat])
            move = st.move_json(seat, action)
            statement = st.move_statement(self.header, self.hand, len(moves), move)
            signed = self.ids[seat].sign_statement(statement)
            apply(state, seat, action)  # the host refuses an illegal move (a bot bug here)
            moves.append(move)
            signatures.append(signed.hex())
        ended = next(e for e in reversed(state.history) if isinstance(e, HandEnded))
        points, scores = list(ended.points), list(state.scores)
        log = st.log_statement(self.header, self.hand, self.host, self.digests, self.secrets,
                               moves, points, scores)
        out: dict[str, Any] = {"hand": self.hand, "host": self.host, "deals": self.deals,
                               "moves": moves, "move_signatures": signatures,
                               "points": points, "scores": scores,
                               "log_signature": self.host_id.sign_statement(log).hex()}
        if include_deal:
            out["deal"] = [[str(t) for t in h] for h in hands]
            out["boneyard"] = [str(t) for t in boneyard]
        return out

    def deal(self) -> tuple[list[list[Any]], list[Any]]:
        state = self.state
        for attempt in range(1, MAX_ATTEMPTS + 1):
            ctx = DealContext(self.table, self.hand, attempt)
            opened = self.commit_reveal(ctx)
            _, hands, boneyard = derive_deal(ctx, opened, state.rules, state.active)
            events = start_hand(state, hands, boneyard)
            if not isinstance(events[0], DealVoided):
                return [list(h) for h in hands], list(boneyard)
        raise ProtocolError(f"no playable deal after {MAX_ATTEMPTS} attempts")

    def commit_reveal(self, ctx: DealContext) -> list[tuple[int, bytes]]:
        """Steps 1-3 of the protocol for one deal attempt, through the one commit-reveal machine
        (fair/commit_reveal.py) every host runs; returns the opened secrets."""
        seats = [s for s in range(self.state.players) if self.state.active[s]]
        ring = KeyRing()
        keys = [i.public_key for i in self.ids]
        domain = deal_domain(self.header, ctx, self.host,
                             lambda seat, sig, st: ring.verify_statement(keys[seat], sig, st))
        secrets = {s: self.secret_source() for s in seats}
        r = CommitReveal.started(domain, seats, 0.0, None)
        for s in seats:
            c = commitment(ctx, s, secrets[s])
            r.add_commit(s, c, self.ids[s].sign_statement(domain.commit_statement(s, c)))
        r.seal(self.host_id.sign_statement, 0.0)
        assert r.statement is not None
        for s in seats:  # each seat checks its own commitment is in the set, then echoes it
            check_own_in_set(r.statement, s, r.commits[s][0])
            r.add_echo(s, r.digest, self.ids[s].sign_statement(domain.echo_statement(s, r.digest)),
                       0.0)
        for s in seats:
            r.add_secret(s, secrets[s], 0.0)
        if not r.done:
            raise ProtocolError("the commit-reveal round did not finish")
        self.deals.append(r.attempt(ctx.attempt).to_json())
        self.digests.append(r.digest)
        opened = r.opened()
        self.secrets.append(opened)
        return opened
