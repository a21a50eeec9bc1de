#!/usr/bin/env bash
# The engine against the lab's classic alpha-beta engine (lab/src/bin/alphabeta.rs), the
# sparring partner that sees the forced lines of the passage from middle game to ending that
# self-play cannot (both sides of a self-play match share the weakness). Both colours of every
# opening of the rules' deck, the same fixed time per move for both, one thread each, neither
# with endgame tables; a game that reaches a position the tables TB cover is ended by the
# referee with the table's result (the conversion of a tabled ending is not what is measured).
# Then `deficit` says, for each engine's lost games, how many pieces were on the board when
# the material deficit that lasted to the end began.
#
#   lab/vs_alphabeta.sh [english|bg] [MOVETIME_MS] [-- extra `buffgreen match` arguments]
#
# ENGINE (default target/release/buffgreen) is the build under test; TB (default: none) a
# directory of tables of the rules for adjudication (e.g. built by `buffgreen tb build --pieces 5
# --dir DIR`); CONCURRENCY (default 2); PDN (default target/vs_alphabeta-RULES-MS.pdn);
# ENGINE_TB (default: none) a directory of tables for the engine under test alone (alphabeta
# plays without), e.g. the 6- or 7-piece set to measure what deeper tables are worth.
# DECK=ending plays the rules' ending deck instead (lab/decks/endings-*.tsv, made by
# `ending_deck`: where real games entered the passage to the ending, material level), both
# colours: English 174 of its positions drawn by --seed 1 (348 games), Buff and Green all 145.
set -euo pipefail
cd "$(dirname "$0")/.."
rules=english
ms=100
if [[ "${1:-}" =~ ^(english|bg)$ ]]; then
    rules=$1
    shift
fi
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    ms=$1
    shift
fi
[ "${1:-}" = -- ] && shift
case "$rules${DECK:+-$DECK}" in
    english) flags=(--english --openings openings/3move.tsv) ;;
    bg) flags=(--openings openings/buffgreen-balanced.tsv) ;;
    english-ending) flags=(--english --openings lab/decks/endings-english.tsv --shuffle --seed 1 --games 348) ;;
    bg-ending) flags=(--openings lab/decks/endings-bg.tsv --games 290) ;;
    *) echo "DECK=ending or unset" >&2; exit 2 ;;
esac
cargo build --release -q
cargo build --release -q -p buffgreen-lab --bin alphabeta --bin deficit
engine=${ENGINE:-target/release/buffgreen}
pdn=${PDN:-target/vs_alphabeta-$rules${DECK:+-$DECK}-$ms.pdn}
tb=()
[ -n "${TB:-}" ] && tb=(--tb "$TB")
target/release/buffgreen match "${flags[@]}" \
    --engine "cmd=$engine name=buffgreen${ENGINE_TB:+ option.TablebasePath=$ENGINE_TB}" \
    --engine "cmd=target/release/alphabeta name=alphabeta" \
    --each "option.Threads=1 option.Hash=64 option.TablebasePath=<empty>" \
    --movetime "$ms" --concurrency "${CONCURRENCY:-2}" --reply-timeout 60000 \
    "${tb[@]}" --pdn "$pdn" "$@"
english=()
[ "$rules" = english ] && english=(--english)
for side in buffgreen alphabeta; do
    target/release/deficit "$pdn" "$side" "${english[@]}" | tail -n 6
done
