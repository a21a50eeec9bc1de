#!/usr/bin/env bash
# Checks perft tables with `buffgreen perft`.
#
#   scripts/perft.sh [TABLE...]     (default tests/data/perft.txt tests/data/perft-variants.txt)
#
# Each line of a TABLE: `rules ; fen ; depth ; nodes`, where rules is default (Buff and Green),
# english (both switches off), short-kings (BackwardCapture on, LongKings off) or forward-men
# (BackwardCapture off, LongKings on), and fen is a PDN FEN or `startpos`. Lines starting with #
# are comments. The engine is $BUFFGREEN or target/release/buffgreen.
# Prints one line per entry and `N passed, N failed`; exit status 1 if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
tables=("$@")
[ $# -gt 0 ] || tables=(tests/data/perft.txt tests/data/perft-variants.txt)
engine=${BUFFGREEN:-target/release/buffgreen}
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
pass=0
fail=0
while IFS=';' read -r rules fen depth nodes || [ -n "$rules" ]; do
    rules=$(trim "$rules")
    case "$rules" in ''|'#'*) continue ;; esac
    fen=$(trim "$fen") depth=$(trim "$depth") nodes=$(trim "$nodes")
    case "$rules" in
    default) flags=() ;;
    english) flags=(--backward-capture false --long-kings false) ;;
    short-kings) flags=(--long-kings false) ;;
    forward-men) flags=(--backward-capture false) ;;
    *) echo "bad rules '$rules'" >&2; exit 2 ;;
    esac
    [ "$fen" = startpos ] || flags+=(--fen "$fen")
    start=$(date +%s%N)
    got=$("$engine" perft "$depth" "${flags[@]}" 2>/dev/null | sed -n 's/^Nodes searched: *//p')
    ms=$((($(date +%s%N) - start) / 1000000))
    if [ "$got" = "$nodes" ]; then
        pass=$((pass + 1))
        printf 'ok    %-11s depth %-2s %12s  %6d ms  %s\n' "$rules" "$depth" "$nodes" "$ms" "$fen"
    else
        fail=$((fail + 1))
        printf 'FAIL  %-11s depth %-2s %12s  got %s  %s\n' "$rules" "$depth" "$nodes" "${got:-nothing}" "$fen"
    fi
done < <(cat "${tables[@]}")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
