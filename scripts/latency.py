#!/usr/bin/env python3
"""Protocol latency benchmark (not a test): how fast the engine answers while it searches.

Measures, over many trials against a running search:
  * `isready` -> `readyok` while `go infinite` runs;
  * `stop` -> `bestmove` (the search has been running for --think ms when `stop` is sent).
Prints median, p99 and max in milliseconds. Targets: both under 5 ms.

Usage: scripts/latency.py [--engine target/release/buffgreen] [--trials 1000] [--think 20]
                          [--threads 1] [--hash 64]
Build first: cargo build --release
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_io import Engine, machine_note, summary  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engine", default="target/release/buffgreen")
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--think", type=float, default=20.0, help="ms of search before each stop")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=64)
    args = ap.parse_args()

    e = Engine(args.engine)
    e.send(f"setoption name Threads value {args.threads}")
    e.send(f"setoption name Hash value {args.hash}")
    e.send("position startpos")
    e.sync()

    # readyok while searching.
    e.send("go infinite")
    e.sync()  # the search thread is up
    ready = []
    for _ in range(args.trials):
        t0 = e.send("isready")
        t1, _ = e.wait_for(lambda l: l == "readyok")
        ready.append((t1 - t0) * 1000.0)
    e.send("stop")
    e.wait_for(lambda l: l.startswith("bestmove"))

    # stop -> bestmove.
    stops = []
    for _ in range(args.trials):
        e.send("go infinite")
        e.sync()
        time.sleep(args.think / 1000.0)
        t0 = e.send("stop")
        t1, _ = e.wait_for(lambda l: l.startswith("bestmove"))
        stops.append((t1 - t0) * 1000.0)

    e.quit()
    print(summary("isready -> readyok during go infinite", ready))
    print(summary(f"stop -> bestmove after {args.think:g} ms of search", stops))
    print(machine_note())


if __name__ == "__main__":
    main()
