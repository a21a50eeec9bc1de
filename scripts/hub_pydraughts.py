#!/usr/bin/env python3
"""buffgreen driven by pydraughts 0.6.7 over the Hub protocol, as a user would drive it.

1. Two complete English games of buffgreen against itself, each side its own `HubEngine`
   process (`buffgreen hub`), played on pydraughts' own `Board`, which checks every move: a
   `done move=` that names no legal move raises in `draughts.Move`, and each move is also
   looked up in `board.legal_moves()` here. Every few moves the script sends `ping` and waits
   for `pong`.
2. A pydraughts `RoundRobin` (its tournament manager, with a clock: `level time= inc=`) of
   buffgreen against buffgreen at a weaker setting (`PlainUct`), two games (--rr-games), which must
   complete and write its PDN; the PDN is read back and every game replayed move by move on
   a fresh `Board`.

Any pydraughts warning about an unexpected engine line fails the run. For every game a line
`MOVES <label> <move> ...` gives the moves in Hub notation, so a caller can check them with an
independent referee (tests/hub/pydraughts.rs replays them with buffgreen's English rules).

    python scripts/hub_pydraughts.py --engine target/release/buffgreen --pdn target/hub-rr.pdn

Run it with the python of scripts/install-pydraughts-hub.sh. Exit status 0 when everything
held, 1 otherwise.
"""

import argparse
import logging
import os
import re
import sys

import draughts
from draughts.engine import HubEngine, Limit
from draughts.tournament import RoundRobin


class Warnings(logging.Handler):
    """Collects pydraughts' warnings (it logs unexpected engine lines and carries on)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


def result_text(board):
    winner = board.winner()
    if winner == draughts.WHITE:
        return "white wins"
    if winner == draughts.BLACK:
        return "black wins"
    return "draw" if board.is_over() else "unfinished (ply limit)"


def play_game(engine_path, seeds, nodes, max_plies, label):
    """One game, Black's engine first; returns (plies, result, hub moves)."""
    board = draughts.Board(variant="english")
    engines = []
    try:
        for seed in seeds:
            e = HubEngine([engine_path, "hub"])
            e.configure({"variant": "english", "Seed": str(seed), "Hash": "16"})
            e.init()
            engines.append(e)
        # pydraughts' Board for English: turn BLACK (1) moves first.
        by_turn = {draughts.BLACK: engines[0], draughts.WHITE: engines[1]}
        hub_moves = []
        while not board.is_over() and len(board.move_stack) < max_plies:
            engine = by_turn[board.turn]
            if len(board.move_stack) % 10 == 0:
                engine.ping()  # raises EOFError if the engine died; loops until `pong`
            legal = [m.board_move for m in board.legal_moves()]
            result = engine.play(board, Limit(nodes=nodes), False)
            if result.move is None or result.move.board_move not in legal:
                raise AssertionError(f"{label}: illegal move {result.move!r} at ply {len(board.move_stack) + 1}")
            hub_moves.append(result.move.hub_move)
            board.push(result.move)
        return len(board.move_stack), result_text(board), hub_moves
    finally:
        for e in engines:
            e.quit()
            e.kill_process()


def read_pdn(path):
    """The games of a PDN file as (tags, move texts, result token).

    Read here rather than with pydraughts' PDNReader: 0.6.7's reader takes the `1...` of a
    game that Black opens (every English game RoundRobin writes) as the first move and so
    returns that move twice.
    """
    games, tags, moves = [], {}, []
    results = {"2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "0-0", "*"}
    with open(path, encoding="utf8") as f:
        lines = f.read().splitlines()
    for line in lines:
        line = line.strip()
        if line.startswith("["):
            if moves:
                raise AssertionError(f"{path}: tags after moves without a result: {line}")
            name, _, value = line[1:-1].partition(" ")
            tags[name] = value.strip('"')
            continue
        for token in line.split():
            if token in results:
                games.append((tags, moves, token))
                tags, moves = {}, []
            elif not re.fullmatch(r"\d+\.(\.\.)?", token):
                moves.append(token)
    if tags or moves:
        raise AssertionError(f"{path}: last game has no result")
    return games


def replay_pdn(path, expected_games):
    """Reads the tournament's PDN back and replays every game on pydraughts' Board; returns
    [(plies, result, hub moves)]."""
    games = read_pdn(path)
    if len(games) != expected_games:
        raise AssertionError(f"PDN holds {len(games)} games, expected {expected_games}")
    out = []
    for tags, texts, ending in games:
        board = draughts.Board(variant="english", fen=tags.get("FEN", "startpos"))
        hub_moves = []
        for text in texts:
            move = draughts.Move(board, pdn_move=text)  # raises for an illegal move
            hub_moves.append(move.hub_move)
            board.push(move)
        if str(len(board.move_stack)) != tags.get("PlyCount"):
            raise AssertionError(f"PDN game has {len(board.move_stack)} plies, PlyCount {tags.get('PlyCount')}")
        out.append((len(board.move_stack), ending, hub_moves))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True, help="the buffgreen binary")
    ap.add_argument("--pdn", required=True, help="where the RoundRobin writes its PDN")
    ap.add_argument("--nodes", type=int, default=300, help="level nodes= per move in the self-play games")
    ap.add_argument("--max-plies", type=int, default=300, help="ply limit of the self-play games")
    ap.add_argument("--rr-time", type=float, default=1.0, help="RoundRobin seconds per side")
    ap.add_argument("--rr-inc", type=float, default=0.02, help="RoundRobin increment in seconds")
    ap.add_argument("--rr-max-plies", type=int, default=120, help="RoundRobin ply limit")
    ap.add_argument("--rr-games", type=int, default=2, help="RoundRobin games (colours alternate)")
    args = ap.parse_args()
    engine = os.path.realpath(args.engine)

    warnings = Warnings()
    logging.getLogger("pydraughts").addHandler(warnings)
    ok = True

    print(f"pydraughts {draughts.__version__}, engine {engine}")
    for label, seeds in [("selfplay-1", (1, 2)), ("selfplay-2", (3, 4))]:
        plies, result, moves = play_game(engine, seeds, args.nodes, args.max_plies, label)
        print(f"{label}: {plies} plies, {result}, every move legal")
        print(f"MOVES {label} {' '.join(moves)}")

    if os.path.exists(args.pdn):
        os.remove(args.pdn)  # PDNWriter appends
    players = [
        ([engine, "hub"], "hub", {"variant": "english", "Hash": "16"}, None),
        ([engine, "hub"], "hub", {"variant": "english", "Hash": "16", "PlainUct": True}, None),
    ]
    rr = RoundRobin(args.pdn, players, args.rr_time, args.rr_inc, variant="english",
                    games_per_pair=args.rr_games, max_moves=args.rr_max_plies)
    scores = rr.play()
    print(f"RoundRobin (english, {args.rr_time}s+{args.rr_inc}s, {args.rr_games} games): scores {scores} "
          f"(buffgreen, buffgreen PlainUct; 2 per win, 1 per draw); results {rr.complete_results}")
    for i, (plies, ending, moves) in enumerate(replay_pdn(args.pdn, args.rr_games), 1):
        print(f"rr-{i}: {plies} plies, {ending}, replayed from the PDN, every move legal")
        print(f"MOVES rr-{i} {' '.join(moves)}")
    if sum(scores) != 2 * args.rr_games:
        print(f"FAIL: scores {scores} do not add up to {args.rr_games} games")
        ok = False

    for w in warnings.records:
        print(f"FAIL: pydraughts warned: {w}")
        ok = False
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
