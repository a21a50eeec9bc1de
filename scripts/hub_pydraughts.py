#!/usr/bin/env python3
"""buffgreen driven by pydraughts 0.6.7 over the Hub protocol, as a user would drive it.

1. Two complete games of buffgreen against itself for each variant of --variants (English
   checkers by default; `russian` and `brazilian` as pydraughts and lidraughts-bot name them),
   each side its own `HubEngine` process (`buffgreen hub`, `set-param name=variant`), played on
   pydraughts' own `Board`, which checks every move: a `done move=` that names no legal move
   raises in `draughts.Move`, each move is also looked up in `board.legal_moves()` here, and
   the engine must write it exactly as pydraughts writes that move (`hub_move`: the captured
   squares ascending). Every few moves the script sends `ping` and waits for `pong`. The
   engine then answers one move under `level time= inc=` and one under `level move-time=`,
   and its last `info` must carry a score.
2. With --pdn: a pydraughts `RoundRobin` (its tournament manager, with a clock: `level time=
   inc=`) of buffgreen against buffgreen at a weaker setting (`PlainUct`), English checkers,
   two games (--rr-games), which must complete and write its PDN; the PDN is read back and
   every game replayed move by move on a fresh `Board`.

Any pydraughts warning about an unexpected engine line fails the run. For every game a line
`MOVES <variant>-<label> <move> ...` gives the moves in pydraughts' Hub notation, so a caller
can check them with an independent referee (tests/hub/pydraughts.rs replays them with
buffgreen's own rules).

    python scripts/hub_pydraughts.py --engine target/release/buffgreen --pdn target/hub-rr.pdn
    python scripts/hub_pydraughts.py --engine target/release/buffgreen --variants russian brazilian

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


def start_engine(engine_path, variant, seed):
    e = HubEngine([engine_path, "hub"])
    if variant not in e.variants:
        raise AssertionError(f"the engine's variant list {sorted(e.variants)} lacks {variant}")
    e.configure({"variant": variant, "Seed": str(seed), "Hash": "16"})
    e.init()
    return e


def engine_move(engine, board, limit, label):
    """The engine's move in `board` under `limit`, checked against pydraughts' legal moves and
    its own writing of that move."""
    legal = {str(m.board_move): m for m in board.legal_moves()}
    result = engine.play(board, limit, False)
    ply = len(board.move_stack) + 1
    if result.move is None or str(result.move.board_move) not in legal:
        raise AssertionError(f"{label}: illegal move {result.move!r} at ply {ply}")
    written = legal[str(result.move.board_move)].hub_move
    if result.move.hub_move != written:
        raise AssertionError(f"{label}: ply {ply}: the engine wrote {result.move.hub_move}, "
                             f"pydraughts writes {written}")
    return result


def play_game(engine_path, variant, seeds, nodes, max_plies, label):
    """One game, the first engine moving first; returns (plies, result, hub moves)."""
    board = draughts.Board(variant=variant)
    engines = []
    try:
        for seed in seeds:
            engines.append(start_engine(engine_path, variant, seed))
        # The side to move at the start (Black in English, White in Russian and Brazilian)
        # is the first engine's.
        by_turn = {board.turn: engines[0], 3 - board.turn: engines[1]}
        hub_moves = []
        while not board.is_over() and len(board.move_stack) < max_plies:
            engine = by_turn[board.turn]
            if len(board.move_stack) % 10 == 0:
                engine.ping()  # raises EOFError if the engine died; loops until `pong`
            result = engine_move(engine, board, Limit(nodes=nodes), label)
            hub_moves.append(result.move.hub_move)
            board.push(result.move)
        return len(board.move_stack), result_text(board), hub_moves
    finally:
        for e in engines:
            e.quit()
            e.kill_process()


def clock_moves(engine_path, variant, label):
    """One move under a clock (`level time= inc=`) and one under `level move-time=`, from the
    start and after them; every answer legal and with a score in its `info`."""
    board = draughts.Board(variant=variant)
    e = start_engine(engine_path, variant, 1)
    try:
        for limit in (Limit(time=0.5, inc=0.05), Limit(movetime=0.1)):
            result = engine_move(e, board, limit, label)
            if "score" not in result.info:
                raise AssertionError(f"{label}: no score in the info {result.info}")
            board.push(result.move)
    finally:
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


def round_robin(engine, args):
    """The English RoundRobin; True when it held."""
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
        print(f"english-rr-{i}: {plies} plies, {ending}, replayed from the PDN, every move legal")
        print(f"MOVES english-rr-{i} {' '.join(moves)}")
    if sum(scores) != 2 * args.rr_games:
        print(f"FAIL: scores {scores} do not add up to {args.rr_games} games")
        return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True, help="the buffgreen binary")
    ap.add_argument("--pdn", help="where the RoundRobin writes its PDN (no RoundRobin without it)")
    ap.add_argument("--variants", nargs="+", default=["english"],
                    help="the pydraughts variants of the self-play games (english russian brazilian)")
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
    for variant in args.variants:
        for label, seeds in [("selfplay-1", (1, 2)), ("selfplay-2", (3, 4))]:
            label = f"{variant}-{label}"
            plies, result, moves = play_game(engine, variant, seeds, args.nodes, args.max_plies, label)
            print(f"{label}: {plies} plies, {result}, every move legal")
            print(f"MOVES {label} {' '.join(moves)}")
        clock_moves(engine, variant, f"{variant}-clock")
        print(f"{variant}-clock: a move under level time= inc= and one under level move-time=, legal, scored")

    if args.pdn:
        ok = round_robin(engine, args) and ok

    for w in warnings.records:
        print(f"FAIL: pydraughts warned: {w}")
        ok = False
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
