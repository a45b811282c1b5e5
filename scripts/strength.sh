#!/usr/bin/env bash
# Measures the strength of the computer players (a harness run, not a test; it takes hours with
# the defaults). Installs nothing: it needs `stockfish` (Debian: apt-get install stockfish, which
# puts it in /usr/games) and a Rust toolchain.
#
# 1. Chess: the top level (6) against Stockfish with UCI_LimitStrength at UCI_Elo 1400, 1700
#    and 2000; 1 s a move for both; 20 games each, colours alternating (game 2, 4, ... with
#    Takhte as Black), openings from the match runner's list (one per pair of games).
# 2. Ladders for all four games: each level against the level below (2-1, 3-2, 4-3, 5-4, 6-5),
#    then dice chess 6 against level 1 and the other games' level 6 against the greedy
#    baseline. Level 6 thinks LADDER_MOVETIME ms a move; levels 1-5 stop on their
#    node budgets.
#
# Every score line is "W wins, D draws, L losses" for the first player named; below it, each
# player's thinking time a turn (mean and longest).
# Dice chess games that stop changing (no piece taken for DICE_IDLE_PLIES plies, default 100:
# mostly a lone king on the one rank where no pawn can ever check it) are scored as draws
# instead of running on to the 400-ply limit.
# Knobs (environment): SF_GAMES (20), MOVETIME (1000), LADDER_GAMES (20), LADDER_MOVETIME (1000),
# SEED (1), ELOS ("1400 1700 2000"), SF_START (a file of start positions for the Stockfish
# matches instead of the runner's openings: ai/openings/chess-second-twenty.fen holds the ten
# openings of games 21-40 in docs/strength.md), DICE_IDLE_PLIES (100), SKIP_STOCKFISH=1,
# SKIP_LADDERS=1, SKIP_CHESS_LADDER=1.
set -euo pipefail
cd "$(dirname "$0")/.."

SF_GAMES=${SF_GAMES:-20}
MOVETIME=${MOVETIME:-1000}
LADDER_GAMES=${LADDER_GAMES:-20}
LADDER_MOVETIME=${LADDER_MOVETIME:-1000}
SEED=${SEED:-1}
ELOS=${ELOS:-"1400 1700 2000"}
DICE_IDLE_PLIES=${DICE_IDLE_PLIES:-100}

cargo build --release --quiet
BIN="${CARGO_TARGET_DIR:-target}/release/takhte"

score() { # runs one match; prints its totals line with the elapsed time, then the thinking times
    local start=$SECONDS
    local out
    out=$("$BIN" match "$@")
    echo "$(echo "$out" | tail -n 1) [$((SECONDS - start)) s]"
    echo "$out" | grep '^time ' | sed 's/^/    /'
}

if [ -z "${SKIP_STOCKFISH:-}" ]; then
    SF=$(command -v stockfish || true)
    if [ -z "$SF" ] && [ -x /usr/games/stockfish ]; then
        SF=/usr/games/stockfish
    fi
    if [ -z "$SF" ]; then
        echo "stockfish is not installed (Debian: apt-get install stockfish); skipping the chess part" >&2
    else
        echo "== chess: level 6 against $SF (UCI_LimitStrength), ${MOVETIME} ms a move, $SF_GAMES games each"
        for elo in $ELOS; do
            echo -n "UCI_Elo $elo: "
            score chess --white 6 --black "uci:$SF" --uci-option UCI_LimitStrength=true \
                --uci-option "UCI_Elo=$elo" --games "$SF_GAMES" --seed "$SEED" --movetime "$MOVETIME" \
                ${SF_START:+--start "$SF_START"}
        done
    fi
fi

if [ -z "${SKIP_LADDERS:-}" ]; then
    games="chess dice-chess draughts mine-chess"
    if [ -n "${SKIP_CHESS_LADDER:-}" ]; then
        games="dice-chess draughts mine-chess"
    fi
    for game in $games; do
        echo "== $game ladder: $LADDER_GAMES games a pair, level 6 at ${LADDER_MOVETIME} ms a move"
        case "$game" in
            dice-chess) baseline=1 extra=(--idle-plies "$DICE_IDLE_PLIES") ;;
            *) baseline=greedy extra=() ;;
        esac
        for pair in "2 1" "3 2" "4 3" "5 4" "6 5"; do
            set -- $pair
            score "$game" --white "$1" --black "$2" --games "$LADDER_GAMES" --seed "$SEED" \
                --movetime "$LADDER_MOVETIME" "${extra[@]}"
        done
        score "$game" --white 6 --black "$baseline" --games "$LADDER_GAMES" --seed "$SEED" \
            --movetime "$LADDER_MOVETIME" "${extra[@]}"
    done
fi
