#!/usr/bin/env python3
"""Thread scaling benchmark (not a test): iterations per second with N threads over 1 thread.

Runs `buffgreen bench` with --threads 1 and --threads N in turn, R times, and reports each
rate's median and the median of the pairwise ratios (pairs are run back to back, so a drift
in the machine's speed cancels out). The rate is bench's own `Nodes/second`: search time
only, without making the tree.

Usage: scripts/scaling.py [--engine target/release/buffgreen] [--threads 2] [--runs 10]
                          [--nodes 400000] [--hash 64] [--fen FEN ...]
Without --fen: the start position and a middle game, each on its own, then the bench set.
Build first: cargo build --release
"""

import argparse
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_io import machine_note  # noqa: E402

POSITIONS = [
    ("start", ["B:W21-32:B1-12"]),
    ("middle game", ["B:W14,19,21,22,24,25,27,28,29,30,32:B1,2,3,5,6,7,9,10,11,12"]),
    ("bench set", []),
]


def rate(engine, threads, nodes, hash_mib, fens):
    cmd = [engine, "bench", "--threads", str(threads), "--nodes", str(nodes), "--hash", str(hash_mib)]
    for f in fens:
        cmd += ["--fen", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("Nodes/second:"):
            return int(line.split()[1])
    raise RuntimeError(f"no Nodes/second line from {' '.join(cmd)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engine", default="target/release/buffgreen")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--nodes", type=int, default=400_000)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--fen", action="append", default=[])
    args = ap.parse_args()

    positions = [("chosen", args.fen)] if args.fen else POSITIONS
    for name, fens in positions:
        # The bench set searches 8 positions: fewer iterations each keep the runs short.
        nodes = args.nodes if fens else args.nodes // 2
        rate(args.engine, 1, nodes // 10, args.hash, fens)  # warm-up
        one, many = [], []
        for _ in range(args.runs):
            one.append(rate(args.engine, 1, nodes, args.hash, fens))
            many.append(rate(args.engine, args.threads, nodes, args.hash, fens))
        ratios = sorted(m / o for o, m in zip(one, many))
        print(
            f"{name}: 1 thread {statistics.median(one):.0f} it/s, {args.threads} threads "
            f"{statistics.median(many):.0f} it/s; ratio median x{statistics.median(ratios):.2f} "
            f"(min x{ratios[0]:.2f}, max x{ratios[-1]:.2f}; {args.runs} pairs of {nodes} "
            f"iterations a position)"
        )
    print(machine_note())


if __name__ == "__main__":
    main()
