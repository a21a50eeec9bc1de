#!/usr/bin/env bash
# Threads 2 against Threads 1 at a fixed short time per move, over the 3-move openings with
# both colours (348 games unless `-- --games N` says otherwise), one game at a time: the
# Threads 2 engine needs both cores while it thinks, and the opponent does not ponder.
#
#   lab/threads_match.sh [MOVETIME_MS] [-- extra `buffgreen match` arguments]
#
# MOVETIME_MS defaults to 20. Both engines get MoveOverhead 0, so both think the full time;
# the referee's tolerance is widened to 50 ms so that scheduler noise on a busy machine is not
# scored as a loss on time (lab/movetime.py measures time discipline). Games go to
# target/threads.pdn, which is replayed and checked afterwards. Run it on an otherwise idle
# machine: the result measures what the second core is worth.
set -euo pipefail
cd "$(dirname "$0")/.."
movetime=20
if [ $# -gt 0 ] && [ "$1" != -- ]; then movetime=$1; shift; fi
[ "${1:-}" = -- ] && shift
cargo build --release -q
bin=target/release/buffgreen
"$bin" match \
    --engine "cmd=$bin name=threads2 option.Threads=2" \
    --engine "cmd=$bin name=threads1 option.Threads=1" \
    --each "option.Hash=64 option.MoveOverhead=0 option.Ponder=false" \
    --openings openings/3move.tsv --movetime "$movetime" \
    --concurrency 1 --time-margin 50 --pdn target/threads.pdn "$@"
"$bin" match --verify-pdn target/threads.pdn
