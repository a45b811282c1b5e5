#!/usr/bin/env bash
# The chess levels' approximate ratings (the table of docs/strength.md and of
# takhte_ai::level::approximate_rating): matches against Stockfish at fixed UCI_Elo values
# (Stockfish's own calibrated scale; 1350 is its lowest) and between neighbouring levels, then
# one maximum-likelihood fit of every level's rating with the Stockfish players as anchors
# (scripts/elo.py fit). Every match's score is printed with its 95% interval.
#
# Levels 1-5 stop on their node budgets, so their moves do not depend on the machine; Stockfish
# thinks SF_MOVETIME ms a move against them. Level 6 thinks TOP_MOVETIME ms a move, as does
# Stockfish against it. Stockfish's limited strength depends on its time: at 200 ms a move its
# UCI_Elo 1700 lost 19 of 20 games to level 5 (and 1350 all 20), at 1 s it is much stronger,
# so every anchor match gives it the same second. JOBS matches run at once (one core each).
# Knobs: GAMES (20), TOP_GAMES (20), SF_MOVETIME (1000), TOP_MOVETIME (1000), SEED (1), JOBS (2),
# TOP_ELOS ("2000 2400"), SKIP_TOP=1 (levels 1-5 only), OUT (target/ratings), RESUME=1 (keep
# the finished matches already in OUT: after changing levels 1-4, delete theirs and run again).
# Needs stockfish (Debian: apt-get install stockfish, in /usr/games).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-20}
TOP_GAMES=${TOP_GAMES:-20}
SF_MOVETIME=${SF_MOVETIME:-1000}
TOP_MOVETIME=${TOP_MOVETIME:-1000}
SEED=${SEED:-1}
RESUME=${RESUME:-}
JOBS=${JOBS:-2}
TOP_ELOS=${TOP_ELOS:-"2000 2400"}
OUT=${OUT:-target/ratings}
SF=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$SF" ] || { echo "stockfish is not installed (apt-get install stockfish)" >&2; exit 1; }

cargo build --release --quiet
BIN="${CARGO_TARGET_DIR:-target}/release/takhte"
mkdir -p "$OUT"

# One match a line: NAME_A NAME_B then the match's arguments.
{
    for pair in "5 1700" "4 1350" "3 1350"; do
        set -- $pair
        echo "L$1 sf$2 --white $1 --black uci:$SF --uci-option UCI_LimitStrength=true --uci-option UCI_Elo=$2 --games $GAMES --movetime $SF_MOVETIME"
    done
    for pair in "4 5" "3 4" "2 3" "1 2"; do
        set -- $pair
        echo "L$1 L$2 --white $1 --black $2 --games $GAMES --movetime $SF_MOVETIME"
    done
    if [ -z "${SKIP_TOP:-}" ]; then
        for elo in $TOP_ELOS; do
            echo "L6 sf$elo --white 6 --black uci:$SF --uci-option UCI_LimitStrength=true --uci-option UCI_Elo=$elo --games $TOP_GAMES --movetime $TOP_MOVETIME"
        done
        echo "L5 L6 --white 5 --black 6 --games $GAMES --movetime $TOP_MOVETIME"
    fi
} >"$OUT/matches.txt"

run_one() { # NAME_A NAME_B ARGS...: plays the match into $OUT/A-B.txt (kept if finished)
    local a=$1 b=$2
    shift 2
    if [ -n "${RESUME:-}" ] && grep -q ' losses (score' "$OUT/$a-$b.txt" 2>/dev/null; then
        return 0
    fi
    "$BIN" match chess "$@" --seed "$SEED" >"$OUT/$a-$b.txt" 2>&1
}
export -f run_one
export BIN OUT SEED RESUME
# Longest first, so that the short ones fill the other core meanwhile.
tac "$OUT/matches.txt" | xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _

{
    for elo in 1350 1700 $TOP_ELOS; do echo "anchor sf$elo $elo"; done
    while read -r a b _; do
        f="$OUT/$a-$b.txt"
        line=$(grep -E '[0-9]+ wins, [0-9]+ draws, [0-9]+ losses' "$f" | tail -n 1)
        w=$(echo "$line" | sed -E 's/.* ([0-9]+) wins.*/\1/')
        d=$(echo "$line" | sed -E 's/.* ([0-9]+) draws.*/\1/')
        l=$(echo "$line" | sed -E 's/.* ([0-9]+) losses.*/\1/')
        echo "match $a $b $w $d $l"
    done <"$OUT/matches.txt"
} >"$OUT/fit.txt"

echo "== matches (score for the first player, 95% interval; thinking time a turn)"
while read -r _ a b w d l; do
    echo "$a vs $b: $(scripts/elo.py score "$w" "$d" "$l")"
    grep '^time ' "$OUT/$a-$b.txt" | sed 's/^/    /'
done < <(grep '^match' "$OUT/fit.txt")
echo "== ratings (maximum likelihood, Stockfish anchors fixed; 95% interval)"
scripts/elo.py fit "$OUT/fit.txt"
