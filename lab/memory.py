#!/usr/bin/env python3
"""Memory benchmark (not a test): the engine's resident set against its `Hash` setting.

For each Hash value N (MiB) a fresh engine process is started with `setoption name Hash value N`
and watched through /proc/<pid>/status (VmRSS sampled every --interval seconds, VmHWM, the
kernel's own peak, read at the end of each phase) in two phases of --duration seconds each:
  1. one long `go infinite` from the start position, then `stop`;
  2. many reused moves: the engine plays itself, `position startpos moves ...` (each extending
     the last, so the search may keep its tree) + `go movetime --movetime`, starting a new game
     (`ucinewgame`, next `Seed`) when one ends.
Prints, per N, the RSS before any search, the peak RSS of each phase, and whether the sampled
peak stayed below N + --margin MiB (the aim: N + 16; exit status 1 if it did not), then VmHWM
over the whole life of the process, which also covers the start-up before `setoption Hash`.

Usage: lab/memory.py [--engine target/release/buffgreen] [--hash 16,64] [--duration 600]
                         [--movetime 50] [--option Name=Value ...]
Build first: cargo build --release. Linux only (/proc).
"""

import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_io import (  # noqa: E402
    Engine, EngineError, arg_parser, bestmove_of, machine_note, parse_options)


def status_kib(pid, field):
    """A `kB` field of /proc/<pid>/status, in KiB (None once the process is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


class Sampler:
    """Samples VmRSS on a thread; `peak` is the largest sample since the last `reset`."""

    def __init__(self, pid, interval):
        self.pid, self.interval = pid, interval
        self.peak = 0
        self.samples = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.done.is_set():
            rss = status_kib(self.pid, "VmRSS")
            if rss is not None:
                self.peak = max(self.peak, rss)
                self.samples += 1
            time.sleep(self.interval)

    def reset(self):
        self.peak, self.samples = 0, 0

    def stop(self):
        self.done.set()
        self.thread.join()


def mib(kib):
    return kib / 1024.0


def run_one(args, hash_mib, options):
    e = Engine(args.engine)
    sampler = Sampler(e.pid, args.interval)
    try:
        e.setoptions({**options, "Hash": hash_mib})
        e.send("position startpos")
        e.sync()
        baseline = status_kib(e.pid, "VmRSS")

        sampler.reset()
        e.send("go infinite")
        e.sync()
        time.sleep(args.duration)
        e.send("stop")
        e.wait_for(lambda l: l.startswith("bestmove"))
        infinite_peak, infinite_samples = sampler.peak, sampler.samples
        infinite_hwm = status_kib(e.pid, "VmHWM")

        sampler.reset()
        moves, cycles, games = [], 0, 1
        e.new_game(1)
        end = time.monotonic() + args.duration
        while time.monotonic() < end:
            e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            e.send(f"go movetime {args.movetime}")
            _, line = e.wait_for(lambda l: l.startswith("bestmove"))
            cycles += 1
            mv = bestmove_of(line)
            if mv is None or len(moves) >= args.max_plies:
                moves, games = [], games + 1
                e.new_game(games)
            else:
                moves.append(mv)
        reuse_peak, reuse_samples = sampler.peak, sampler.samples
        hwm = status_kib(e.pid, "VmHWM")
    finally:
        sampler.stop()
        e.quit()

    limit = hash_mib + args.margin
    # The criterion is the resident set while the engine runs with Hash = N (the samples).
    # VmHWM covers the whole life of the process, including the start-up before `setoption`
    # arrived, so it is reported beside it, not judged.
    peak = max(infinite_peak, reuse_peak)
    ok = mib(peak) < limit
    print(f"Hash {hash_mib} MiB:")
    print(f"  before any search: VmRSS {mib(baseline):.1f} MiB")
    print(f"  go infinite for {args.duration:g} s: peak VmRSS {mib(infinite_peak):.1f} MiB "
          f"({infinite_samples} samples), VmHWM {mib(infinite_hwm):.1f} MiB")
    print(f"  {cycles} position+go movetime {args.movetime} cycles in {games} games over "
          f"{args.duration:g} s: peak VmRSS {mib(reuse_peak):.1f} MiB ({reuse_samples} samples)")
    print(f"  sampled peak - Hash = {mib(peak) - hash_mib:+.1f} MiB; "
          f"limit Hash + {args.margin:g} = {limit:g} MiB: {'ok' if ok else 'EXCEEDED'}")
    note = " (above the limit: a peak before Hash was set, e.g. at start-up)" if mib(hwm) >= limit else ""
    print(f"  VmHWM over the process's life: {mib(hwm):.1f} MiB{note}")
    return ok


def main():
    ap = arg_parser(__doc__, option_example="Threads=2")
    ap.add_argument("--hash", default="64", help="comma-separated Hash values in MiB")
    ap.add_argument("--duration", type=float, default=600.0, help="seconds per phase")
    ap.add_argument("--movetime", type=int, default=50, help="ms per move in phase 2")
    ap.add_argument("--max-plies", type=int, default=300, help="start a new game after this many")
    ap.add_argument("--interval", type=float, default=0.1, help="seconds between samples")
    ap.add_argument("--margin", type=float, default=16.0, help="MiB allowed above Hash")
    args = ap.parse_args()
    options = parse_options(args.option)
    ok = True
    try:
        for n in args.hash.split(","):
            ok = run_one(args, int(n), options) and ok
    except EngineError as err:
        print(f"FAIL: {err}", file=sys.stderr)
        sys.exit(1)
    print(machine_note())
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
