#!/usr/bin/env python3
"""Protocol latency benchmark (not a test): how fast the engine answers while it searches.

Measures, over many trials against a running search:
  * `isready` -> `readyok` while `go infinite` runs;
  * `stop` -> `bestmove` (the search has been running for --think ms when `stop` is sent).
Prints median, p99 and max in milliseconds. Targets: both under 5 ms.

With --hub the same over the Hub protocol (`buffgreen hub`): `ping` -> `pong` while
`level infinite` + `go think` runs, and `stop` -> `done`.

With --gap the `isready` trials are that many ms apart and start after --warm ms of search,
as a GUI asks now and then during a long search (with many more threads than cores, the
search threads' turns on the cores show there, not in back-to-back trials).

Usage: lab/latency.py [--engine target/release/buffgreen] [--trials 1000] [--think 20]
                          [--threads 1] [--hash 64] [--hub] [--gap 0] [--warm 0]
Build first: cargo build --release
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_io import Engine, arg_parser, machine_note, summary  # noqa: E402


def main():
    ap = arg_parser(__doc__, threads=1)
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--think", type=float, default=20.0, help="ms of search before each stop")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--hub", action="store_true", help="speak the Hub protocol (buffgreen hub)")
    ap.add_argument("--gap", type=float, default=0.0, help="ms between the isready trials")
    ap.add_argument("--warm", type=float, default=0.0, help="ms of search before them")
    args = ap.parse_args()

    if args.hub:
        e = Engine(args.engine, ["hub"])
        ping, pong, answer = "ping", "pong", "done"
        go = ["level infinite", "go think"]
        e.send("hub")
        e.wait_for(lambda l: l == "wait")
        e.send(f"set-param name=Threads value={args.threads}")
        e.send(f"set-param name=Hash value={args.hash}")
        e.send("init")
        e.wait_for(lambda l: l == "ready")
        e.send("pos")
    else:
        e = Engine(args.engine)
        ping, pong, answer = "isready", "readyok", "bestmove"
        go = ["go infinite"]
        e.send(f"setoption name Threads value {args.threads}")
        e.send(f"setoption name Hash value {args.hash}")
        e.send("position startpos")

    def sync():
        e.send(ping)
        e.wait_for(lambda l: l == pong)

    sync()

    # pong/readyok while searching.
    for line in go:
        e.send(line)
    sync()  # the search thread is up
    time.sleep(args.warm / 1000.0)
    ready = []
    for _ in range(args.trials):
        time.sleep(args.gap / 1000.0)
        t0 = e.send(ping)
        t1, _ = e.wait_for(lambda l: l == pong)
        ready.append((t1 - t0) * 1000.0)
    e.send("stop")
    e.wait_for(lambda l: l.startswith(answer))

    # stop -> bestmove/done, and one answer per search: the next sync would see a second one.
    stops = []
    for _ in range(args.trials):
        for line in go:
            e.send(line)
        sync()
        time.sleep(args.think / 1000.0)
        t0 = e.send("stop")
        t1, _ = e.wait_for(lambda l: l.startswith(answer))
        stops.append((t1 - t0) * 1000.0)
        seen = []
        e.send(ping)
        e.wait_for(lambda l: l == pong, seen=seen)
        if any(l.startswith(answer) for l in seen):
            raise SystemExit(f"two answers to one search: {seen}")

    e.quit()
    print(summary(f"{ping} -> {pong} during {' + '.join(go)}", ready))
    print(summary(f"stop -> {answer} after {args.think:g} ms of search", stops))
    print(machine_note())


if __name__ == "__main__":
    main()
