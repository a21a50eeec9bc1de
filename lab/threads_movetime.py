#!/usr/bin/env python3
"""Iterations a timed search gets with N threads against 1 thread (a benchmark, not a test).

`lab/scaling.py` measures long fixed-iteration benches; a match at 20 ms a move asks a
different question: how many iterations does `go movetime T` get. This keeps one engine of
each kind running and alternates them, `go movetime T` from a fresh tree (`ucinewgame`) on
three positions in turn, so a drift in the host's speed hits both alike. It reports the
median iterations of each (the `nodes` of the last `info` before `bestmove`) and their
ratio.

Usage: lab/threads_movetime.py [--engine target/release/buffgreen] [--threads 2]
                                   [--movetime 20] [--pairs 150]
Build first: cargo build --release
"""

import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_io import Engine, THREAD_POSITIONS, arg_parser, machine_note  # noqa: E402

POSITIONS = [fen for _, fen in THREAD_POSITIONS]
NODES = re.compile(r" nodes (\d+)")


def engine(path, threads):
    e = Engine(path)
    e.setoptions({"Threads": threads, "Hash": 64, "MoveOverhead": 0})
    return e


def iterations(e, fen, movetime):
    """The `nodes` of the last `info` before `bestmove` of `go movetime` from a fresh tree."""
    e.send("ucinewgame")
    e.send(f"position fen {fen}")
    e.sync()
    e.send(f"go movetime {movetime}")
    seen = []
    e.wait_for(lambda line: line.startswith("bestmove"), seen=seen)
    nodes = [int(m.group(1)) for m in map(NODES.search, seen) if m]
    return nodes[-1] if nodes else 0


def main():
    ap = arg_parser(__doc__, threads=2)
    ap.add_argument("--movetime", type=int, default=20)
    ap.add_argument("--pairs", type=int, default=150)
    args = ap.parse_args()

    one, many = engine(args.engine, 1), engine(args.engine, args.threads)
    a, b = [], []
    for k in range(args.pairs):
        fen = POSITIONS[k % len(POSITIONS)]
        a.append(iterations(one, fen, args.movetime))
        b.append(iterations(many, fen, args.movetime))
    one.quit()
    many.quit()
    med = statistics.median
    pairwise = med([y / x for x, y in zip(a, b) if x > 0])
    print(
        f"movetime {args.movetime} ms, {args.pairs} pairs: 1 thread {med(a):.0f} iterations, "
        f"{args.threads} threads {med(b):.0f}; ratio of medians x{med(b) / med(a):.2f}, "
        f"median of pairwise ratios x{pairwise:.2f}"
    )
    print(machine_note())


if __name__ == "__main__":
    main()
