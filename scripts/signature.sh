#!/usr/bin/env bash
# Compares the bench signature with the one recorded in git.
#
#   scripts/signature.sh
#
# The convention: every commit that changes the search or the evaluation
# (engine/src/search, engine/src/eval, or anything else the search's behaviour depends on) carries a
# line `Bench: <n>` in its message, n being the `Nodes searched` of `buffgreen bench` at that
# commit; a commit that does not mean to change the search keeps the same n.
#
# Runs `buffgreen bench` ($BUFFGREEN or target/release/buffgreen) and compares its
# `Nodes searched` with the `Bench: <n>` line in the message of the last commit that changed
# engine/src/search or engine/src/eval. Exit status 0 when they match, 1 when they differ, 2 when there is no signature
# (that commit broke the convention).
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${BUFFGREEN:-target/release/buffgreen}
watched=(engine/src/search engine/src/eval)
commit=$(git log -1 --format=%h -- "${watched[@]}")
[ -n "$commit" ] || { echo "no commit changed ${watched[*]}" >&2; exit 2; }
want=$(git log -1 --format=%B "$commit" | sed -n 's/^Bench: *\([0-9][0-9]*\).*/\1/p' | tail -n 1)
got=$("$engine" bench 2>/dev/null | sed -n 's/^Nodes searched: *\([0-9][0-9]*\).*/\1/p')
[ -n "$got" ] || { echo "bench printed no 'Nodes searched' line" >&2; exit 2; }
if [ -z "$want" ]; then
    echo "bench: $got; commit $commit (last to change ${watched[*]}) has no 'Bench: <n>' line"
    exit 2
fi
if [ "$got" = "$want" ]; then
    echo "signature ok: Bench: $got (commit $commit)"
else
    echo "signature CHANGED: bench gives $got, commit $commit says Bench: $want"
    exit 1
fi
