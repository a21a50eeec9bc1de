#!/usr/bin/env python3
"""`go movetime` discipline benchmark (not a test): how late the engine answers.

Plays the engine against itself (one process, both sides) with `go movetime T`, cycling through
the T values, and measures for every move the overshoot: the time from writing `go` to reading
`bestmove`, minus T. A new game starts (`ucinewgame`, next `Seed`) when one ends or after
--max-plies.
Prints median, p99, max and min of the overshoot per T and over all moves; a negative value is
an answer before T was up. `bestmove none` (the game is over) is not counted. Target: maximum
<= 10 ms.

Usage: lab/movetime.py [--engine target/release/buffgreen] [--moves 1000]
                           [--movetimes 10,20,50,100] [--option Name=Value ...]
Build first: cargo build --release
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_io import (  # noqa: E402
    Engine, EngineError, arg_parser, bestmove_of, fail, machine_note, parse_options, summary)


def main():
    ap = arg_parser(__doc__, option_example="Hash=64 Threads=1")
    ap.add_argument("--moves", type=int, default=1000, help="moves in all (spread over the T values)")
    ap.add_argument("--movetimes", default="10,20,50,100", help="comma-separated T values in ms")
    ap.add_argument("--max-plies", type=int, default=300, help="start a new game after this many")
    ap.add_argument("--target", type=float, default=10.0, help="ms: the aim for the maximum")
    args = ap.parse_args()
    movetimes = [int(t) for t in args.movetimes.split(",")]

    e = Engine(args.engine)
    try:
        e.setoptions(parse_options(args.option))
        e.new_game(1)
        samples = {t: [] for t in movetimes}
        moves, games = [], 1
        i = 0
        while i < args.moves:
            t_ms = movetimes[i % len(movetimes)]
            e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            t0 = e.send(f"go movetime {t_ms}")
            t1, line = e.wait_for(lambda l: l.startswith("bestmove"), timeout=t_ms / 1000 + 30)
            mv = bestmove_of(line)
            if mv is not None:  # `bestmove none` (game over) is answered at once: not a sample
                samples[t_ms].append((t1 - t0) * 1000.0 - t_ms)
                i += 1
            if mv is None or len(moves) + 1 >= args.max_plies:
                moves, games = [], games + 1
                e.new_game(games)
            else:
                moves.append(mv)
    except EngineError as err:
        fail(str(err))
    finally:
        e.quit()

    every = [x for s in samples.values() for x in s]
    print(f"go movetime overshoot (reply time - movetime), {len(every)} moves in {games} games:")
    for t_ms, s in samples.items():
        late = sum(1 for x in s if x < 0)
        print("  " + summary(f"movetime {t_ms} ms", s) + f"; {late} answered early")
    print("  " + summary("all", every))
    worst = max(every)
    verdict = "met" if worst <= args.target else "MISSED"
    print(f"target max <= {args.target:g} ms: {verdict} (max {worst:.3f} ms)")
    print(machine_note())


if __name__ == "__main__":
    main()
