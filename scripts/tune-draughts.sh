#!/usr/bin/env bash
# Tunes the draughts evaluation in two rounds: self-play games (ai/examples/selfplay_games.rs:
# a few random opening moves, then fixed-node searches with a little noise on both sides) with
# the hand-written numbers; the numbers (ai/src/draughts/params.rs) fitted to the results of the
# games their quiet positions came from (ai/examples/tune_draughts.rs) and written to
# ai/src/draughts/tuned.rs; then games played with those numbers, and the fit again on the
# games of both rounds. Everything is seeded and the searches stop on node counts, so a run gives
# the same file. About 20 minutes on two cores.
# Usage: scripts/tune-draughts.sh
set -euo pipefail
cd "$(dirname "$0")/.."
WORK="${CARGO_TARGET_DIR:-target}/tuning"
BIN="${CARGO_TARGET_DIR:-target}/release/examples"
mkdir -p "$WORK"
fit() {
    "$BIN/tune_draughts" "$WORK/draughts-tuned.rs" "$@"
    rustfmt --edition 2021 "$WORK/draughts-tuned.rs"
    cp "$WORK/draughts-tuned.rs" ai/src/draughts/tuned.rs
}
# Round one: 6,000 games at 8,000 nodes a move with the hand-written numbers.
cargo build --release --quiet -p takhte-ai --example selfplay_games --example tune_draughts
"$BIN/selfplay_games" draughts "$WORK/draughts-games.txt" 6000 8000 2026
fit "$WORK/draughts-games.txt"
# Round two: 4,000 games at 12,000 nodes a move with the numbers of round one (built in).
cargo build --release --quiet -p takhte-ai --example selfplay_games
"$BIN/selfplay_games" draughts "$WORK/draughts-games2.txt" 4000 12000 2027 tuned
fit "$WORK/draughts-games.txt" "$WORK/draughts-games2.txt"
echo "wrote ai/src/draughts/tuned.rs"
