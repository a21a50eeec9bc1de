#!/usr/bin/env bash
# A fake engine for the match runner's tests. It speaks just enough of the protocol and plays
# one fixed legal game (Buff and Green rules, from the start position): at a position with N
# moves it answers the game's move N+1. The first argument picks a misbehaviour:
#   ok          play the fixed game
#   illegal     answer every go with the illegal move 1-5
#   crash       exit when asked to move
#   hang        never answer go (sleeps instead)
#   slow=S      sleep S seconds before each answer
#   noready     answer uci but never isready
#   double      answer every go twice
#   gate=FILE   after the games it may play freely, answer go only once FILE exists
# A second argument, if any, is the number of good moves to play before misbehaving (for
# gate=FILE: the number of games, counted by ucinewgame).
GAME=(9-13 23-18 12-16 22-17 13x22x15 21-17 10-14 17x10x19x12 6-9 25-22 1-6 30-25 6-10
      22-17 2-6 24-19 11-15 26-23 15x24 28x19 10-14 17x10x1 9-14 1-6 5-9 6x13 8-11 19-15
      11x18 13-22 4-8 22x15x4 14-18 23x14 3-8 12x3x10)
mode=${1:-ok}
after=${2:-0}
plies=0
games=0
while IFS= read -r line; do
    set -- $line
    case "$1" in
    uci) echo "id name fake-$mode"; echo "uciok" ;;
    isready) [ "$mode" = noready ] || echo "readyok" ;;
    ucinewgame) games=$((games + 1)) ;;
    position)
        plies=0
        seen=0
        for w in "$@"; do
            [ "$seen" = 1 ] && plies=$((plies + 1))
            [ "$w" = moves ] && seen=1
        done ;;
    go)
        move=${GAME[$plies]:-none}
        case "$mode" in slow=*) sleep "${mode#slow=}" ;; esac
        case "$mode" in gate=*)
            if [ "$games" -gt "$after" ]; then
                while [ ! -e "${mode#gate=}" ]; do sleep 0.05; done
            fi ;;
        esac
        if [ "$plies" -ge $((after * 2)) ]; then
            case "$mode" in
            illegal) move=1-5 ;;
            crash) exit 3 ;;
            hang) exec sleep 30 ;;
            double) echo "bestmove $move" ;;
            esac
        fi
        echo "bestmove $move" ;;
    quit) exit 0 ;;
    esac
done
