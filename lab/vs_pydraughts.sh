#!/usr/bin/env bash
# English checkers (both switches off) against py-draughts' SimpleEngine with captures made
# mandatory, at equal time per move, over the 174 three-move openings, each played with both
# colours (348 games). The issue asks for a score of 90% or more.
#
#   lab/vs_pydraughts.sh [MOVETIME_MS] [-- extra `buffgreen match` arguments]
#
# scripts/install-py-draughts.sh installs the opponent (pinned py-draughts in a venv under
# target/); lab/pydraughts_engine.py puts our protocol around it and runs SimpleEngine's
# alpha-beta by iterative deepening against a deadline. Both sides get `go movetime MS`
# (default 100): ours with MoveOverhead 0 thinks the full time, the adapter stops
# MoveOverhead (5) ms early to leave room for Python to answer. 100 ms lets SimpleEngine
# finish depth 6-7 in the opening (its author recommends 5-6 for play) and keeps the
# 348 games near forty minutes with CONCURRENCY=2 on two shared cores.
# The referee's tolerance is widened to 30 s (MARGIN, in ms): this measures strength, not
# time discipline (lab/movetime.py does that), and niced processes on a machine where
# someone else runs at normal priority were seen frozen for 2-4 s at a time, which turned
# half the games of a first run into time forfeits of both sides. Both engines still stop
# by their own clocks at the movetime; a stall only costs the stalled side thinking time.
# Python starts slowly under such load, hence the 60 s wait for uciok/readyok.
# CONCURRENCY (default 1) sets the games played at once. Games go to target/vs_pydraughts.pdn
# (FEN tag on every game, so that py-draughts can read them too), replayed and checked after.
# Extra arguments go to `buffgreen match`: `-- --games 100` plays the first 100 games only
# (the runner cannot resume a run); PDN=FILE writes the games elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
ms=100
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    ms=$1
    shift
fi
[ "${1:-}" = -- ] && shift
py=$(scripts/install-py-draughts.sh | tail -n 1)
cargo build --release -q
bin=target/release/buffgreen
pdn=${PDN:-target/vs_pydraughts.pdn}
"$bin" match --english \
    --engine "cmd=$bin name=buffgreen option.MoveOverhead=0 option.Threads=1 option.Hash=64" \
    --engine "cmd=$py arg=lab/pydraughts_engine.py name=SimpleEngine option.MoveOverhead=5" \
    --movetime "$ms" \
    --openings openings/3move.tsv \
    --concurrency "${CONCURRENCY:-1}" \
    --time-margin "${MARGIN:-30000}" --reply-timeout 60000 --pdn "$pdn" "$@"
"$bin" match --verify-pdn "$pdn"
