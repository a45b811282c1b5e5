#!/usr/bin/env bash
# Load run on this machine over loopback: a release server on a scratch SQLite file, then
# takhte-load with N games (2N players moving about once a second) plus idle connections, for
# each N given (default: 250 500 1000 1500 2000). Prints one line per run; stops by itself.
#
#   scripts/load.sh [N ...]            SECONDS_PER_RUN=30 IDLE=200 scripts/load.sh 1000
#   SPECTATORS=1 scripts/load.sh 10 100 1000    one game watched by N spectators who suggest
#   HANDSHAKES=1 scripts/load.sh 5000   only the rate of new connections (100 at a time)
#   TLS=1 scripts/load.sh 1000          the same over wss:// (the server's own TLS, a certificate
#                                       for localhost made here with openssl)
#   SEEKERS=10000 scripts/load.sh 1000 quick pairing while N games are played: 10,000 players
#                                       (rated 1000–2000, in the app's six pools) enter over
#                                       OVER=60 seconds, each resigning the game it gets
#   INSTANCES=2 scripts/load.sh 1000    N games on 2 instances on PostgreSQL and Redis (started
#                                       here by scripts/services.sh), each game's players on
#                                       different instances; INSTANCES=1 is one on PostgreSQL
#   SERVERS="old=target/old/takhte-server new=target/release/takhte-server" scripts/load.sh 1000
#                                       each run against each server binary, one after the
#                                       other in the same run of the script (before and after)
#
# Every line names the generator's own CPU share and every error it counted (refused and why,
# closed by the server and why, …), and says how many of the moves the bots meant to send went.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p takhte-server
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
seconds=${SECONDS_PER_RUN:-30}
idle=${IDLE:-200}
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(250 500 1000 1500 2000)
servers=${SERVERS:-"this=target/release/takhte-server"}
for n in "${runs[@]}"; do
for named in $servers; do
    label=${named%%=*}
    bin=${named#*=}
    [ "$servers" = "this=target/release/takhte-server" ] || printf '%s: ' "$label"
    dir=$(mktemp -d)
    chmod 755 "$dir"
    pids=()
    addrs=()
    if [ -n "${INSTANCES:-}" ]; then
        eval "$(scripts/services.sh start "$dir/services")"
        db=$(python3 -c "import sys; print(sys.argv[1].rsplit('/',1)[0] + '/postgres')" "$TAKHTE_TEST_PG")
        for i in $(seq "$INSTANCES"); do
            "$bin" --listen 127.0.0.1:0 --db "$db" --redis "$TAKHTE_TEST_REDIS" \
                --max-conns-per-ip 1000000 --max-open-games 1000 --msgs-per-sec 100 \
                --max-spectators 1000000 \
                >"$dir/out$i" 2>"$dir/log$i" &
            pids+=($!)
        done
    else
        tls=()
        if [ -n "${TLS:-}" ]; then
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
                -subj /CN=localhost -addext subjectAltName=DNS:localhost \
                -addext basicConstraints=critical,CA:FALSE \
                -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
            tls=(--tls-cert "$dir/cert.pem" --tls-key "$dir/key.pem")
        fi
        "$bin" --listen 127.0.0.1:0 --db "$dir/load.sqlite" \
            --max-conns-per-ip 1000000 --max-open-games 1000 --msgs-per-sec 100 \
            --max-spectators 1000000 "${tls[@]}" \
            >"$dir/out1" 2>"$dir/log1" &
        pids+=($!)
    fi
    for i in $(seq ${#pids[@]}); do
        for _ in $(seq 100); do grep -q listening "$dir/out$i" 2>/dev/null && break; sleep 0.1; done
        addrs+=(--server "$(sed -n 's/^takhte-server: listening on //p' "$dir/out$i")")
    done
    pidargs=()
    for p in "${pids[@]}"; do pidargs+=(--pid "$p"); done
    if [ -n "${TLS:-}" ]; then pidargs+=(--tls-root "$dir/cert.pem"); fi
    if [ -n "${HANDSHAKES:-}" ]; then
        target/release/takhte-load "${addrs[@]}" --handshakes "$n" "${pidargs[@]}" || true
    elif [ -n "${SPECTATORS:-}" ]; then
        target/release/takhte-load "${addrs[@]}" --spectators "$n" \
            --seconds "$seconds" "${pidargs[@]}" || true
    elif [ -n "${SEEKERS:-}" ]; then
        over=${OVER:-60}
        ratings=()
        if [ -z "${INSTANCES:-}" ]; then ratings=(--ratings-db "$dir/load.sqlite"); fi
        target/release/takhte-load "${addrs[@]}" --games "$n" --idle "$idle" \
            --seekers "$SEEKERS" --over "$over" "${ratings[@]}" \
            --seconds "$((over + 15))" "${pidargs[@]}" || true
    else
        target/release/takhte-load "${addrs[@]}" --games "$n" --idle "$idle" \
            --seconds "$seconds" "${pidargs[@]}" || true
    fi
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    if [ -n "${INSTANCES:-}" ]; then scripts/services.sh stop "$dir/services"; fi
    rm -rf "$dir"
done
done
