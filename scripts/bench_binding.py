#!/usr/bin/env python3
"""The two libsodium bindings on the operations the locked deck needs, side by side.

``rbcl`` exposes ristretto255 (a prime-order group: any valid encoding is a safe point).
PyNaCl (the PyCA binding) exposes no ristretto255 at all, only the ed25519 group, whose order has
a cofactor of 8: every point received there must also pass ``is_valid_point`` (the subgroup check),
so that check is timed with it and added to its multi-exponentiation loop.

Per operation, median of runs, CPU microseconds (process time: other jobs on the machine do not
count); then a loop of N = 28 and 55 terms Σ kᵢ·Pᵢ (the shape of the shuffle argument's
multi-exponentiations) in milliseconds. PyNaCl is not a dependency of lanomino: install it to run
this script.

    python scripts/bench_binding.py [--runs 7]
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Callable

import nacl.bindings as nacl
import rbcl

ORDER = 2**252 + 27742317777372353535851937790883648493


def per_call_us(fn: Callable[[], object], runs: int, min_s: float = 0.05) -> float:
    calls = 1
    while True:
        start = time.process_time()
        for _ in range(calls):
            fn()
        if time.process_time() - start >= min_s:
            break
        calls *= 2
    samples = []
    for _ in range(runs):
        start = time.process_time()
        for _ in range(calls):
            fn()
        samples.append((time.process_time() - start) / calls * 1e6)
    return statistics.median(samples)


def scalars(n: int) -> list[bytes]:
    return [(int.from_bytes(hashlib.sha512(bytes([i])).digest(), "little") % ORDER)
            .to_bytes(32, "little") for i in range(n)]


def ristretto_ops(n: int) -> dict[str, Callable[[], object]]:
    ks = scalars(n)
    points = [rbcl.crypto_scalarmult_ristretto255_base(k) for k in ks]
    p, q, k = points[0], points[1], ks[2]
    digest = hashlib.sha512(b"h").digest()

    def multi() -> None:
        acc = rbcl.crypto_scalarmult_ristretto255(ks[0], points[0])
        for ki, pi in zip(ks[1:], points[1:], strict=True):
            term = rbcl.crypto_scalarmult_ristretto255(ki, pi)
            acc = rbcl.crypto_core_ristretto255_add(acc, term)

    return {"k*P": lambda: rbcl.crypto_scalarmult_ristretto255(k, p),
            "k*B": lambda: rbcl.crypto_scalarmult_ristretto255_base(k),
            "P+Q": lambda: rbcl.crypto_core_ristretto255_add(p, q),
            "hash to point": lambda: rbcl.crypto_core_ristretto255_from_hash(digest),
            "point check": lambda: rbcl.crypto_core_ristretto255_is_valid_point(p),
            "multi": multi}


def ed25519_ops(n: int) -> dict[str, Callable[[], object]]:
    ks = scalars(n)
    points = [nacl.crypto_scalarmult_ed25519_base_noclamp(k) for k in ks]
    p, q, k = points[0], points[1], ks[2]
    uniform = hashlib.sha256(b"h").digest()

    def multi() -> None:  # every received point is checked once on this group
        for pi in points:
            nacl.crypto_core_ed25519_is_valid_point(pi)
        acc = nacl.crypto_scalarmult_ed25519_noclamp(ks[0], points[0])
        for ki, pi in zip(ks[1:], points[1:], strict=True):
            acc = nacl.crypto_core_ed25519_add(acc, nacl.crypto_scalarmult_ed25519_noclamp(ki, pi))

    return {"k*P": lambda: nacl.crypto_scalarmult_ed25519_noclamp(k, p),
            "k*B": lambda: nacl.crypto_scalarmult_ed25519_base_noclamp(k),
            "P+Q": lambda: nacl.crypto_core_ed25519_add(p, q),
            "hash to point": lambda: nacl.crypto_core_ed25519_from_uniform(uniform),
            "point check": lambda: nacl.crypto_core_ed25519_is_valid_point(p),
            "multi": multi}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    has_ristretto = any("ristretto" in name for name in dir(nacl))
    print(f"PyNaCl exposes ristretto255: {has_ristretto}; rbcl does")
    print(f"{'operation':<22} {'rbcl ristretto255':>18} {'PyNaCl ed25519':>16} {'ratio':>6}")
    for n in (28, 55):
        r, e = ristretto_ops(n), ed25519_ops(n)
        for name in r:
            if name == "multi":
                continue
            if n == 28:
                a, b = per_call_us(r[name], args.runs), per_call_us(e[name], args.runs)
                print(f"{name + ' (us)':<22} {a:>18.1f} {b:>16.1f} {b / a:>6.2f}")
        a, b = per_call_us(r["multi"], args.runs) / 1000, per_call_us(e["multi"], args.runs) / 1000
        print(f"{f'sum of {n} k*P (ms)':<22} {a:>18.2f} {b:>16.2f} {b / a:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
