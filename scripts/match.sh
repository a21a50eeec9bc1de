#!/usr/bin/env bash
# An example match between two builds of the engine: the working tree against a git ref.
#
#   scripts/match.sh [BASE_REF] [-- extra `buffgreen match` arguments]
#
# Builds the working tree and BASE_REF (default: main; exported with git archive into
# target/match-base and built there), then plays the rules' balanced deck (the runner's
# default) twice (colours reversed) at 10 s + 0.1 s per game on two workers, stopping early by SPRT (elo0=0 elo1=10). Games go to
# target/match.pdn, which is then replayed and checked. Extra arguments are passed on and
# replace the defaults they name (e.g. -- --tc 2+0.02 --games 100, --nodes 2000 instead of a
# clock, --concurrency 1, --pdn FILE).
# Both play without endgame tables (TablebasePath <empty>), so that tables a user built in the
# data folder, which the engine finds by default, never favour one side.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-main}
[ $# -gt 0 ] && shift
[ "${1:-}" = -- ] && shift
cargo build --release -q
rm -rf target/match-base
mkdir -p target/match-base
git archive "$base" | tar -x -C target/match-base
(cd target/match-base && cargo build --release -q)
cp target/match-base/target/release/buffgreen target/buffgreen-base
# A default the extra arguments give themselves is left out (the runner refuses a flag given
# twice); the games are checked in the PDN file the match wrote.
limit=(--tc 10+0.1)
concurrency=(--concurrency 2)
sprt=(--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05)
pdn=target/match.pdn
pdn_arg=(--pdn "$pdn")
prev=
for a in "$@"; do
    case "$a" in
        --tc|--movetime|--nodes) limit=() ;;
        --concurrency) concurrency=() ;;
        --sprt) sprt=() ;;
        --pdn) pdn_arg=() ;;
    esac
    [ "$prev" = --pdn ] && pdn=$a
    prev=$a
done
target/release/buffgreen match \
    --engine "cmd=target/release/buffgreen name=new" \
    --engine "cmd=target/buffgreen-base name=$base" \
    --each "option.Threads=1 option.Hash=64 option.TablebasePath=<empty>" \
    "${limit[@]}" "${concurrency[@]}" "${sprt[@]}" "${pdn_arg[@]}" "$@"
target/release/buffgreen match --verify-pdn "$pdn"
