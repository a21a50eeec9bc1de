#!/usr/bin/env python3
"""Protocol latency benchmark (not a test): how fast the engine answers while it searches.

Measures, over many trials against a running search:
  * `isready` -> `readyok` while `go infinite` runs;
  * `stop` -> `bestmove` (the search has been running for --think ms when `stop` is sent).
Prints p50, p99 and max in milliseconds. Targets: both under 5 ms.

Usage: scripts/latency.py [--engine target/release/buffgreen] [--trials 500] [--think 20]
                          [--threads 1] [--hash 64]
Build first: cargo build --release
"""

import argparse
import os
import queue
import subprocess
import sys
import threading
import time


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        # Stamp every line the moment it arrives, so queueing in this script adds nothing.
        for raw in self.proc.stdout:
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        """Writes a line; returns the time just before the write."""
        t = time.perf_counter()
        os.write(self.proc.stdin.fileno(), (line + "\n").encode())
        return t

    def wait_for(self, predicate, timeout=30.0):
        """Returns (arrival time, line) of the first line matching predicate."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                sys.exit("timed out waiting for the engine")
            t, line = self.lines.get(timeout=left)
            if line is None:
                sys.exit("engine exited")
            if predicate(line):
                return t, line

    def sync(self):
        self.send("isready")
        self.wait_for(lambda l: l == "readyok")

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=30)


def summary(name, samples_ms):
    s = sorted(samples_ms)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]
    print(
        f"{name}: p50 {pick(0.50):.3f} ms, p99 {pick(0.99):.3f} ms, "
        f"max {s[-1]:.3f} ms ({len(s)} trials)"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engine", default="target/release/buffgreen")
    ap.add_argument("--trials", type=int, default=500)
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
    summary("isready -> readyok during go infinite", ready)
    summary(f"stop -> bestmove after {args.think:g} ms of search", stops)


if __name__ == "__main__":
    main()
