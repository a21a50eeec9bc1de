#!/usr/bin/env bash
# Soak (not a test): thousands of fast self-play games through `buffgreen match` with varied
# options, then the protocol chaos driver (lab/chaos.py) for what the match runner does not
# do (random `stop` timing, `go ponder` + `ponderhit`/`stop`, `isready` during searches,
# `position` jumps that break tree reuse, options changed between games).
#
#   lab/soak.sh [GAMES] [CHAOS_ROUNDS] [-- extra `buffgreen match` arguments]
#
# GAMES (default 10000) are spread over the settings below (both rule sets and the two mixed
# ones, bullet clocks with 1 s + 10 ms, movetime and node limits, Hash 1 to 512 MiB, Threads 1
# and 2, MultiPV, Ponder on and off, random openings from a seed). The clock games take most
# of the wall time (about 1 s a game against 1/15 s for a node-limited one), so they are a
# small share of the count; 10,000 games take about 45 minutes on two cores.
# CHAOS_ROUNDS default 5000.
# Environment: CONCURRENCY (default 2) games at once; OUT (default target/soak) for the PDN
# files and tables; BIN to soak another binary instead of building target/release/buffgreen;
# ONLY (e.g. ONLY=bg-bullet,bg-movetime) to play only the named settings (GAMES is still the
# total the shares are taken of).
#
# Fails (exit status 1) on any game that ended by an illegal move, crash, no reply, time forfeit
# or protocol violation, on any PDN that does not replay legally, and on any chaos failure.
# Prints the games played and the terminations summed over all settings.
set -euo pipefail
cd "$(dirname "$0")/.."
games=10000
rounds=5000
if [ $# -gt 0 ] && [ "$1" != -- ]; then games=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" != -- ]; then rounds=$1; shift; fi
if [ "${1:-}" = -- ]; then shift; fi
concurrency=${CONCURRENCY:-2}
out=${OUT:-target/soak}
if [ -n "${BIN:-}" ]; then
    bin=$BIN
else
    bin=target/release/buffgreen
    cargo build --release -q
fi
mkdir -p "$out"
if ! "$bin" match --help >/dev/null 2>&1; then
    echo "soak: this build has no working 'buffgreen match'" >&2
    exit 2
fi

# name | share of GAMES in percent | match limit and rules | engine A fields | engine B fields
settings=(
    "bg-bullet|3|--tc 1+0.01|option.Hash=1|option.Hash=256 option.Ponder=true"
    "english-bullet|2|--tc 1+0.01 --english|option.Hash=16|option.Hash=512 option.Threads=2"
    "bg-fast-clock|2|--tc 40/2+0|option.Hash=1 option.Threads=2|option.Hash=16 option.MoveOverhead=0"
    "bg-movetime|15|--movetime 5|option.Hash=4 option.MultiPV=3|option.Hash=64 option.Threads=2"
    "bg-nodes|20|--nodes 300|option.Hash=1 option.Threads=2|option.Hash=8 option.Ponder=true"
    "short-kings-nodes|20|--nodes 200 --long-kings false|option.Hash=1|option.Hash=64 option.Seed=7"
    "forward-men-nodes|20|--nodes 200 --backward-capture false --draw-half-moves 30|option.Hash=2|option.Hash=128 option.Threads=2"
    "english-nodes|18|--nodes 500 --english|option.Hash=8 option.Ponder=true|option.Hash=32"
)

bad_kinds='illegal move|crash|no reply|time forfeit|protocol violation'
status=0
declare -A total
played=0
seed=1
for s in "${settings[@]}"; do
    IFS='|' read -r name share limit a b <<<"$s"
    if [ -n "${ONLY:-}" ] && [[ ",$ONLY," != *",$name,"* ]]; then continue; fi
    n=$((games * share / 100))
    n=$((n < 2 ? 2 : n - n % 2))
    echo "== $name: $n games, $limit" >&2
    # shellcheck disable=SC2086  # $limit is a list of arguments
    "$bin" match --engine "cmd=$bin name=A $a" --engine "cmd=$bin name=B $b" \
        $limit --games "$n" --random-plies 6 --seed "$seed" --concurrency "$concurrency" \
        --pdn "$out/$name.pdn" --quiet "$@" >"$out/$name.txt" || {
        echo "soak: $name: match exited with status $?" >&2
        status=1
    }
    seed=$((seed + 1))
    cat "$out/$name.txt"
    line=$(grep '^Terminations:' "$out/$name.txt" || true)
    played=$((played + $(sed -n 's/^Games: \([0-9]*\) of.*/\1/p' "$out/$name.txt" | head -n 1)))
    # "Terminations: normal 812, adjudication 3, time forfeit 1" -> sum per kind.
    while IFS= read -r part; do
        kind=${part% *}
        count=${part##* }
        total[$kind]=$(( ${total[$kind]:-0} + count ))
    done < <(echo "${line#Terminations: }" | tr ',' '\n' | sed 's/^ *//; /^$/d')
    if echo "$line" | grep -Eq "$bad_kinds"; then
        echo "soak: $name: $line" >&2
        status=1
    fi
    "$bin" match --verify-pdn "$out/$name.pdn" || status=1
done

echo "== chaos: $rounds rounds" >&2
python3 lab/chaos.py --engine "$bin" --rounds "$rounds" --seed "$seed" || status=1

summary=$(for kind in "${!total[@]}"; do echo "$kind ${total[$kind]}"; done | sort | paste -sd, - | sed 's/,/, /g')
faults=$(for kind in 'illegal move' crash 'no reply' 'time forfeit' 'protocol violation'; do
    echo "$kind ${total[$kind]:-0}"
done | paste -sd, - | sed 's/,/, /g')
echo "soak: $played games; terminations: $summary"
echo "soak: faults (each must be 0): $faults"
if [ "$status" -eq 0 ]; then echo "soak: PASS"; else echo "soak: FAIL"; fi
exit "$status"
