#!/usr/bin/env python3
"""Iterations a timed search gets with N threads against 1 thread (a benchmark, not a test).

`scripts/scaling.py` measures long fixed-iteration benches; a match at 20 ms a move asks a
different question: how many iterations does `go movetime T` get. This keeps one engine of
each kind running and alternates them, `go movetime T` from a fresh tree (`ucinewgame`) on
three positions in turn, so a drift in the host's speed hits both alike. It reports the
median iterations of each (the `nodes` of the last `info` before `bestmove`) and their
ratio.

Usage: scripts/threads_movetime.py [--engine target/release/buffgreen] [--threads 2]
                                   [--movetime 20] [--pairs 150]
Build first: cargo build --release
"""

import argparse
import re
import statistics
import subprocess

POSITIONS = [
    "B:W21-32:B1-12",
    "B:W15,20,21,22,25,29,31,32:B2,3,4,5,7,9,13,16",
    "B:W14,19,21,22,24,25,27,28,29,30,32:B1,2,3,5,6,7,9,10,11,12",
]
NODES = re.compile(r" nodes (\d+)")


class Engine:
    def __init__(self, path, threads):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        for option in (f"Threads value {threads}", "Hash value 64", "MoveOverhead value 0"):
            self.send("setoption name " + option)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        """Lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine closed its output")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def iterations(self, fen, movetime):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.read_until("readyok")
        self.send(f"go movetime {movetime}")
        nodes = 0
        for line in self.read_until("bestmove"):
            m = NODES.search(line)
            if m:
                nodes = int(m.group(1))
        return nodes

    def close(self):
        self.send("quit")
        self.proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engine", default="target/release/buffgreen")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--movetime", type=int, default=20)
    ap.add_argument("--pairs", type=int, default=150)
    args = ap.parse_args()

    one, many = Engine(args.engine, 1), Engine(args.engine, args.threads)
    a, b = [], []
    for k in range(args.pairs):
        fen = POSITIONS[k % len(POSITIONS)]
        a.append(one.iterations(fen, args.movetime))
        b.append(many.iterations(fen, args.movetime))
    one.close()
    many.close()
    med = statistics.median
    pairwise = med([y / x for x, y in zip(a, b) if x > 0])
    print(
        f"movetime {args.movetime} ms, {args.pairs} pairs: 1 thread {med(a):.0f} iterations, "
        f"{args.threads} threads {med(b):.0f}; ratio of medians x{med(b) / med(a):.2f}, "
        f"median of pairwise ratios x{pairwise:.2f}"
    )


if __name__ == "__main__":
    main()
