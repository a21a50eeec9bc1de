#!/usr/bin/env python3
"""pydraughts (the Hub client's library) as an independent referee of the 8x8 family's moves.

Reads lines `<variant> <fen> <depth>` from stdin (variant: russian or brazilian, as pydraughts
names them; fen: a PDN FEN with numeric squares, White on 21-32) and prints one line per input:
`<perft> <move> <move> ...`, the moves as `from-to:c1,c2` (captures sorted), one per distinct
start, end and captured set, sorted; perft counts such distinct moves at every ply.
"""
import sys

from draughts.core.game import Game


def moves(game):
    found = set()
    steps, captures = game.legal_moves()
    for step, captured in zip(steps, captures):
        taken = sorted(c for c in captured if c is not None)
        found.add((step[0][0], step[-1][1], tuple(taken), tuple(map(tuple, step))))
    distinct = {}
    for frm, to, taken, path in sorted(found):
        distinct.setdefault((frm, to, taken), path)
    return distinct


def perft(game, depth):
    if depth == 0:
        return 1
    distinct = moves(game)
    if depth == 1:
        return len(distinct)
    total = 0
    for path in distinct.values():
        child = game.copy_fast()
        child.push([list(s) for s in path])
        total += perft(child, depth - 1)
    return total


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    variant, fen, depth = words[0], words[1], int(words[2])
    game = Game(variant, fen)
    listed = sorted(
        f"{f}-{t}:{','.join(map(str, c))}" for f, t, c in moves(game).keys()
    )
    print(perft(game, depth), *listed, flush=True)
