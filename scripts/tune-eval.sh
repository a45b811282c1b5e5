#!/usr/bin/env bash
# Tunes the chess evaluation: fits its numbers (ai/src/chess/params.rs) to Stockfish's scores
# of the quiet positions in ai/tuning/positions.txt.gz (made by scripts/make-tuning-data.py)
# and writes them to ai/src/chess/tuned.rs, then fits corrections to the piece-square tables on
# top of them (ai/examples/tune_squares.rs) and writes them to ai/src/chess/squares.rs. Starts
# from the hand-written numbers, so a run on the same positions gives the same files. Takes
# about a minute on two cores. Last, the neural correction (ai/examples/tune_net.rs, about 20 s) on
# top of both, fitted to those positions and the more of ai/tuning/net-positions.txt.gz (with
# their wing-flipped twins), written to ai/src/chess/net_weights.rs.
# Usage: scripts/tune-eval.sh [POSITIONS.txt.gz [NET-POSITIONS.txt.gz]]
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-ai/tuning/positions.txt.gz}
NET_DATA=${2:-ai/tuning/net-positions.txt.gz}
WORK="${CARGO_TARGET_DIR:-target}/tuning"
mkdir -p "$WORK"
gzip -dc "$DATA" >"$WORK/positions.txt"
cargo run --release --quiet -p takhte-ai --example tune_eval -- \
    "$WORK/positions.txt" "$WORK/tuned.rs"
rustfmt --edition 2021 "$WORK/tuned.rs"
cp "$WORK/tuned.rs" ai/src/chess/tuned.rs
echo "wrote ai/src/chess/tuned.rs"
# Then the piece-square corrections on top of the numbers just written (the example is built
# again with them): a few seconds.
cargo run --release --quiet -p takhte-ai --example tune_squares -- \
    "$WORK/positions.txt" "$WORK/squares.rs"
rustfmt --edition 2021 "$WORK/squares.rs"
cp "$WORK/squares.rs" ai/src/chess/squares.rs
echo "wrote ai/src/chess/squares.rs"
# Then the neural correction on top of the numbers and corrections just written.
gzip -dc "$NET_DATA" >"$WORK/net-positions.txt"
FLIP=1 cargo run --release --quiet -p takhte-ai --example tune_net -- \
    "$WORK/positions.txt,$WORK/net-positions.txt" "$WORK/net_weights.rs" 40 1e-7
rustfmt --edition 2021 "$WORK/net_weights.rs"
cp "$WORK/net_weights.rs" ai/src/chess/net_weights.rs
echo "wrote ai/src/chess/net_weights.rs"
