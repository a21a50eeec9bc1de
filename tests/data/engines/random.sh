#!/usr/bin/env bash
# A fake engine that plays uniformly random legal moves: it asks the real engine
# ($BUFFGREEN, or the path in the first argument) for `go perft 1` on the current position and
# picks one of the listed moves with a seed from the second argument. Rules options are passed
# through. The "random setting" opponent for strength tests (tests/tourney/selfplay.rs checks it
# plays only legal moves).
engine=${1:-$BUFFGREEN}
RANDOM=${2:-1}
position="position startpos"
options=()
while IFS= read -r line; do
    set -- $line
    case "$1" in
    uci) echo "id name random"; echo "uciok" ;;
    isready) echo "readyok" ;;
    setoption) options+=("$line") ;;
    position) position=$line ;;
    go)
        mapfile -t moves < <(printf '%s\n' "${options[@]}" "$position" "go perft 1" |
            "$engine" 2>/dev/null | sed -n 's/^\([0-9x-]*\): [0-9]*$/\1/p')
        if [ ${#moves[@]} -eq 0 ]; then
            echo "bestmove none"
        else
            echo "bestmove ${moves[RANDOM % ${#moves[@]}]}"
        fi ;;
    quit) exit 0 ;;
    esac
done
