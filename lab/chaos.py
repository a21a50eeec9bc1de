#!/usr/bin/env python3
"""Protocol soak (not a test): one engine process driven the way a careless GUI would, for many
rounds, with everything the match runner does not do: `stop` at random moments, `go ponder`
ended by `ponderhit` or `stop`, `isready` during searches, `position` jumps that break tree
reuse, option changes between games (both rule sets, tiny and large Hash, Threads, MultiPV,
Ponder), and every kind of `go` limit.

Each round: (maybe) change options, (maybe) jump to another position, send `position`, read the
legal moves (`go perft 1`) and the game state (`d`), start a search of a random kind, end it as
that kind requires, and check:
  * exactly one `bestmove` per `go`, and none without a `go`;
  * the move is legal (among `go perft 1`'s moves and any `searchmoves`), or `none` exactly
    when the game is over;
  * a finite search answers in time: `movetime` within the time plus --slack ms, a clock search
    within the mover's clock (else a loss on time), `stop` within --slack ms;
  * `readyok` answers every `isready`, also during a search;
  * no `info string error` except where an error is provoked on purpose.
Prints the counts; exit status 1 on the first failure (with the recent commands for replay).

Usage: lab/chaos.py [--engine target/release/buffgreen] [--rounds 2000] [--seed 1]
Build first: cargo build --release
"""

import collections
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_io import Engine, EngineError, arg_parser, bestmove_of  # noqa: E402

# Positions to jump to that have nothing to do with the game being played.
FENS = [
    "B:W21-32:B1-12",
    "W:W26:B14,15,22,23",
    "B:WK1,18,19,26,27:BK32,5,9,14,15",
    "B:W7,15,16,24,K30:B11,12,20,K21",
    "W:WK4,K29:BK1,K32",
    "B:W18:B",
]

# Option settings to switch between (one dict per change).
OPTION_SETS = [
    {"BackwardCapture": "true", "LongKings": "true"},
    {"BackwardCapture": "false", "LongKings": "false"},
    {"BackwardCapture": "true", "LongKings": "false"},
    {"BackwardCapture": "false", "LongKings": "true"},
    {"Hash": "1"},
    {"Hash": "16"},
    {"Hash": "512"},
    {"Threads": "1"},
    {"Threads": "2"},
    {"MultiPV": "1"},
    {"MultiPV": "3"},
    {"Ponder": "true"},
    {"Ponder": "false"},
    {"DrawHalfMoves": "80"},
    {"DrawHalfMoves": "10"},
    {"Seed": "12345"},
]


class Failure(Exception):
    pass


class Chaos:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.e = Engine(args.engine)
        self.start = "startpos"  # or "fen <FEN>"
        self.moves = []
        self.pool = []  # earlier (start, moves) to jump back to
        self.count = collections.Counter()
        self.recent = collections.deque(maxlen=40)
        self.stop_ms = []
        self.pending_ready = 0  # isready sent during a search whose readyok is still to come

    # -- plumbing ------------------------------------------------------------------------------

    def send(self, line):
        self.recent.append(line)
        return self.e.send(line)

    def sync(self, expect_errors=False):
        """isready -> readyok; the lines in between are returned, and checked."""
        seen = []
        self.send("isready")
        for _ in range(self.pending_ready + 1):
            self.e.wait_for(lambda l: l == "readyok", timeout=60, seen=seen)
        self.pending_ready = 0
        for l in seen:
            if l.startswith("bestmove"):
                raise Failure(f"bestmove without a go: {l!r}")
            if l.startswith("info string error") and not expect_errors:
                raise Failure(f"unexpected error: {l!r}")
        return seen

    def position_cmd(self):
        return f"position {self.start}" + (" moves " + " ".join(self.moves) if self.moves else "")

    # -- one round ------------------------------------------------------------------------------

    def change_options(self):
        opts = self.rng.choice(OPTION_SETS)
        for name, value in opts.items():
            self.send(f"setoption name {name} value {value}")
        self.count["option changes"] += 1
        # A rules change may send the game back to its start: restart it explicitly, as a GUI
        # would between games.
        self.send("ucinewgame")
        self.start, self.moves = "startpos", []
        if {"BackwardCapture", "LongKings", "DrawHalfMoves"} & opts.keys():
            self.pool.clear()  # its games were played under other rules
        self.sync()

    def jump(self):
        self.count["position jumps"] += 1
        if self.pool and self.rng.random() < 0.6:
            start, moves = self.rng.choice(self.pool)
            self.start, self.moves = start, moves[: self.rng.randint(0, len(moves))]
        else:
            self.start, self.moves = "fen " + self.rng.choice(FENS), []

    def read_state(self):
        """Legal moves (divide of `go perft 1`), whether the game is over and whether Black is
        to move (`d`)."""
        self.send("go perft 1")
        self.send("d")
        seen = self.sync()
        # `isready` is answered at once while a perft runs, and its lines come when it ends:
        # they may follow the `readyok`.
        if not any(l.startswith("Nodes searched:") for l in seen):
            try:
                self.e.wait_for(lambda l: l.startswith("Nodes searched:"), timeout=60, seen=seen)
            except EngineError as err:
                raise Failure(f"perft: {err}; seen {seen}")
        legal = [l.split(":")[0] for l in seen if l and l[0].isdigit() and l.endswith(": 1")]
        result = [l for l in seen if l.startswith("Result: ")]
        fen = [l for l in seen if l.startswith("Fen: ")]
        if len(result) != 1 or len(fen) != 1:
            raise Failure(f"d gave no Result or Fen line: {seen}")
        return legal, result[0] != "Result: ongoing", fen[0][5] == "B"

    def wait_bestmove(self, timeout_s):
        seen = []
        t, line = self.e.wait_for(lambda l: l.startswith("bestmove"), timeout=timeout_s, seen=seen)
        for l in seen:
            if l.startswith("info string error"):
                raise Failure(f"search error: {l!r}")
            if l == "readyok" and self.pending_ready > 0:
                self.pending_ready -= 1
            elif not l.startswith("info "):
                raise Failure(f"unexpected line during search: {l!r}")
        return t, line

    def round(self):
        r = self.rng.random()
        if r < 0.04:
            self.change_options()
        elif r < 0.12:
            self.jump()
        self.send(self.position_cmd())
        legal, over, black = self.read_state()
        if over or not legal:
            self.count["finished games"] += 1
        searchmoves = []
        if legal and self.rng.random() < 0.1:
            searchmoves = self.rng.sample(legal, self.rng.randint(1, len(legal)))
        sm = (" searchmoves " + " ".join(searchmoves)) if searchmoves else ""
        side = "btime" if black else "wtime"
        kind = self.rng.choice(["movetime", "nodes", "clock", "infinite", "ponder", "ponder"])
        slack = self.args.slack / 1000
        self.count[f"go {kind}"] += 1
        if kind == "movetime":
            ms = self.rng.randint(1, 40)
            t0 = self.send(f"go movetime {ms}{sm}")
            self.maybe_isready()
            t1, line = self.wait_bestmove(ms / 1000 + slack + 30)
            if t1 - t0 > ms / 1000 + slack:
                raise Failure(f"movetime {ms}: answered after {(t1 - t0) * 1000:.1f} ms")
        elif kind == "nodes":
            t0 = self.send(f"go nodes {self.rng.randint(1, 3000)}{sm}")
            t1, line = self.wait_bestmove(120)
        elif kind == "clock":
            own = self.rng.randint(20, 3000)
            other = self.rng.randint(20, 3000)
            inc = self.rng.choice([0, 0, 10, 100])
            times = {"btime": own, "wtime": other} if side == "btime" else {"wtime": own, "btime": other}
            t0 = self.send(f"go wtime {times['wtime']} btime {times['btime']} winc {inc} binc {inc}{sm}")
            self.maybe_isready()
            t1, line = self.wait_bestmove(own / 1000 + 30)
            if (t1 - t0) * 1000 > own:
                self.count["losses on time"] += 1
                raise Failure(f"clock {own} ms: answered after {(t1 - t0) * 1000:.1f} ms")
        else:
            ponder = kind == "ponder"
            own = self.rng.randint(50, 3000)
            go = f"go ponder wtime {own} btime {own}" if ponder else "go infinite"
            self.send(go + sm)
            time.sleep(self.rng.random() * 0.03)
            self.maybe_isready()
            if ponder and self.rng.random() < 0.5:
                t0 = self.send("ponderhit")
                self.count["ponderhits"] += 1
                t1, line = self.wait_bestmove(own / 1000 + 30)
                if (t1 - t0) * 1000 > own:
                    raise Failure(f"ponderhit with {own} ms: answered after {(t1 - t0) * 1000:.1f} ms")
            else:
                t0 = self.send("stop")
                self.count["stops"] += 1
                t1, line = self.wait_bestmove(30)
                self.stop_ms.append((t1 - t0) * 1000)
                if t1 - t0 > slack:
                    raise Failure(f"stop: answered after {(t1 - t0) * 1000:.1f} ms")
        self.recent.append(f"< {line}")
        self.count["bestmoves"] += 1
        self.check_move(line, legal, over, searchmoves)
        self.sync()  # no second bestmove may follow
        mv = bestmove_of(line)
        if mv is None:
            self.pool.append((self.start, list(self.moves)))
            self.start, self.moves = "startpos", []
            self.send("ucinewgame")
        elif self.rng.random() < 0.95:
            self.moves.append(mv)
            if len(self.moves) > 200:
                self.pool.append((self.start, list(self.moves)))
                self.start, self.moves = "startpos", []

    def maybe_isready(self):
        if self.rng.random() < 0.3:
            self.send("isready")
            self.pending_ready += 1
            self.count["isready during search"] += 1

    def check_move(self, line, legal, over, searchmoves):
        mv = bestmove_of(line)
        if over or not legal:
            if mv is not None:
                raise Failure(f"{line!r} but the game is over")
            return
        if mv is None:
            raise Failure(f"{line!r} but there are legal moves {legal}")
        allowed = searchmoves or legal
        if mv not in allowed:
            self.count["illegal moves"] += 1
            raise Failure(f"illegal {line!r}: allowed {allowed}")


def main():
    ap = arg_parser(__doc__)
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--slack", type=float, default=1000.0,
                    help="ms allowed past movetime and for stop (a hang detector, not a benchmark)")
    args = ap.parse_args()
    c = Chaos(args)
    started = time.monotonic()
    try:
        for _ in range(args.rounds):
            c.round()
    except (Failure, EngineError) as err:
        print(f"FAIL after {sum(v for k, v in c.count.items() if k.startswith('go '))} searches: {err}",
              file=sys.stderr)
        print("recent commands:\n  " + "\n  ".join(c.recent), file=sys.stderr)
        c.e.quit()
        sys.exit(1)
    c.e.quit()
    secs = time.monotonic() - started
    print(f"chaos: {args.rounds} rounds in {secs:.0f} s (seed {args.seed}), no failure")
    for k in sorted(c.count):
        print(f"  {k}: {c.count[k]}")
    if c.stop_ms:
        s = sorted(c.stop_ms)
        print(f"  stop -> bestmove: median {s[len(s) // 2]:.3f} ms, max {s[-1]:.3f} ms")


if __name__ == "__main__":
    main()
