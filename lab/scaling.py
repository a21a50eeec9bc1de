#!/usr/bin/env python3
"""Thread scaling benchmark (not a test): iterations per second with N threads over 1 thread.

Runs `buffgreen bench` with --threads 1 and --threads N in turn, R times, and reports each
rate's median, the median of the pairwise ratios (pairs are run back to back, in both orders
in turn, so a drift in the machine's speed cancels out) and their geometric mean with a 95%
interval. The rate is bench's own `Nodes/second`: search time only, without making the
tree.

With --seeds, pair k searches with seed k (both sides of a pair the same seed): a search's
iteration rate depends on the shape of its tree (deeper trees cost more an iteration), and one
seed's one-thread tree may be deeper or shallower than most. Two threads vary from run to run
anyway; varying the seed gives the one-thread side the same spread.

Each run also starts N one-thread benches at once and adds up their rates: the machine's own
ceiling for N busy cores (shared caches and memory, the host's other tenants). "threads /
processes" is how much of it threads sharing one tree reach. The sum slightly flatters the
processes: the one that ends last searches its last moments alone.

Usage: lab/scaling.py [--engine target/release/buffgreen] [--threads 2] [--runs 10]
                          [--nodes 400000] [--hash 256] [--fen FEN ...] [--no-ceiling]
                          [--seeds]
Without --fen: the start position and two middle games, each on its own, then the bench set.
Build first: cargo build --release
"""

import math
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_io import THREAD_POSITIONS, arg_parser, machine_note  # noqa: E402

POSITIONS = [(name, [fen]) for name, fen in THREAD_POSITIONS] + [("bench set", [])]


def bench_cmd(engine, threads, nodes, hash_mib, fens, seed=0):
    cmd = [engine, "bench", "--threads", str(threads), "--nodes", str(nodes), "--hash", str(hash_mib),
           "--seed", str(seed)]
    for f in fens:
        cmd += ["--fen", f]
    return cmd


def parse_rate(cmd, out):
    for line in out.splitlines():
        if line.startswith("Nodes/second:"):
            return int(line.split()[1])
    raise RuntimeError(f"no Nodes/second line from {' '.join(cmd)}")


def rate(engine, threads, nodes, hash_mib, fens, seed=0):
    cmd = bench_cmd(engine, threads, nodes, hash_mib, fens, seed)
    return parse_rate(cmd, subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)


def processes_rate(engine, copies, nodes, hash_mib, fens, seed=0):
    """The rates of `copies` one-thread benches started at once, added up."""
    cmd = bench_cmd(engine, 1, nodes, hash_mib, fens, seed)
    procs = [
        subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for _ in range(copies)
    ]
    total = 0
    for p in procs:
        out, _ = p.communicate()
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited with {p.returncode}")
        total += parse_rate(cmd, out)
    return total


def geometric_mean(ratios):
    """The geometric mean of the pairwise ratios with a 95% interval (normal approximation on
    their logarithms): on a host whose speed wanders by a third from run to run, the interval
    says whether a figure is above a bar or only sometimes."""
    logs = [math.log(r) for r in ratios]
    mean = statistics.fmean(logs)
    if len(logs) < 2:
        return f"geometric mean x{math.exp(mean):.3f}"
    half = 1.96 * statistics.stdev(logs) / math.sqrt(len(logs))
    return (
        f"geometric mean x{math.exp(mean):.3f} "
        f"(95% x{math.exp(mean - half):.3f}-x{math.exp(mean + half):.3f})"
    )


def main():
    ap = arg_parser(__doc__, threads=2)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--nodes", type=int, default=400_000)
    # Enough for the tree of every run: pruning a full arena pauses all threads, which is
    # not what this measures.
    ap.add_argument("--hash", type=int, default=256)
    ap.add_argument("--fen", action="append", default=[])
    ap.add_argument("--no-ceiling", action="store_true",
                    help="skip the runs of one-thread processes at once (half the time)")
    ap.add_argument("--seeds", action="store_true",
                    help="pair k searches with seed k instead of every pair with seed 0")
    args = ap.parse_args()

    positions = [("chosen", args.fen)] if args.fen else POSITIONS
    for name, fens in positions:
        # The bench set searches 8 positions: fewer iterations each keep the runs short.
        nodes = args.nodes if fens else args.nodes // 2
        rate(args.engine, 1, nodes // 10, args.hash, fens)  # warm-up
        one, many, apart = [], [], []
        n = args.threads
        for k in range(args.runs):
            seed = k + 1 if args.seeds else 0
            # Each pair in both orders in turn, so that a drift of the host's speed during a
            # pair does not favour one side.
            if k % 2 == 0:
                one.append(rate(args.engine, 1, nodes, args.hash, fens, seed))
                many.append(rate(args.engine, n, nodes, args.hash, fens, seed))
            else:
                many.append(rate(args.engine, n, nodes, args.hash, fens, seed))
                one.append(rate(args.engine, 1, nodes, args.hash, fens, seed))
            if not args.no_ceiling:
                apart.append(processes_rate(args.engine, n, nodes, args.hash, fens, seed))
        ratios = sorted(m / o for o, m in zip(one, many))
        med = statistics.median
        print(
            f"{name}: 1 thread {med(one):.0f} it/s, {n} threads {med(many):.0f} it/s; "
            f"ratio median x{med(ratios):.2f} (min x{ratios[0]:.2f}, max x{ratios[-1]:.2f}; "
            f"{args.runs} runs of {nodes} iterations a position"
            f"{', seeds 1..' + str(args.runs) if args.seeds else ''}); {geometric_mean(ratios)}"
        )
        if apart:
            ceiling = sorted(a / o for o, a in zip(one, apart))
            share = sorted(m / a for m, a in zip(many, apart))
            print(
                f"  {n} one-thread processes at once: x{med(ceiling):.2f} (min x{ceiling[0]:.2f}, "
                f"max x{ceiling[-1]:.2f}); threads / processes {med(share):.2f} "
                f"(min {share[0]:.2f}, max {share[-1]:.2f})"
            )
    print(machine_note())


if __name__ == "__main__":
    main()
