#!/usr/bin/env python3
"""The locked deck over loopback: each seat its own process, the host a relay, real messages.

For 2, 3 and 4 seats, each seat runs in its own process ('spawn') with a pyzmq DEALER on
127.0.0.1; the parent is the host: a ROUTER that relays every message to the other seats and
follows the deal itself (it checks every key, argument and share like a watcher, and every play).
Every message is Ed25519-signed by its seat and checked by each receiver (``fair/identity.py``).
Each hand, with fresh seeds:

  deal      the host says "start"; keys, the shuffles in seat order (a seat shuffles the deck it
            received before checking that turn: the pipelining of the study), the deal shares,
            until the last seat has opened its hand: the wall time from "start" to that moment
  draw      the host names the drawer; every other seat sends its share; the drawer checks them
            and opens the tile: "draw" sent to tile opened, for the whole boneyard in turn
  play      each seat plays its first tile with its own share: from the seat's send until the
            host has checked the play
  hand end  every seat reveals its key and seed; each checks every reveal (key, shuffle recomputed
            from its seed) and opens the whole deck: "end" sent to the last seat done
  CPU       each seat's process time over the hand (median over seats and hands)

Timestamps are ``time.perf_counter_ns()`` (CLOCK_MONOTONIC: one clock for every process of the
machine). Every wait has a deadline; children stop when told to or when the parent is gone.
This machine has 2 cores for all the processes, so the wall figures carry the machine's load
(printed); on a LAN each seat has its own machine.

    python scripts/bench_blind_procs.py [--hands 10] [--seats 2 3 4]
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import zmq  # noqa: E402

from lanomino.blind.deal_round import LockedDeal, Step  # noqa: E402
from lanomino.blind.deck import aggregate_key, open_deck  # noqa: E402
from lanomino.blind.gate import DealLayout, Refusal  # noqa: E402
from lanomino.blind.hashing import Context  # noqa: E402
from lanomino.blind.holder import Holder  # noqa: E402
from lanomino.blind.rounds import (  # noqa: E402
    KeyAnnouncement,
    Reveal,
    Share,
    ShuffleTurn,
    check_play,
    check_reveal,
    open_all,
    shares_from_bytes,
    shares_to_bytes,
)
from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.identity import Identity, KeyRing  # noqa: E402

TABLE = bytes(range(16))
TILES = 28
WAIT_MS = 30_000  # no wait without a deadline
# message kinds: host -> seats
START, DRAW, PLAY, END, QUIT = b"S", b"X", b"Y", b"Z", b"Q"
# seats -> host (relayed to the other seats when public)
KEY, TURN, SHARES, KNOWN, DRAW_SHARE, DRAWN, MOVE, REVEAL, CHECKED = (
    b"K", b"T", b"D", b"H", b"W", b"O", b"P", b"R", b"E")
RELAYED = {KEY, TURN, SHARES, DRAW_SHARE, REVEAL}


def identity(seat: int) -> Identity:
    return Identity.from_seed(hashlib.sha256(f"bench seat {seat}".encode()).digest())


def context(n: int, hand: int) -> tuple[Context, DealLayout]:
    return (Context(TABLE, hand, 1, TILES, tuple(range(n))),
            DealLayout.for_deal(TILES, [True] * n, Rules.classic().hand_size_for(n)))


def now_ns() -> bytes:
    return time.perf_counter_ns().to_bytes(8, "big")


class Link:
    """A seat's DEALER: signed frames out, checked frames in, every receive with a deadline."""

    def __init__(self, port: int, seat: int, n: int) -> None:
        self.me, self.key = seat, identity(seat)
        self.keys = {s: identity(s).public_key for s in range(n)}
        self.ring = KeyRing()
        self.sock = zmq.Context.instance().socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.setsockopt(zmq.IDENTITY, bytes([seat]))
        self.sock.setsockopt(zmq.RCVTIMEO, WAIT_MS)
        self.sock.connect(f"tcp://127.0.0.1:{port}")

    def send(self, kind: bytes, payload: bytes = b"") -> None:
        self.sock.send_multipart([kind, payload, self.key.sign(kind + payload)])

    def receive(self) -> tuple[bytes, int, bytes]:
        """(kind, sender seat or -1 for the host, payload); a bad signature is a crash here."""
        frames = self.sock.recv_multipart()
        if len(frames) == 2:  # from the host itself
            return frames[0], -1, frames[1]
        kind, sender, payload, signature = frames
        seat = sender[0]
        if not self.ring.verify(self.keys[seat], signature, kind + payload):
            raise RuntimeError(f"seat {seat}'s message does not carry its signature")
        return kind, seat, payload


def seat_main(port: int, seat: int, n: int) -> None:
    link = Link(port, seat, n)
    link.send(b"hello")
    try:
        while _play_hand(link, seat, n):
            pass
    finally:
        link.sock.close(0)


def _play_hand(link: Link, seat: int, n: int) -> bool:
    kind, _, payload = link.receive()
    if kind == QUIT:
        return False
    assert kind == START
    cpu0 = time.process_time()
    ctx, layout = context(n, int.from_bytes(payload, "big"))
    holder = Holder(ctx, seat, layout, os.urandom(32), os.urandom(32))
    deal = LockedDeal.started(ctx, layout, 0.0, None)
    link.send(KEY, holder.announce().to_bytes())
    deal.receive_key(holder.announce(), 0.0)
    hand: list[int] = []
    draw_shares: list[Share] = []
    while True:
        kind, sender, payload = link.receive()
        if kind == KEY:
            deal.receive_key(KeyAnnouncement.from_bytes(payload), 0.0)
            if deal.step is Step.SHUFFLE:
                holder.keys_agreed(deal.ctx)
                if seat == 0:
                    mine = holder.shuffle(deal.deck)
                    link.send(TURN, mine.to_bytes())
                    deal.receive_shuffle(mine, 0.0)
        elif kind == TURN:
            turn = ShuffleTurn.from_bytes(payload, TILES)
            mine = None
            if turn.seat == seat - 1:  # shuffle first, then check: the study's pipelining
                mine = holder.shuffle(turn.deck)
                link.send(TURN, mine.to_bytes())
            deal.receive_shuffle(turn, 0.0)
            if mine is not None:
                deal.receive_shuffle(mine, 0.0)
        elif kind == SHARES:
            deal.receive_shares(sender, shares_from_bytes(payload), 0.0)
        elif kind == DRAW:
            drawer = payload[0]
            position = holder.drew(drawer)
            draw_shares = []
            if drawer != seat:
                share = holder.draw_share("host", position, drawer)
                assert not isinstance(share, Refusal), str(share)
                link.send(DRAW_SHARE, share.to_bytes())
        elif kind == DRAW_SHARE:
            share = Share.from_bytes(payload)
            if holder.gate.owner(share.position) == seat:
                draw_shares.append(share)
                if len(draw_shares) == n - 1:
                    hand.append(holder.open(share.position, draw_shares))
                    link.send(DRAWN, now_ns())
        elif kind == PLAY:
            position = layout.dealt[seat][0]
            stamp = now_ns()
            own = holder.play(position)
            assert not isinstance(own, Refusal)
            link.send(MOVE, stamp + bytes([position, hand[0]]) + own.to_bytes())
        elif kind == END:
            link.send(REVEAL, holder.reveal().to_bytes())
            reveals = {seat: holder.reveal()}
            while len(reveals) < n:
                kind, sender, payload = link.receive()
                assert kind == REVEAL
                reveals[sender] = Reveal.from_bytes(payload)
            _check_end(deal, reveals)
            cpu = round((time.process_time() - cpu0) * 1e6).to_bytes(8, "big")
            link.send(CHECKED, now_ns() + cpu)
            return True
        if deal.step is Step.SHARES and seat not in deal.shares:
            holder.deck_agreed(deal.deck)
            batch = holder.deal_shares("host")
            assert not isinstance(batch, Refusal)
            link.send(SHARES, shares_to_bytes(batch))
            deal.receive_shares(seat, batch, 0.0)
        if deal.step is Step.DONE and not hand:
            hand = [holder.open(p, deal.shares_of(p)) for p in layout.dealt[seat]]
            link.send(KNOWN, now_ns())


def _check_end(deal: LockedDeal, reveals: dict[int, Reveal]) -> None:
    before = open_deck(aggregate_key(deal.ctx.keys), TILES)
    for turn in deal.turns:
        check_reveal(deal.ctx, reveals[turn.seat], before, turn)
        before = turn.deck
    open_all(deal.ctx, deal.deck, {s: r.secret for s, r in reveals.items()})


class Host:
    """The parent: relays, follows the deal as a watcher, drives the steps and times them."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.sock = zmq.Context.instance().socket(zmq.ROUTER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.setsockopt(zmq.RCVTIMEO, WAIT_MS)
        self.port = self.sock.bind_to_random_port("tcp://127.0.0.1")
        self.deal: LockedDeal | None = None

    def tell(self, kind: bytes, payload: bytes = b"") -> None:
        for seat in range(self.n):
            self.sock.send_multipart([bytes([seat]), kind, payload])

    def pump(self, want: bytes, count: int) -> list[tuple[int, bytes]]:
        """Relay and follow until ``count`` messages of kind ``want`` came in."""
        got = []
        while len(got) < count:
            route, kind, payload, signature = self.sock.recv_multipart()
            sender = route[0]
            if kind in RELAYED:
                for seat in range(self.n):
                    if seat != sender:
                        self.sock.send_multipart([bytes([seat]), kind, route, payload,
                                                  signature])
            self.follow(kind, sender, payload)
            if kind == want:
                got.append((sender, payload))
        return got

    def follow(self, kind: bytes, sender: int, payload: bytes) -> None:
        deal = self.deal
        assert deal is not None
        if kind == KEY:
            deal.receive_key(KeyAnnouncement.from_bytes(payload), 0.0)
        elif kind == TURN:
            deal.receive_shuffle(ShuffleTurn.from_bytes(payload, TILES), 0.0)
        elif kind == SHARES:
            deal.receive_shares(sender, shares_from_bytes(payload), 0.0)

    def hand(self, number: int) -> dict[str, list[float]]:
        ctx, layout = context(self.n, number)
        self.deal = LockedDeal.started(ctx, layout, 0.0, None)
        out: dict[str, list[float]] = {"deal": [], "draw": [], "play": [], "end": [], "cpu": []}
        t0 = time.perf_counter_ns()
        self.tell(START, number.to_bytes(4, "big"))
        known = self.pump(KNOWN, self.n)
        out["deal"].append(max(int.from_bytes(p, "big") for _, p in known) / 1e6 - t0 / 1e6)
        for i, _ in enumerate(layout.boneyard):
            t0 = time.perf_counter_ns()
            self.tell(DRAW, bytes([i % self.n]))
            [(_, stamp)] = self.pump(DRAWN, 1)
            out["draw"].append((int.from_bytes(stamp, "big") - t0) / 1e6)
        for seat in range(self.n):
            self.sock.send_multipart([bytes([seat]), PLAY, b""])
            [(sender, payload)] = self.pump(MOVE, 1)
            sent, position, tile = int.from_bytes(payload[:8], "big"), payload[8], payload[9]
            own = Share.from_bytes(payload[10:])
            check_play(self.deal.ctx, self.deal.deck, sender, position, tile, own,
                       self.deal.shares_of(position), layout.seat_of(position))
            out["play"].append((time.perf_counter_ns() - sent) / 1e6)
        t0 = time.perf_counter_ns()
        self.tell(END)
        checked = self.pump(CHECKED, self.n)
        out["end"].append(max(int.from_bytes(p[:8], "big") for _, p in checked) / 1e6 - t0 / 1e6)
        out["cpu"] += [int.from_bytes(p[8:], "big") / 1000 for _, p in checked]
        return out


def run(n: int, hands: int) -> dict[str, list[float]]:
    host = Host(n)
    spawn = multiprocessing.get_context("spawn")
    children = [spawn.Process(target=seat_main, args=(host.port, s, n), daemon=True)
                for s in range(n)]
    for child in children:
        child.start()
    try:
        for _ in range(n):
            host.sock.recv_multipart()  # hellos
        totals: dict[str, list[float]] = {}
        for number in range(1, hands + 1):
            for key, values in host.hand(number).items():
                totals.setdefault(key, []).extend(values)
        host.tell(QUIT)
        return totals
    finally:
        for child in children:
            child.join(5)
            if child.is_alive():
                child.terminate()
                child.join(5)
        host.sock.close(0)


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores)")
    print(f"{'seats':>5} {'deal median':>12} {'deal max':>9} {'draw median':>12} {'draw p99':>9} "
          f"{'play median':>12} {'hand end':>9} {'CPU/seat/hand':>14}")
    for n in args.seats:
        r = run(n, args.hands)
        print(f"{n:>5} {statistics.median(r['deal']):>12.1f} {max(r['deal']):>9.1f} "
              f"{statistics.median(r['draw']):>12.2f} {p99(r['draw']):>9.2f} "
              f"{statistics.median(r['play']):>12.2f} {statistics.median(r['end']):>9.1f} "
              f"{statistics.median(r['cpu']):>14.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print("goals (4 people): deal median <= 500 ms, draw p99 <= 20 ms, play median <= 5 ms, "
          "hand end <= 60 ms, CPU <= 150 ms per seat per hand")
    print("study's prototype (4 x 28): deal 200-290 ms, draw 4.0 ms median (max 21), play 2.3 "
          "ms, hand end 19-28 ms, CPU ~100 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
