"""Reads a `buffgreen match` PDN with whichever Python draughts library this interpreter has
(pydraughts 0.6.7 or py-draughts 1.10.1: both are imported as `draughts`, so each lives in its
own venv) and checks every game move by move against the match's --json records.

    python scripts/pdn_interop.py GAMES.pdn GAMES.jsonl     # last line OK, else exit 1

pydraughts: its PDNReader reads every game (tags, moves, result); English games are then
replayed on its own English board, move by move. Buff and Green games have no board in
pydraughts, so their moves are compared as read.

py-draughts: AmericanBoard.from_pdn replays each English game (py-draughts calls English
checkers American checkers, and its board checks every move). It has no board with Buff and
Green rules (its Russian board differs in captures and crowning), and from_pdn always replays
on a board, so Buff and Green games are read with a copy of from_pdn's scanning loop, using
py-draughts' own tag, move and result patterns; their FEN is parsed by AmericanBoard.from_fen.
"""

import json
import re
import sys


def expected_games(path):
    games = []
    with open(path, encoding="utf8") as f:
        for line in f:
            record = json.loads(line)
            if record["type"] == "game":
                games.append(record)
    return games


def split_games(text):
    """One text per game: a new game starts at a tag line after a blank line."""
    return [g for g in re.split(r"\n\n(?=\[)", text.strip()) if g.strip()]


def check_pydraughts(text, want, fail):
    from draughts import Board, Move
    from draughts.PDN import PDNReader

    games = PDNReader(pdn_text=text).games
    if len(games) != len(want):
        fail(f"pydraughts read {len(games)} games, the match wrote {len(want)}")
        return
    for g, w in zip(games, want):
        label = f"round {w['round']}"
        if g.tags.get("Round") != str(w["round"]):
            fail(f"{label}: Round tag {g.tags.get('Round')}")
        if g.moves != w["moves"]:
            fail(f"{label}: moves read {g.moves[:8]}..., written {w['moves'][:8]}...")
            continue
        if g.game_ending != w["result"]:
            fail(f"{label}: result read {g.game_ending}, written {w['result']}")
        if g.variant == "english":
            board = Board("english", fen=g.tags["FEN"]) if "FEN" in g.tags else Board("english")
            for ply, m in enumerate(g.moves, 1):
                try:
                    board.push(Move(board, pdn_move=m))
                except Exception as e:  # pydraughts raises bare exceptions on illegal moves
                    fail(f"{label}: ply {ply} {m} on pydraughts' English board: {e!r}")
                    break
        elif w["rules"].startswith("BackwardCapture=false LongKings=false"):
            fail(f"{label}: pydraughts took an English game for {g.variant}")
    print(f"pydraughts: {len(games)} games read move by move")


def scan_like_py_draughts(pdn):
    """Tags and moves as py-draughts 1.10.1's BaseBoard.from_pdn scans them (a copy of its
    loop, with its own patterns), without replaying the moves on a board."""
    from draughts.boards import base

    tags, moves, depth, i = {}, [], 0, 0
    while i < len(pdn):
        char = pdn[i]
        if char.isspace():
            i += 1
        elif char == "{":
            end = pdn.find("}", i + 1)
            i = len(pdn) if end == -1 else end + 1
        elif char in "%;":
            end = pdn.find("\n", i + 1)
            i = len(pdn) if end == -1 else end + 1
        elif char == "(":
            depth += 1
            i += 1
        elif char == ")":
            depth = max(depth - 1, 0)
            i += 1
        elif char == "[" and (tag := base._PDN_TAG.match(pdn, i)):
            if depth == 0:
                tags[tag.group(1)] = tag.group(2)
            i = tag.end()
        elif depth:
            i += 1
        elif (result := tags.get("Result")) and pdn.startswith(result, i):
            break
        elif base._PDN_RESULT.match(pdn, i):
            break
        elif match := base._PDN_MOVE.match(pdn, i):
            moves.append(re.sub(r"\s+", "", match.group()).replace(":", "x"))
            i = match.end()
        else:
            i += 1
    return tags, moves


def check_py_draughts(text, want, fail):
    from draughts import AmericanBoard, Color

    games = split_games(text)
    if len(games) != len(want):
        fail(f"py-draughts: {len(games)} game texts, the match wrote {len(want)}")
        return
    for pdn, w in zip(games, want):
        label = f"round {w['round']}"
        tags, scanned = scan_like_py_draughts(pdn)
        if tags.get("Round") != str(w["round"]):
            fail(f"{label}: Round tag {tags.get('Round')}")
        if "FEN" not in tags:
            fail(f"{label}: py-draughts finds no FEN tag")
            continue
        start = AmericanBoard.from_fen(tags["FEN"])
        if (start.turn == Color.BLACK) != w["fen"].startswith("B"):
            fail(f"{label}: py-draughts reads the wrong side to move from {tags['FEN']}")
        if w["rules"].startswith("BackwardCapture=false LongKings=false"):
            try:
                board = AmericanBoard.from_pdn(pdn)
            except ValueError as e:
                fail(f"{label}: AmericanBoard.from_pdn: {e}")
                continue
            got = [str(m) for m in board._moves_stack]
        else:
            got = scanned
        if got != w["moves"]:
            fail(f"{label}: moves read {got[:8]}... ({len(got)}), written {w['moves'][:8]}... "
                 f"({len(w['moves'])})")
    print(f"py-draughts: {len(games)} games read move by move")


def main():
    pdn_path, json_path = sys.argv[1], sys.argv[2]
    with open(pdn_path, encoding="utf8") as f:
        text = f.read()
    want = expected_games(json_path)
    rounds = [w["round"] for w in want]
    errors = []
    fail = errors.append
    if rounds != sorted(rounds):
        fail(f"games not in round order: {rounds}")
    try:
        from draughts.PDN import PDNReader  # noqa: F401  (pydraughts only)
        check_pydraughts(text, want, fail)
    except ImportError:
        check_py_draughts(text, want, fail)
    for e in errors:
        print(f"FAIL {pdn_path}: {e}")
    if errors:
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
