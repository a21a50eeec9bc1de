#!/usr/bin/env python3
"""py-draughts' SimpleEngine behind the buffgreen protocol, for English checkers matches.

    scripts/install-py-draughts.sh          # once: pinned py-draughts in a venv
    target/py-draughts-venv/bin/python lab/pydraughts_engine.py
    target/py-draughts-venv/bin/python lab/pydraughts_engine.py --selftest [BUFFGREEN]

The opponent of lab/vs_pydraughts.sh. It speaks the subset of protocol.md a match runner
needs (`uci`, `isready`, `setoption`, `ucinewgame`, `position startpos|fen ... [moves ...]`,
`go movetime|nodes|wtime/btime/winc/binc/movestogo|infinite`, `go perft N`, `stop`, `quit`);
unknown commands are ignored, mistakes get one `info string error: ...` line, diagnostics go
to stderr.

What the adapter changes in py-draughts, and why:
- Captures are mandatory. py-draughts 1.10's American board offers captures as optional
  (`captures_optional=True`); `EnglishBoard.legal_moves` asks its move generator for forced
  captures instead, and because SimpleEngine reads `board.legal_moves` at every node, its
  whole search plays by that rule.
- The draw rule is the game's: `DrawHalfMoves` (default 80) half-moves without a capture or
  crowning. py-draughts' own American rule (40 quiet king moves, threefold repetition) is not
  what the referee plays, so the engine would score positions as draws that are not.
- Square numbers match ours one to one (py-draughts index = our square - 1: index 0 is b8,
  our square 1), and so do the colours (Black on 1-12 moving toward higher numbers), but
  py-draughts lets White start; the side to move is therefore always set from the position.
- Time: SimpleEngine's own time limit is checked every 2,048 nodes (a quarter of a second in
  Python), so the adapter runs the iterative deepening itself on SimpleEngine's negamax and
  stops at a deadline checked at every node, `MoveOverhead` ms before the budget; the move is
  that of the deepest iteration completed.
"""

from __future__ import annotations

import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

try:
    from loguru import logger

    logger.remove()  # py-draughts logs every board and search at INFO on stderr
    from draughts.boards.american import _CORE, Board
    from draughts.engines.simple import INF, TT_MAX_SIZE, SimpleEngine
    from draughts.models import Color
except ImportError as e:  # pragma: no cover - reported to the user, not a test
    sys.stderr.write(f"pydraughts_engine: {e}; run scripts/install-py-draughts.sh first\n")
    sys.exit(1)

try:
    from importlib.metadata import version as _pkg_version

    PYDRAUGHTS_VERSION = _pkg_version("py-draughts")
except Exception:  # noqa: BLE001 - the version is only shown in `id name`
    PYDRAUGHTS_VERSION = "?"

START_FEN = "B:W21-32:B1-12"
MAX_DEPTH = 64


# --- rules --------------------------------------------------------------------------------


class EnglishBoard(Board):
    """py-draughts' American board with forced captures and the game's no-progress draw."""

    draw_half_moves = 80

    def __init__(self, *args, **kwargs):
        self.np_clock = 0  # half-moves since the last capture or crowning (ours)
        self.np_stack: list[int] = []
        super().__init__(*args, **kwargs)

    @property
    def legal_moves(self):
        return self._legal_moves_from_core(_CORE, max_capture=False, captures_optional=False)

    @property
    def is_draw(self) -> bool:
        n = self.draw_half_moves
        return n > 0 and self.np_clock >= n

    def push(self, move, is_finished: bool = True) -> None:
        src, tgt = move.square_list[0], move.square_list[-1]
        was_man = abs(self._get(src)) == 1
        super().push(move, is_finished)
        if is_finished:
            crowned = was_man and abs(self._get(tgt)) == 2
            self.np_stack.append(self.np_clock)
            self.np_clock = 0 if (move.captured_list or crowned) else self.np_clock + 1

    def pop(self, is_finished: bool = True):
        move = super().pop(is_finished)
        if is_finished:
            self.np_clock = self.np_stack.pop()
        return move


def parse_fen(text: str) -> EnglishBoard:
    """A board from a PDN FEN in the forms protocol.md accepts; ValueError if malformed."""
    s = "".join(text.split())
    if s.upper().startswith("[FEN"):
        inner = s[4:]
        if not (inner.startswith('"') and inner.endswith('"]')):
            raise ValueError(f"bad FEN wrapper in '{text}'")
        s = inner[1:-2]
    s = s.rstrip(".")
    fields = s.split(":")
    if len(fields) != 3 or fields[0].upper() not in ("B", "W"):
        raise ValueError(f"bad FEN '{text}': expected <turn>:W<squares>:B<squares>")
    boards = {"W": [0, 0], "B": [0, 0]}  # men, kings
    seen_colours = set()
    occupied = 0
    for field in fields[1:]:
        colour = field[:1].upper()
        if colour not in boards or colour in seen_colours:
            raise ValueError(f"bad FEN section '{field}'")
        seen_colours.add(colour)
        body = field[1:]
        for token in body.split(",") if body else []:
            king = token[:1].upper() == "K"
            if king:
                token = token[1:]
            lo, _, hi = token.partition("-")
            if not lo.isdigit() or (hi and not hi.isdigit()):
                raise ValueError(f"bad FEN square '{token}'")
            a, b = int(lo), int(hi) if hi else int(lo)
            if not (1 <= a <= b <= 32):
                raise ValueError(f"bad FEN square '{token}'")
            for sq in range(a, b + 1):
                bit = 1 << (sq - 1)
                if occupied & bit:
                    raise ValueError(f"square {sq} given twice in FEN")
                if not king and ((colour == "B" and sq >= 29) or (colour == "W" and sq <= 4)):
                    raise ValueError(f"man on its crowning row at {sq} in FEN")
                occupied |= bit
                boards[colour][int(king)] |= bit
    board = EnglishBoard(turn=Color.WHITE if fields[0].upper() == "W" else Color.BLACK)
    board.white_men, board.white_kings = boards["W"]
    board.black_men, board.black_kings = boards["B"]
    board._initial_state = board._pdn_state()
    return board


def path_of(move) -> list[int]:
    """Our square numbers of a py-draughts move: start, then every landing square."""
    return [sq + 1 for sq in move.square_list]


def move_text(move) -> str:
    """Our long form: `11-15`, `9x18x27`."""
    return ("x" if move.captured_list else "-").join(str(n) for n in path_of(move))


def _coords(n: int) -> tuple[int, int]:
    """Row (0 = rank 8) and column (0 = file a) of our square n."""
    row = (n - 1) // 4
    return row, 2 * ((n - 1) % 4) + (1 if row % 2 == 0 else 0)


def _jumped(path: list[int]) -> frozenset[int]:
    """Squares (ours) jumped by a short capture path: the midpoints of its steps."""
    out = set()
    for a, b in zip(path, path[1:]):
        (r1, c1), (r2, c2) = _coords(a), _coords(b)
        if abs(r1 - r2) != 2 or abs(c1 - c2) != 2:
            return frozenset()
        r, c = (r1 + r2) // 2, (c1 + c2) // 2
        out.add(r * 4 + c // 2 + 1)
    return frozenset(out)


def find_move(board: EnglishBoard, text: str):
    """The legal move our notation names (long form, or a capture's two ends when unique)."""
    capture = "x" in text.lower()
    parts = text.lower().split("x" if capture else "-")
    if len(parts) < 2 or not all(p.isdigit() and 1 <= int(p) <= 32 for p in parts):
        raise ValueError(f"bad move '{text}'")
    path = [int(p) for p in parts]
    legal = board.legal_moves
    exact = [m for m in legal if path_of(m) == path and bool(m.captured_list) == capture]
    if exact:
        return exact[0]
    if capture:
        # py-draughts keeps one direction of a king's loop capture (same ends, same pieces);
        # ours names both. Match by ends and jumped squares, then by ends alone (short form).
        jumped = _jumped(path)
        for m in legal:
            p = path_of(m)
            if m.captured_list and p[0] == path[0] and p[-1] == path[-1]:
                if len(path) > 2 and frozenset(c + 1 for c in m.captured_list) == jumped:
                    return m
        if len(path) == 2:
            ends = [m for m in legal if m.captured_list and path_of(m)[::len(path_of(m)) - 1] == path]
            if len(ends) == 1:
                return ends[0]
            if len(ends) > 1:
                raise ValueError(f"ambiguous move '{text}'")
    raise ValueError(f"illegal move '{text}'")


def perft(board: EnglishBoard, depth: int) -> int:
    if depth == 0:
        return 1
    if board.is_draw:
        return 0
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += perft(board, depth - 1)
        board.pop()
    return total


# --- search -------------------------------------------------------------------------------


class TimedEngine(SimpleEngine):
    """SimpleEngine whose search also stops at a deadline, a node budget or an abort flag,
    checked at every node (its own clock check runs every 2,048 nodes)."""

    def __init__(self):
        super().__init__(depth_limit=MAX_DEPTH, time_limit=None, name="SimpleEngine")
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self.abort = threading.Event()

    def negamax(self, board, depth, alpha, beta, h):
        if not self.stop_search and (
            self.abort.is_set()
            or (self.deadline is not None and time.monotonic() >= self.deadline)
            or (self.node_limit is not None and self.nodes >= self.node_limit)
        ):
            self.stop_search = True
        return super().negamax(board, depth, alpha, beta, h)

    def think(self, board, report):
        """SimpleEngine.get_best_move's iterative deepening, keeping the deepest completed
        iteration's move when a limit cuts the next one short. `report(depth, score, move)`
        is called after each completed iteration."""
        self.start_time = time.time()
        self.nodes = 0
        self.stop_search = False
        self._current_zobrist = self._get_zobrist_table(32)
        self._current_pst = self._get_pst_tables(32, 8)
        for key in self.history:
            self.history[key] //= 2
        root = self._compute_hash_fast(board)
        legal = board.legal_moves
        best, depth = (legal[0] if legal else None), 0
        for d in range(1, MAX_DEPTH + 1):
            if len(legal) <= 1:
                break  # nothing to choose
            score = self.negamax(board, d, -INF, INF, root)
            if self.stop_search:
                break
            entry = self.tt.get(root)
            if entry and entry[3] is not None:
                # Take the TT's move in its legal-move form (the TT may hold an older object).
                same = [m for m in legal if m.square_list == entry[3].square_list]
                if same:
                    best, depth = same[0], d
                    report(d, score, best)
        if len(self.tt) > TT_MAX_SIZE:
            for k in list(self.tt.keys())[: len(self.tt) - TT_MAX_SIZE // 2]:
                del self.tt[k]
        return best, depth


# --- protocol -----------------------------------------------------------------------------


class Adapter:
    def __init__(self, out=sys.stdout):
        self.out = out
        self.lock = threading.Lock()
        self.board = parse_fen(START_FEN)
        self.engine = TimedEngine()
        self.move_overhead = 10
        self.draw_half_moves = 80
        self.search: threading.Thread | None = None
        self.active = False  # a search runs and has not yet sent its bestmove
        self.infinite_hold = threading.Event()

    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, what: str) -> None:
        self.send(f"info string error: {what}")

    def handle(self, line: str) -> bool:
        """Runs one command; False on quit."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        if cmd == "uci":
            self.send(f"id name py-draughts {PYDRAUGHTS_VERSION} SimpleEngine (adapter)")
            self.send("id author py-draughts authors; adapter by the buffgreen developers")
            self.send("option name BackwardCapture type check default false")
            self.send("option name LongKings type check default false")
            self.send("option name DrawHalfMoves type spin default 80 min 0 max 1000")
            self.send("option name MoveOverhead type spin default 10 min 0 max 5000")
            self.send("option name Hash type spin default 64 min 1 max 4096")
            self.send("option name Threads type spin default 1 min 1 max 1")
            self.send("uciok")
        elif cmd == "isready":
            self.send("readyok")
        elif cmd == "setoption":
            self.setoption(args)
        elif cmd == "ucinewgame":
            self.wait_search()
            self.engine = TimedEngine()
            self.board = self.new_board(START_FEN)
        elif cmd == "position":
            self.position(args)  # a running search keeps its own board
        elif cmd == "go":
            if self.active:
                self.error("go during a search")
            else:
                self.go(args)
        elif cmd == "stop":
            self.engine.abort.set()
            self.infinite_hold.set()
        elif cmd == "ponderhit":
            pass
        elif cmd == "quit":
            self.engine.abort.set()
            self.infinite_hold.set()
            self.wait_search()
            return False
        # anything else: ignored, as the brief for this adapter asks
        return True

    def wait_search(self) -> None:
        if self.search is not None:
            self.engine.abort.set()
            self.infinite_hold.set()
            self.search.join()
            self.search = None

    def new_board(self, fen: str) -> EnglishBoard:
        board = parse_fen(fen)
        board.draw_half_moves = self.draw_half_moves
        return board

    def setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            self.error("setoption needs 'name'")
            return
        if "value" in args:
            i = args.index("value")
            name, value = " ".join(args[1:i]).lower(), " ".join(args[i + 1 :])
        else:
            name, value = " ".join(args[1:]).lower(), ""
        if name in ("backwardcapture", "longkings"):
            if value.lower() != "false":
                self.error(f"{name}: this adapter plays English checkers only (value false)")
        elif name in ("drawhalfmoves", "moveoverhead"):
            if not value.isdigit() or int(value) > (1000 if name == "drawhalfmoves" else 5000):
                self.error(f"{name}: bad value '{value}'")
            elif name == "drawhalfmoves":
                self.draw_half_moves = int(value)
                self.board.draw_half_moves = self.draw_half_moves
            else:
                self.move_overhead = int(value)
        elif name in ("hash", "threads", "ponder", "seed"):
            pass  # accepted and ignored: SimpleEngine has its own table and one thread
        else:
            self.error(f"unknown option '{name}'")

    def position(self, args: list[str]) -> None:
        try:
            if not args:
                raise ValueError("position needs startpos or fen")
            if "moves" in args:
                i = args.index("moves")
                head, moves = args[:i], args[i + 1 :]
            else:
                head, moves = args, []
            if head == ["startpos"]:
                board = self.new_board(START_FEN)
            elif head[0] == "fen" and len(head) > 1:
                board = self.new_board(" ".join(head[1:]))
            else:
                raise ValueError("position needs startpos or fen")
            for n, text in enumerate(moves, 1):
                if board.is_draw or not board.legal_moves:
                    raise ValueError(f"move {n} '{text}': the game is over")
                try:
                    board.push(find_move(board, text))
                except ValueError as e:
                    raise ValueError(f"move {n} '{text}': {e}") from None
        except ValueError as e:
            self.error(str(e))
            return
        self.board = board

    def go(self, args: list[str]) -> None:
        if self.search is not None:
            self.search.join()  # it has sent its bestmove and is about to end
            self.search = None
        if args[:1] == ["perft"]:
            if len(args) != 2 or not args[1].isdigit() or not 1 <= int(args[1]) <= 30:
                self.error("go perft needs a depth 1-30")
                return
            self.divide(int(args[1]))
            return
        keys = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "nodes")
        lim: dict[str, int] = {}
        infinite, i = False, 0
        while i < len(args):
            word = args[i]
            if word in ("infinite", "ponder"):
                infinite = infinite or word == "infinite"
                i += 1
            elif word in keys and i + 1 < len(args) and args[i + 1].lstrip("-").isdigit():
                lim[word] = max(0, int(args[i + 1]))
                i += 2
            elif word == "searchmoves":
                break  # not supported: search all moves
            else:
                self.error(f"go: bad parameter '{word}'")
                return
        white = self.board.turn == Color.WHITE
        budget_ms = None
        if "movetime" in lim:
            budget_ms = lim["movetime"]
        mine = lim.get("wtime" if white else "btime")
        if mine is not None:
            inc = lim.get("winc" if white else "binc", 0)
            mtg = lim.get("movestogo", 25)
            share = mine / max(1, min(mtg, 25)) + inc * 3 // 4
            clock_ms = int(min(share, mine / 2))
            budget_ms = clock_ms if budget_ms is None else min(budget_ms, clock_ms)
        eng = self.engine
        eng.abort.clear()
        self.infinite_hold.clear()
        start = time.monotonic()
        eng.deadline = None
        if budget_ms is not None:
            eng.deadline = start + max(1, budget_ms - self.move_overhead) / 1000.0
        eng.node_limit = lim.get("nodes")
        hold = infinite or (budget_ms is None and eng.node_limit is None)
        board = self.board
        self.active = True
        self.search = threading.Thread(
            target=self.run_search, args=(eng, board, start, hold), daemon=True
        )
        self.search.start()

    def run_search(self, eng: TimedEngine, board: EnglishBoard, start: float, hold: bool):
        def report(depth, score, move):
            ms = int((time.monotonic() - start) * 1000)
            cp = int(round(score * 100))
            self.send(
                f"info depth {depth} score cp {cp} nodes {eng.nodes} time {ms} pv {move_text(move)}"
            )

        try:
            best = None
            if not board.is_draw and board.legal_moves:
                best, _ = eng.think(board, report)
        except Exception as e:  # noqa: BLE001 - a bug must not hang the referee
            sys.stderr.write(f"pydraughts_engine: search failed: {e!r}\n")
            legal = [] if board.is_draw else board.legal_moves
            best = legal[0] if legal else None
        if hold:
            self.infinite_hold.wait()
        with self.lock:
            self.active = False
            self.out.write(f"bestmove {move_text(best) if best is not None else 'none'}\n")
            self.out.flush()

    def divide(self, depth: int) -> None:
        board = self.board
        total = 0
        lines = []
        for m in ([] if board.is_draw else board.legal_moves):
            board.push(m)
            n = perft(board, depth - 1)
            board.pop()
            total += n
            lines.append((path_of(m), f"{move_text(m)}: {n}"))
        for _, text in sorted(lines):
            self.send(text)
        self.send("")
        self.send(f"Nodes searched: {total}")


def serve() -> int:
    adapter = Adapter()
    for raw in sys.stdin.buffer:
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            adapter.error("input is not UTF-8")
            continue
        try:
            if not adapter.handle(line):
                return 0
        except BrokenPipeError:
            return 0  # the other end has gone: nothing left to say
        except Exception as e:  # noqa: BLE001 - one bad line must not end the process
            sys.stderr.write(f"pydraughts_engine: {line.strip()!r}: {e!r}\n")
            adapter.error("internal error, see stderr")
    adapter.wait_search()
    return 0


# --- self-check ---------------------------------------------------------------------------


class Proc:
    """A protocol engine under test: a child process, a line at a time."""

    def __init__(self, argv):
        self.p = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, pred, timeout=30.0) -> list[str]:
        got, end = [], time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            if line is None:
                raise RuntimeError(f"engine exited; got {got}")
            got.append(line)
            if pred(line):
                return got

    def ask(self, *lines: str, until: str, timeout=30.0) -> list[str]:
        """Sends `lines`; returns what comes up to the first line starting with `until`."""
        for line in lines:
            self.send(line)
        return self.until(lambda l: l.startswith(until), timeout)

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:  # noqa: BLE001
            self.p.kill()


def _move_keys(lines: list[str]) -> set:
    """Perft-1 divide lines as (start, end, jumped squares): a loop capture's two directions
    are one move for this comparison (py-draughts lists one of them)."""
    keys = set()
    for line in lines:
        text = line.split(":")[0]
        if not re.fullmatch(r"\d+([-x]\d+)+", text):
            continue
        path = [int(p) for p in text.replace("x", "-").split("-")]
        keys.add((path[0], path[-1], _jumped(path) if "x" in text else frozenset()))
    return keys


def selftest(buffgreen: str) -> int:
    """Checks the rules and the notation against buffgreen (English rules) and the protocol
    against a child adapter. Prints `N passed, N failed`; exit status 1 on any failure."""
    passed = failed = 0

    def check(ok: bool, what: str):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL: {what}")

    # 1. Published English perft from the start position (captures forced).
    for depth, want in enumerate([7, 49, 302, 1469, 7361], 1):
        got = perft(parse_fen(START_FEN), depth)
        check(got == want, f"perft {depth} from the start: {got}, want {want}")

    # 2. Random positions: same legal moves as buffgreen, same position after each move.
    ours = Proc([buffgreen])
    ours.send("setoption name BackwardCapture value false")
    ours.send("setoption name LongKings value false")
    ours.send("setoption name DrawHalfMoves value 0")
    rng = random.Random(7)
    positions = 0
    for game in range(25):
        board = parse_fen(START_FEN)
        board.draw_half_moves = 0
        for _ply in range(rng.randrange(20, 140)):
            legal = board.legal_moves
            if not legal:
                break
            fen = board.fen[6:-2]  # '[FEN "..."]' -> '...'
            ours.send(f"position fen {fen}")
            ours.send("go perft 1")
            mine = ours.until(lambda l: l.startswith("Nodes searched"))
            theirs = {(p[0], p[-1], frozenset(c + 1 for c in m.captured_list))
                      for m in legal for p in [path_of(m)]}
            check(_move_keys(mine) == theirs, f"moves differ at {fen}: {mine} vs {theirs}")
            # Every move of ours converts, and lands in the same position.
            for line in mine:
                text = line.split(":")[0]
                if not re.fullmatch(r"\d+([-x]\d+)+", text):
                    continue
                try:
                    mv = find_move(board, text)
                except ValueError as e:
                    check(False, f"{fen}: our move {text} not found: {e}")
                    continue
                board.push(mv)
                after = board.fen[6:-2]
                board.pop()
                ours.send(f"position fen {fen} moves {text}")
                ours.send("d")
                got = ours.until(lambda l: l.startswith("Result:"))
                got = next(l for l in got if l.startswith("Fen:"))[5:]
                check(_canon(got) == _canon(after), f"{fen} {text}: {got} vs {after}")
            positions += 1
            board.push(rng.choice(legal))
    ours.close()
    print(f"compared {positions} positions with {buffgreen}")

    # 3. The protocol, spoken by a child adapter.
    child = Proc([sys.executable, os.path.abspath(__file__)])
    child.send("uci")
    got = child.until(lambda l: l == "uciok")
    check(got[0].startswith("id name "), f"uci reply {got}")
    for line in ("setoption name BackwardCapture value false", "setoption name LongKings value false",
                 "setoption name DrawHalfMoves value 80", "frobnicate", "isready"):
        child.send(line)
    got = child.until(lambda l: l == "readyok")
    check(got == ["readyok"], f"quiet setoption and ignored command: {got}")
    child.send("ucinewgame")
    child.send("position startpos moves 11-15 23-19 8-11 22-17")
    child.send("go movetime 200")
    t0 = time.monotonic()
    got = child.until(lambda l: l.startswith("bestmove"))
    ms = (time.monotonic() - t0) * 1000
    board = parse_fen(START_FEN)
    for t in "11-15 23-19 8-11 22-17".split():
        board.push(find_move(board, t))
    best = got[-1].split()[1]
    check(best in {move_text(m) for m in board.legal_moves}, f"bestmove {best} legal")
    check(ms < 200 + 50, f"go movetime 200 answered in {ms:.0f} ms")
    # Forced capture: Black to move with a jump 14x23 available must take it.
    got = child.ask("position fen B:W18,19,28:B14,1", "go nodes 2000", until="bestmove")
    check(got[-1] == "bestmove 14x23", f"forced capture: {got[-1]}")
    got = child.ask("position fen W:W21,22:B1,2 moves 99-1", "isready", until="readyok")
    check(len(got) == 2 and got[0].startswith("info string error: move 1 '99-1'"), f"bad move: {got}")
    child.send("position startpos")
    child.send("go infinite")
    time.sleep(0.3)
    got = child.ask("isready", until="readyok", timeout=5)
    check(not any(l.startswith("bestmove") for l in got), f"infinite holds its bestmove: {got}")
    got = child.ask("stop", until="bestmove", timeout=5)
    starts = {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
    check(got[-1].split()[-1] in starts, f"after stop: {got[-1]}")
    got = child.ask("position fen B:W21:B", "go movetime 50", until="bestmove")
    check(got[-1] == "bestmove none", f"no legal move: {got[-1]}")
    got = child.ask("position startpos", "go perft 3", until="Nodes searched")
    check(got[-1] == "Nodes searched: 302" and got[0] == "9-13: 48", f"perft divide: {got}")
    child.close()
    check(child.p.returncode == 0, f"quit exit status {child.p.returncode}")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def _canon(fen: str) -> tuple:
    """A FEN as (turn, white squares, black squares), for comparing two writers' forms."""
    turn, *sections = fen.replace(" ", "").split(":")
    out = {}
    for s in sections:
        out[s[0]] = frozenset(t for t in s[1:].split(",") if t)
    return turn, out.get("W"), out.get("B")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--selftest":
        here = os.path.dirname(os.path.abspath(__file__))
        default = os.path.join(here, "..", "target", "release", "buffgreen")
        sys.exit(selftest(sys.argv[2] if len(sys.argv) > 2 else default))
    sys.exit(serve())
