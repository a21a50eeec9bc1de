#!/usr/bin/env python3
"""Builds a balanced opening deck for Buff and Green rules (or any rule set).

    python3 lab/balanced_deck.py [--engine target/release/buffgreen] [--variant KEY]
        [--out FILE] [--screen-nodes 200000] [--nodes 2000000] [--max-cp 25] [--want 200]
        [--seed 1]

Walks the legal move tree from the start position with the engine itself (`go perft 1`
lists the moves, `d` gives the FEN, so transpositions are merged), takes every distinct
position 3 plies deep and a seeded random sample 4, 5 and 6 plies deep, screens them with a
short search (positions with a single legal move are left out), then searches the survivors with `--nodes` iterations each (one thread, fixed
seed) and keeps those whose score is within `--max-cp` centi-men of level. The deck is written
as `number<TAB>moves<TAB>FEN`, the 3-move deck's format; the scores go
beside it (`FILE` without `.tsv`, plus `.scores.tsv`).
`--variant russian` (or any key of the engine's `Variant` option) sends `setoption name
Variant value KEY` before every other option, so the moves, the FENs and the searches are that
rule set's; the default output is then `openings/KEY-balanced.tsv`. The lines start from the
rule set's own start (`position startpos`: White moves first under `russian` and `brazilian`),
the moves are in the long numeric 1-32 form (`Notation numeric`), and the FEN carries the side
to move, so that every reader of the decks plays on from the right side.
The output is reproducible for a given engine build and arguments.
"""
import argparse
import random
import subprocess
import sys


class Engine:
    def __init__(self, path, options):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until(lambda l: l == "uciok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, done):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith("info string error"):
                raise RuntimeError(line)
            if done(line):
                return lines

    def moves(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("go perft 1")
        lines = self.until(lambda l: l.startswith("Nodes searched"))
        return [l.split(":")[0] for l in lines
                if l.endswith(": 1") and not l.startswith("Nodes")]

    def fen(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        # `d` writes more lines after the FEN than it once did; `isready` marks its end, so
        # that none of them is read as the answer to the next command.
        self.send("isready")
        lines = self.until(lambda l: l == "readyok")
        return next(l[4:].strip() for l in lines if l.startswith("Fen:"))

    def score(self, moves, nodes):
        self.send("ucinewgame")
        self.send("position startpos moves " + " ".join(moves))
        self.send(f"go nodes {nodes}")
        lines = self.until(lambda l: l.startswith("bestmove"))
        info = [l for l in lines if l.startswith("info ") and " score " in l][-1].split()
        kind, value = info[info.index("score") + 1], int(info[info.index("score") + 2])
        return value if kind == "cp" else (100000 if value > 0 else -100000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/buffgreen")
    ap.add_argument("--variant", default=None,
                    help="rule set, as the engine's Variant option names it (default: the "
                         "engine's own, Buff and Green)")
    ap.add_argument("--out", default=None,
                    help="deck file (default openings/buffgreen-balanced.tsv, or "
                         "openings/VARIANT-balanced.tsv with --variant)")
    ap.add_argument("--screen-nodes", type=int, default=200_000)
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--max-cp", type=int, default=25)
    ap.add_argument("--want", type=int, default=200)
    ap.add_argument("--sample", type=int, nargs=3, default=[300, 150, 150],
                    help="positions sampled at plies 4, 5 and 6")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[],
                    help="NAME=VALUE engine option (e.g. BackwardCapture=false)")
    a = ap.parse_args()
    if a.out is None:
        a.out = f"openings/{a.variant or 'buffgreen'}-balanced.tsv"
    # The rule set first: setting `Variant` sets every move rule at once, so the switches
    # given with --option must come after it to count.
    opts = {"Variant": a.variant} if a.variant else {}
    opts.update(o.split("=", 1) for o in a.option)
    # The decks are read in the numeric form whatever the rule set shows by default.
    opts.setdefault("Notation", "numeric")
    opts.setdefault("Threads", "1")
    opts.setdefault("Seed", "0")
    opts.setdefault("Hash", "1024")
    eng = Engine(a.engine, opts)
    rng = random.Random(a.seed)

    # Distinct positions by ply, each with the first line that reached it.
    layer = {eng.fen([]): []}
    by_ply = {}
    for ply in range(1, 7):
        nxt = {}
        for line in layer.values():
            for m in eng.moves(line):
                l2 = line + [m]
                f = eng.fen(l2)
                if f not in nxt:
                    nxt[f] = l2
        if ply >= 4:
            keys = sorted(nxt)
            keep = set(rng.sample(keys, min(len(keys), a.sample[ply - 4] * 3)))
            nxt = {f: nxt[f] for f in keys if f in keep}
        by_ply[ply] = nxt
        layer = nxt
        print(f"ply {ply}: {len(nxt)} positions kept for the next layer", file=sys.stderr)

    # A position with one legal move is not an opening choice (the engine answers a forced
    # move without searching it), so only positions with a choice are candidates.
    def choice(item):
        return len(eng.moves(item[1])) > 1

    cands = [c for c in sorted(by_ply[3].items()) if choice(c)]
    for ply, n in zip((4, 5, 6), a.sample):
        items = [c for c in sorted(by_ply[ply].items()) if choice(c)]
        cands += rng.sample(items, min(n, len(items)))
    print(f"{len(cands)} candidates", file=sys.stderr)

    screened = []
    for i, (f, line) in enumerate(cands):
        s = eng.score(line, a.screen_nodes)
        if abs(s) <= a.max_cp:
            screened.append((abs(s), f, line))
        print(f"screen {i + 1}/{len(cands)}: {' '.join(line)} {s}", file=sys.stderr)
    screened.sort(key=lambda t: (t[0], len(t[2]), t[2]))

    kept = []
    deep = 0
    for _, f, line in screened:
        if len(kept) >= a.want:
            break
        deep += 1
        s = eng.score(line, a.nodes)
        ok = abs(s) <= a.max_cp
        print(f"deep: {' '.join(line)} {s} {'kept' if ok else 'dropped'}", file=sys.stderr)
        if ok:
            kept.append((line, f, s))
    kept.sort(key=lambda t: (len(t[0]), t[0]))
    with open(a.out, "w") as out, open(a.out.removesuffix(".tsv") + ".scores.tsv", "w") as sc:
        rules = f"{a.variant} rules, " if a.variant else ""
        out.write(f"# {len(kept)} openings level within {a.max_cp} centi-men at "
                  f"{a.nodes} iterations ({rules}screened at {a.screen_nodes}; "
                  f"{opts['Threads']} thread, Seed {opts['Seed']}): "
                  f"lab/balanced_deck.py {' '.join(sys.argv[1:])}\n")
        sc.write("number\tmoves\tscore_cp_side_to_move\n")
        for i, (line, f, s) in enumerate(kept, 1):
            out.write(f"{i:03d}\t{' '.join(line)}\t{f}\n")
            sc.write(f"{i:03d}\t{' '.join(line)}\t{s}\n")
    print(f"{len(kept)} openings written to {a.out}", file=sys.stderr)
    scores = sorted(s for _, _, s in kept)
    if scores:
        print(f"summary: {len(cands)} candidates, {len(screened)} within {a.max_cp} at "
              f"{a.screen_nodes}, {deep} searched at {a.nodes}, {len(kept)} kept; kept scores "
              f"{scores[0]}..{scores[-1]}, median {scores[len(scores) // 2]}, "
              f"mean |score| {sum(abs(s) for s in scores) / len(scores):.1f}", file=sys.stderr)
    eng.send("quit")


if __name__ == "__main__":
    main()
