#!/usr/bin/env bash
# Writes match PDNs with `buffgreen match` (Buff and Green and English rules, two games at
# once, so that games finish out of round order) and has both Python draughts libraries read
# back every game move by move: pydraughts 0.6.7 and py-draughts 1.10.1, pinned, each in its
# own venv under target/ (scripts/install-pydraughts-hub.sh, scripts/install-py-draughts.sh).
# scripts/pdn_interop.py compares what each library reads with the match's --json records.
# tests/tourney/pdn_interop.rs runs this in CI.
#
#   scripts/pdn_interop.sh [BUFFGREEN] [OUTDIR]     # prints OK on the last line
#
# Defaults: target/release/buffgreen, target/pdn-interop. Needs python3 and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/buffgreen}
out=${2:-target/pdn-interop}
pydraughts=$(scripts/install-pydraughts-hub.sh | tail -n 1)
py_draughts=$(scripts/install-py-draughts.sh | tail -n 1)
rm -rf "$out"
mkdir -p "$out"
# A Buff and Green deck line that starts from a FEN with White to move (plain FEN tag).
printf 'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15\n' >"$out/fen-deck.txt"
run() { # name, match flags...
    local name=$1
    shift
    "$bin" match --engine "cmd='$bin'" --engine "cmd='$bin'" --nodes 30 --concurrency 2 \
        --seed 7 --pdn "$out/$name.pdn" --json "$out/$name.jsonl" --quiet "$@" >/dev/null
    "$bin" match --verify-pdn "$out/$name.pdn"
    "$pydraughts" scripts/pdn_interop.py "$out/$name.pdn" "$out/$name.jsonl"
    "$py_draughts" scripts/pdn_interop.py "$out/$name.pdn" "$out/$name.jsonl"
}
run buffgreen --games 12
run english --games 12 --english
run fen-start --games 2 --openings "$out/fen-deck.txt"
echo OK
