#!/usr/bin/env bash
# Tunes the chess evaluation: fits its numbers (ai/src/chess/params.rs) to Stockfish's scores
# of the quiet positions in ai/tuning/positions.txt.gz (made by scripts/make-tuning-data.py)
# and writes them to ai/src/chess/tuned.rs. Starts from the hand-written numbers, so a run on
# the same positions gives the same file. Takes about a minute on two cores.
# Usage: scripts/tune-eval.sh [POSITIONS.txt.gz]
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-ai/tuning/positions.txt.gz}
WORK="${CARGO_TARGET_DIR:-target}/tuning"
mkdir -p "$WORK"
gzip -dc "$DATA" >"$WORK/positions.txt"
cargo run --release --quiet -p takhte-ai --example tune_eval -- \
    "$WORK/positions.txt" "$WORK/tuned.rs"
rustfmt --edition 2021 "$WORK/tuned.rs"
cp "$WORK/tuned.rs" ai/src/chess/tuned.rs
echo "wrote ai/src/chess/tuned.rs"
