"""Shared by the benchmark scripts in this directory (python3 standard library only): drive one
`buffgreen` process through pipes and time its answers.

Every line the engine prints is stamped the moment it arrives (a reader thread), and every
command is stamped just before it is written, so a figure is "write command -> read reply" as a
GUI would see it, with nothing of this script's own queueing in it.
"""

import argparse
import os
import queue
import subprocess
import sys
import threading
import time

# The positions the thread benchmarks (lab/scaling.py, lab/threads_movetime.py) measure, by name.
THREAD_POSITIONS = [
    ("start", "B:W21-32:B1-12"),
    # After 22 plies of a match game, eight men a side, eight quiet moves.
    ("middle game", "B:W15,20,21,22,25,29,31,32:B2,3,4,5,7,9,13,16"),
    # Two legal moves, both captures, one far better: every iteration of both threads goes
    # down the same few nodes (the hardest case for sharing a tree).
    ("middle game, forced", "B:W14,19,21,22,24,25,27,28,29,30,32:B1,2,3,5,6,7,9,10,11,12"),
]


class EngineError(RuntimeError):
    """The engine exited, or did not answer in time."""


class Engine:
    """One engine process. `lines` holds (arrival time, line) pairs; `None` marks its exit."""

    def __init__(self, path, args=()):
        self.proc = subprocess.Popen(
            [path, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self.pid = self.proc.pid
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        """Writes a line; returns the time just before the write."""
        t = time.perf_counter()
        try:
            os.write(self.proc.stdin.fileno(), (line + "\n").encode())
        except BrokenPipeError:
            raise EngineError("engine exited (broken pipe)")
        return t

    def wait_for(self, predicate, timeout=60.0, seen=None):
        """Returns (arrival time, line) of the first line matching predicate. Lines passed over
        are appended to `seen` when it is a list."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"no answer within {timeout} s")
            try:
                t, line = self.lines.get(timeout=left)
            except queue.Empty:
                raise EngineError(f"no answer within {timeout} s")
            if line is None:
                raise EngineError(f"engine exited with status {self.proc.wait()}")
            if predicate(line):
                return t, line
            if seen is not None:
                seen.append(line)

    def sync(self, seen=None):
        """`isready` -> `readyok`: afterwards every reply to earlier commands has arrived."""
        self.send("isready")
        self.wait_for(lambda l: l == "readyok", seen=seen)

    def setoptions(self, options):
        """Sets options (a dict name -> value) and fails if the engine refuses one."""
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        seen = []
        self.sync(seen)
        errors = [l for l in seen if l.startswith("info string error")]
        if errors:
            raise EngineError(f"option refused: {errors[0]}")

    def new_game(self, number):
        """`ucinewgame` with `Seed` = number, so that successive games differ (the same seed
        would replay the same game wherever the search is deterministic)."""
        self.send(f"setoption name Seed value {number % 2147483648}")
        self.send("ucinewgame")

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=30)
        except (EngineError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def arg_parser(doc, threads=None, option_example=None):
    """The command line the scripts share: `doc` as help and --engine (the binary); with
    `threads`, --threads with that default; with `option_example`, --option Name=Value
    (repeatable, read by parse_options)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engine", default="target/release/buffgreen")
    if threads is not None:
        ap.add_argument("--threads", type=int, default=threads)
    if option_example is not None:
        ap.add_argument("--option", action="append", default=[], metavar="Name=Value",
                        help=f"setoption before the run (repeatable), e.g. {option_example}")
    return ap


def parse_options(items):
    """A dict name -> value from `Name=Value` strings (the scripts' --option arguments)."""
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            sys.exit(f"--option wants Name=Value, got {item!r}")
        out[name] = value
    return out


def bestmove_of(line):
    """The move of a `bestmove` line, or None for `bestmove none`."""
    words = line.split()
    return None if words[1] == "none" else words[1]


def percentile(sorted_samples, q):
    """The q-quantile (0..1) of sorted samples, nearest rank."""
    s = sorted_samples
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(name, samples_ms, unit="ms"):
    """One line: p50, p99, max (and count) of samples in milliseconds."""
    s = sorted(samples_ms)
    if not s:
        return f"{name}: no samples"
    return (
        f"{name}: median {percentile(s, 0.5):.3f} {unit}, p99 {percentile(s, 0.99):.3f} {unit}, "
        f"max {s[-1]:.3f} {unit}, min {s[0]:.3f} {unit} ({len(s)} samples)"
    )


def machine_note():
    """The load the figures were taken under: timing figures mean little without it."""
    load = os.getloadavg()
    return f"machine: {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)
