#!/usr/bin/env bash
# Runs test positions through an engine program and counts the solved ones. For buffgreen
# itself use `buffgreen suite`, which checks every line first (docs/match.md); this script
# stays for other engines (--engine) and compares bm as text.
#
#   scripts/suite.sh [--nodes N | --movetime MS] [--engine PROGRAM] [--option NAME=VALUE]... FILE...
#
# Each line of FILE: `FEN ; bm <move> [<move>...] ; id <name>` plus optional fields
# `rules default|english` (sent as BackwardCapture/LongKings) and anything else (ignored).
# Lines starting with # are comments. A position is solved when the engine's bestmove is one of
# the bm moves. Default: --nodes 20000, engine target/release/buffgreen.
# Prints one line per position and `Solved: k/n`; exit status 0 when all are solved, 1 if not,
# 2 on a usage error or an engine that stops answering.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${BUFFGREEN:-target/release/buffgreen}
go="go nodes 20000"
limit="nodes 20000"
options=()
files=()
while [ $# -gt 0 ]; do
    case "$1" in
    --nodes) go="go nodes $2"; limit="nodes $2"; shift 2 ;;
    --movetime) go="go movetime $2"; limit="movetime $2 ms"; shift 2 ;;
    --engine) engine=$2; shift 2 ;;
    --option) options+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) files+=("$1"); shift ;;
    esac
done
[ ${#files[@]} -gt 0 ] || { echo "usage: $0 [--nodes N | --movetime MS] [--engine PROGRAM] FILE..." >&2; exit 2; }

coproc ENGINE { "$engine" 2>/dev/null; }
send() { printf '%s\n' "$1" >&"${ENGINE[1]}"; }
# Reads engine lines until one starts with $1; prints that line. Gives up after 120 s.
expect() {
    local line
    while IFS= read -r -t 120 line <&"${ENGINE[0]}"; do
        case "$line" in "$1"*) printf '%s\n' "$line"; return 0 ;; esac
    done
    echo "error: the engine did not answer $1" >&2
    exit 2
}
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }

send uci
expect uciok >/dev/null
for o in "${options[@]}"; do send "setoption name ${o%%=*} value ${o#*=}"; done

solved=0
total=0
for file in "${files[@]}"; do
    while IFS= read -r raw || [ -n "$raw" ]; do
        case "$(trim "$raw")" in ''|'#'*) continue ;; esac
        IFS=';' read -r -a fields <<<"$raw"
        fen=$(trim "${fields[0]}")
        bm="" id="line $((total + 1))" rules=default
        for f in "${fields[@]:1}"; do
            f=$(trim "$f")
            case "$f" in
            "bm "*) bm=${f#bm } ;;
            "id "*) id=${f#id } ;;
            "rules "*) rules=${f#rules } ;;
            esac
        done
        case "$rules" in
        english) bc=false lk=false ;;
        *) bc=true lk=true ;;
        esac
        send "setoption name BackwardCapture value $bc"
        send "setoption name LongKings value $lk"
        send ucinewgame
        send "position fen $fen"
        send isready
        expect readyok >/dev/null
        send "$go"
        best=$(expect bestmove)
        best=${best#bestmove }
        best=${best%% *}
        total=$((total + 1))
        verdict=FAIL
        for m in $bm; do
            [ "$m" = "$best" ] && verdict=ok
        done
        [ $verdict = ok ] && solved=$((solved + 1))
        printf '%-4s %-14s %-8s played %-10s bm %s\n' "$verdict" "$id" "$rules" "$best" "$bm"
    done <"$file"
done
send quit
echo "Solved: $solved/$total ($limit)"
[ "$solved" -eq "$total" ]
