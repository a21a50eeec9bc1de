#!/usr/bin/env python3
"""First-search benchmark (not a test): what the engine's set-up costs the first `go`.

For each `Hash` size, over --trials fresh engine processes:
  * cold: `uci`, `setoption name Hash value H`, then at once `go movetime T` (no `isready`):
    the time from writing `go` to reading `bestmove`, and the iterations searched;
  * ready: `uci`, `setoption name Hash value H`, `isready` (its latency), then --searches
    times `ucinewgame`, `position startpos`, `go movetime T`: the iterations of the first
    search against those of the later ones (each from a fresh tree of the same position, so
    only what the first search pays for differs);
  * game: after `isready`, --searches moves of one game: `go movetime T`, then the position
    after the `bestmove` and its `ponder` reply, as a GUI plays against a predicted opponent:
    the first search against the later ones, which start from the part of the tree they
    keep.
Prints median, p99, max and min of each figure per `Hash` size, and the machine's load.

Usage: lab/first_go.py [--engine target/release/buffgreen] [--hash 64,1024,4096]
                           [--trials 10] [--movetime 50] [--ready-movetime 100] [--searches 4]
Build first: cargo build --release
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_io import Engine, arg_parser, machine_note, summary  # noqa: E402


def nodes_of(lines):
    """The `nodes` of the last `info depth` line among `lines` (0 when there is none)."""
    for line in reversed(lines):
        words = line.split()
        if line.startswith("info depth") and "nodes" in words:
            return int(words[words.index("nodes") + 1])
    return 0


def search(e, go):
    """Sends `go`; returns (ms from the write to `bestmove`, iterations searched, the words of
    the `bestmove` line)."""
    seen = []
    sent = e.send(go)
    t, line = e.wait_for(lambda l: l.startswith("bestmove"), seen=seen)
    return (t - sent) * 1000.0, nodes_of(seen), line.split()


def started(path, hash_mib):
    """A fresh engine after `uci` and `setoption name Hash`."""
    e = Engine(path)
    e.send("uci")
    e.wait_for(lambda l: l == "uciok")
    e.send(f"setoption name Hash value {hash_mib}")
    return e


def main():
    ap = arg_parser(__doc__)
    ap.add_argument("--hash", default="64,1024,4096", help="comma-separated Hash sizes in MiB")
    ap.add_argument("--trials", type=int, default=10, help="fresh processes per Hash size")
    ap.add_argument("--movetime", type=int, default=50, help="ms of the cold go")
    ap.add_argument("--ready-movetime", type=int, default=100, help="ms of each go after isready")
    ap.add_argument("--searches", type=int, default=4, help="searches after isready")
    args = ap.parse_args()

    print(machine_note())
    for hash_mib in [int(h) for h in args.hash.split(",")]:
        cold_ms, cold_nodes, ready_ms, first, later = [], [], [], [], []
        game_first, game_later = [], []
        for _ in range(args.trials):
            e = started(args.engine, hash_mib)
            ms, nodes, _ = search(e, f"go movetime {args.movetime}")
            cold_ms.append(ms)
            cold_nodes.append(nodes)
            e.quit()

            e = started(args.engine, hash_mib)
            sent = e.send("isready")
            t, _ = e.wait_for(lambda l: l == "readyok")
            ready_ms.append((t - sent) * 1000.0)
            for k in range(args.searches):
                e.send("ucinewgame")
                e.send("position startpos")
                _, nodes, _ = search(e, f"go movetime {args.ready_movetime}")
                (first if k == 0 else later).append(nodes)
            e.quit()

            e = started(args.engine, hash_mib)
            e.sync()
            moves = []
            for k in range(args.searches):
                e.send("position startpos moves " + " ".join(moves))
                _, nodes, words = search(e, f"go movetime {args.ready_movetime}")
                (game_first if k == 0 else game_later).append(nodes)
                if len(words) < 4:
                    break
                moves += [words[1], words[3]]
            e.quit()
        print(f"Hash {hash_mib} MiB:")
        print("  " + summary(f"cold go movetime {args.movetime}, write to bestmove", cold_ms))
        print("  " + summary("cold go, iterations", cold_nodes, unit="it"))
        print("  " + summary("isready, write to readyok", ready_ms))
        print("  " + summary(f"first go movetime {args.ready_movetime} after isready, iterations",
                             first, unit="it"))
        print("  " + summary("later ones, iterations", later, unit="it"))
        print("  " + summary("first move of a game, iterations", game_first, unit="it"))
        print("  " + summary("later moves (tree kept), iterations", game_later, unit="it"))
    print(machine_note())


if __name__ == "__main__":
    main()
