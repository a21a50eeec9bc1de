#!/usr/bin/env bash
# The shard recipe of docs/match.md run on this machine: GNU parallel plays the N shards of a
# match (`--sshlogin :` is the local host, so the command line is the one a cluster uses),
# `--merge` tallies them, and the result is compared with the same match played unsplit.
#
#   scripts/shards.sh [N] [GAMES] [NODES]      (defaults: 3 shards, 60 games, 200 nodes)
#
# Needs GNU parallel (apt-get install parallel). Writes to target/shards/. Exit status 0
# when the merged table and the set of games equal the unsplit run's, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-3}
games=${2:-60}
nodes=${3:-200}
command -v parallel >/dev/null || { echo "GNU parallel is not installed" >&2; exit 2; }
cargo build --release -q
bin=$PWD/target/release/buffgreen
out=$PWD/target/shards
rm -rf "$out"
mkdir -p "$out"
args="--engine 'cmd=$bin name=a option.Seed=1' --engine 'cmd=$bin name=b option.Seed=2' \
--nodes $nodes --games $games --seed 42 --quiet"

start=$(date +%s.%N)
# The recipe: one job per shard; with a cluster, --sshlogin lists the hosts.
parallel --sshlogin : -j "$n" --halt now,fail=1 \
    "nice -n 10 $bin match $args --shard {}/$n --pdn $out/shard-{}.pdn > $out/shard-{}.txt" \
    ::: $(seq "$n")
"$bin" match --merge "$out"/shard-*.pdn > "$out/merged.txt"
mid=$(date +%s.%N)
eval nice -n 10 "$bin" match $args --pdn "$out/whole.pdn" > "$out/whole.txt"
end=$(date +%s.%N)

echo "== merged ($n shards via GNU parallel, $(echo "$mid - $start" | bc) s)"
cat "$out/merged.txt"
echo "== unsplit ($(echo "$end - $mid" | bc) s)"
cat "$out/whole.txt"
# Same games: every game's round, players, moves and result, sorted by round.
games_of() {
    "$bin" match --verify-pdn "$1" >/dev/null
    awk '/^\[Round /{r=$2} /^\[(White|Black|Result) /{h=h" "$0} /^$/{if (h!="") {
        getline m; while (m != "") { h=h" "m; if ((getline m) <= 0) break }; print r h; h="" } }' "$1" |
        sort
}
cat "$out"/shard-*.pdn > "$out/all-shards.pdn"
if diff <(games_of "$out/all-shards.pdn") <(games_of "$out/whole.pdn") >/dev/null &&
    diff <(tail -n +2 "$out/merged.txt") <(tail -n +2 "$out/whole.txt") >/dev/null; then
    echo "same games and same table: yes ($(grep -c '^\[Round ' "$out/whole.pdn") games)"
else
    echo "same games and same table: NO" >&2
    exit 1
fi
