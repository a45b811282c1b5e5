#!/usr/bin/env bash
# Tunes the minesweeper chess evaluation: self-play games (ai/examples/selfplay_games.rs, each
# on its own seeded mine layout: a few random opening moves, then fixed-node searches with a
# little noise on both sides, positions written as a player sees them), and the chess
# evaluation's numbers (ai/src/chess/params.rs) fitted to the results of the games their quiet
# positions came from (ai/examples/tune_eval.rs --mine), written to ai/src/mine/tuned.rs.
# Seeded, and the searches stop on node counts, so a run gives the same file.
# Usage: scripts/tune-mine.sh [GAMES [NODES [SEED]]]
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-1600}
NODES=${2:-6000}
SEED=${3:-2026}
WORK="${CARGO_TARGET_DIR:-target}/tuning"
BIN="${CARGO_TARGET_DIR:-target}/release/examples"
mkdir -p "$WORK"
cargo build --release --quiet -p takhte-ai --example selfplay_games --example tune_eval
"$BIN/selfplay_games" mine-chess "$WORK/mine-games.txt" "$GAMES" "$NODES" "$SEED"
"$BIN/tune_eval" --mine "$WORK/mine-games.txt" "$WORK/mine-tuned.rs"
rustfmt --edition 2021 "$WORK/mine-tuned.rs"
cp "$WORK/mine-tuned.rs" ai/src/mine/tuned.rs
echo "wrote ai/src/mine/tuned.rs"
