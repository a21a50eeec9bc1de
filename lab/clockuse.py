#!/usr/bin/env python3
"""Clock discipline benchmark (not a test): how much of its clock the engine uses, and whether
it ever loses on time.

Plays the engine against itself (one process, both sides) under each time control, keeping the
clocks here: before every move it sends `position ...` and `go wtime W btime B winc I binc I
[movestogo N]`, charges the mover the time from writing `go` to reading `bestmove`, flags a side
whose clock goes below zero (a loss on time, which ends the game), then adds the increment.
Games end by the rules (`bestmove none`) or after --max-plies; each starts with `ucinewgame`
and its own `Seed`. Each control is played until at
least --moves moves have been made.

Time controls: `BASE+INC` in seconds (`1+0.01` is 1 s + 10 ms), or `MOVES/BASE+INC` where BASE
is added every MOVES moves of a side (the engine gets `movestogo`).

Prints per control: games, moves, losses on time, the share of the available time a side used
in a game (used / (base + increments received)), the share of the remaining clock spent on one
move, and the lowest clock seen before a move. Exit status 1 if any game was lost on time.

Usage: lab/clockuse.py [--engine target/release/buffgreen] [--controls 1+0.01,3+0.03,10+0.1]
                           [--moves 1000] [--option Name=Value ...]
Build first: cargo build --release
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_io import (  # noqa: E402
    Engine, EngineError, arg_parser, bestmove_of, machine_note, parse_options, percentile)


def parse_control(text):
    """(moves per period or None, base ms, increment ms) from `[MOVES/]BASE+INC`."""
    m = re.fullmatch(r"(?:(\d+)/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?", text.strip())
    if not m:
        sys.exit(f"bad time control {text!r}: expected [MOVES/]BASE+INC in seconds")
    per = int(m.group(1)) if m.group(1) else None
    return per, float(m.group(2)) * 1000.0, float(m.group(3) or 0) * 1000.0


def play_game(e, number, per, base, inc, max_plies, stats):
    """Plays game `number` (its seed); updates stats; returns the number of moves made."""
    clock = [base, base]  # Black, White (Black moves first)
    gained = [base, base]  # everything each side was given: base, periods, increments
    used = [0.0, 0.0]
    left_in_period = [per, per]
    moves = []
    e.new_game(number)
    while len(moves) < max_plies:
        side = len(moves) % 2
        e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        go = f"go wtime {int(clock[1])} btime {int(clock[0])} winc {int(inc)} binc {int(inc)}"
        if per:
            go += f" movestogo {left_in_period[side]}"
        before = clock[side]
        t0 = e.send(go)
        t1, line = e.wait_for(lambda l: l.startswith("bestmove"), timeout=before / 1000 + 30)
        spent = (t1 - t0) * 1000.0
        mv = bestmove_of(line)
        if mv is None:
            break  # game over by the rules: the answer is not a move, charge nothing
        stats["lowest"] = min(stats["lowest"], before)
        stats["per_move"].append(spent / before if before > 0 else float("inf"))
        clock[side] -= spent
        used[side] += spent
        if clock[side] < 0:
            stats["time_losses"].append((len(moves) + 1, "Black" if side == 0 else "White", -clock[side]))
            moves.append(mv)
            break
        clock[side] += inc
        gained[side] += inc
        if per:
            left_in_period[side] -= 1
            if left_in_period[side] == 0:
                left_in_period[side] = per
                clock[side] += base
                gained[side] += base
        moves.append(mv)
    for side in (0, 1):
        stats["game_share"].append(used[side] / gained[side])
    return len(moves)


def main():
    ap = arg_parser(__doc__, option_example="Hash=64 MoveOverhead=10")
    ap.add_argument("--controls", default="1+0.01,3+0.03,10+0.1")
    ap.add_argument("--moves", type=int, default=1000, help="at least this many moves per control")
    ap.add_argument("--max-plies", type=int, default=300, help="end a game after this many")
    args = ap.parse_args()

    e = Engine(args.engine)
    lost = 0
    seeds = 0  # games over all controls: each game its own Seed
    try:
        e.setoptions(parse_options(args.option))
        for text in args.controls.split(","):
            per, base, inc = parse_control(text)
            stats = {"lowest": float("inf"), "per_move": [], "game_share": [], "time_losses": []}
            moves = games = 0
            while moves < args.moves:
                games += 1
                seeds += 1
                moves += play_game(e, seeds, per, base, inc, args.max_plies, stats)
            lost += len(stats["time_losses"])
            shares = sorted(stats["game_share"])
            per_move = sorted(stats["per_move"])
            print(f"time control {text}: {games} games, {moves} moves, "
                  f"{len(stats['time_losses'])} lost on time")
            print(f"  share of available time used per game and side: mean "
                  f"{100 * sum(shares) / len(shares):.1f}%, max {100 * shares[-1]:.1f}%")
            print(f"  share of the remaining clock spent on one move: median "
                  f"{100 * percentile(per_move, 0.5):.2f}%, p99 {100 * percentile(per_move, 0.99):.2f}%, "
                  f"max {100 * per_move[-1]:.2f}%")
            print(f"  lowest clock before a move: {stats['lowest']:.1f} ms")
            for ply, side, over in stats["time_losses"]:
                print(f"  LOSS ON TIME: {side} at ply {ply}, {over:.1f} ms over")
    except EngineError as err:
        print(f"FAIL: {err}", file=sys.stderr)
        sys.exit(1)
    finally:
        e.quit()
    print(machine_note())
    sys.exit(1 if lost else 0)


if __name__ == "__main__":
    main()
