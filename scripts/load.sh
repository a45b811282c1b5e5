#!/usr/bin/env bash
# Load run on this machine over loopback: a release server on a scratch SQLite file, then
# takhte-load with N games (2N players moving about once a second) plus idle connections, for
# each N given (default: 250 500 1000 1500 2000). Prints one line per run; stops by itself.
#
#   scripts/load.sh [N ...]            SECONDS_PER_RUN=30 IDLE=200 scripts/load.sh 1000
#   SPECTATORS=1 scripts/load.sh 10 100 1000    one game watched by N spectators who suggest
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p takhte-server
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
seconds=${SECONDS_PER_RUN:-30}
idle=${IDLE:-200}
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(250 500 1000 1500 2000)
for n in "${runs[@]}"; do
    dir=$(mktemp -d)
    target/release/takhte-server --listen 127.0.0.1:0 --db "$dir/load.sqlite" \
        --max-conns-per-ip 1000000 --max-open-games 1000 --msgs-per-sec 100 \
        >"$dir/out" 2>"$dir/log" &
    pid=$!
    for _ in $(seq 100); do grep -q listening "$dir/out" 2>/dev/null && break; sleep 0.1; done
    addr=$(sed -n 's/^takhte-server: listening on //p' "$dir/out")
    if [ -n "${SPECTATORS:-}" ]; then
        target/release/takhte-load --server "$addr" --spectators "$n" \
            --seconds "$seconds" --pid "$pid" || true
    else
        target/release/takhte-load --server "$addr" --games "$n" --idle "$idle" \
            --seconds "$seconds" --pid "$pid" || true
    fi
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -rf "$dir"
done
