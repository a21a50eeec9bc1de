#!/bin/sh
# Playing figures of the endgame tables (issue 20): the engine with tables against itself
# without, from tabled positions at clock 0 chosen reproducibly from the tables (100 of 4
# pieces and 100 of 5, a round robin over the materials; lab/src/bin/tb_positions.rs).
# Each position is played twice, colours reversed. Won set: in the games where the tables
# side has the winning side it must win every one. Drawn set: the tables side never loses.
#
#   lab/tb_play.sh [--english] [NODES]     (default 2000 iterations a move)
#
# Builds the 5-piece tables into target/tb/bg5 (or target/tb/en5) first if they are missing
# (a few minutes of CPU). Writes target/tb/play-<rules>-<set>.pdn and prints one summary
# line per set.
set -eu
cd "$(dirname "$0")/.."
RULES=""
NAME=bg5
if [ "${1:-}" = "--english" ]; then RULES="--english"; NAME=en5; shift; fi
NODES=${1:-2000}
DIR=target/tb/$NAME
cargo build --release --quiet --bin buffgreen && cargo build --release --quiet -p buffgreen-lab --bin tb_positions
BIN=$PWD/target/release/buffgreen
$BIN tb build --pieces 5 --dir "$DIR" $RULES >/dev/null 2>&1 || {
  echo "tb_play.sh: building the tables in $DIR failed" >&2; exit 1; }
for SET in win draw; do
  OPEN=target/tb/play-$NAME-$SET.txt
  { target/release/tb_positions "$DIR" $SET 100 4 $RULES --seed 4
    target/release/tb_positions "$DIR" $SET 100 5 $RULES --seed 5; } > "$OPEN"
  PDN=target/tb/play-$NAME-$SET.pdn
  rm -f "$PDN"
  $BIN match $RULES --engine "cmd=$BIN name=tables option.TablebasePath=$PWD/$DIR" \
    --engine "cmd=$BIN name=plain" --openings "$OPEN" --nodes "$NODES" \
    --concurrency 1 --quiet --pdn "$PDN" >/dev/null
  python3 - "$PDN" "$SET" <<'PY'
import re, sys
pdn, kind = sys.argv[1], sys.argv[2]
games = [g for g in open(pdn).read().split("[Event ")[1:]]
tally = {"tables": [0, 0, 0], "plain": [0, 0, 0]}  # wins draws losses of the side to move
for g in games:
    tag = dict(re.findall(r'\[(\w+) "([^"]*)"\]', "[Event " + g))
    mover = "White" if tag["FEN"].startswith("W") else "Black"
    engine = tag[mover]
    r = tag["Result"]
    won = (r == "2-0") == (mover == "White") and r != "1-1"
    tally[engine][0 if won else 1 if r == "1-1" else 2] += 1
t, p = tally["tables"], tally["plain"]
print(f"{pdn}: {len(games)} games from {kind} positions; the side to move (+ won = drawn - lost)"
      f" played by tables: +{t[0]} ={t[1]} -{t[2]}, by plain: +{p[0]} ={p[1]} -{p[2]};"
      f" tables overall +{t[0] + p[2]} ={t[1] + p[1]} -{t[2] + p[0]}")
PY
done
