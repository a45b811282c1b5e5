#!/usr/bin/env bash
# A PostgreSQL and a Redis for the tests: started on free ports of 127.0.0.1, with their data
# under DIR, and stopped again. .ci/run uses it; the cluster tests use it when TAKHTE_TEST_PG
# and TAKHTE_TEST_REDIS are not set, and for the tests that stop and start them.
#
#   scripts/services.sh start DIR      start both; prints the two export lines
#   scripts/services.sh stop DIR       stop both
#   scripts/services.sh pg-stop DIR | pg-start DIR | redis-stop DIR | redis-start DIR
#
# As root, PostgreSQL runs as the 'postgres' user (it refuses to run as root).
set -euo pipefail
cmd=${1:?usage: services.sh start|stop|pg-stop|pg-start|redis-stop|redis-start DIR}
dir=${2:?a folder for the data}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

pg_bin() {
    if command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return
    fi
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
    if [ -z "$found" ]; then
        echo "services.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2
        exit 1
    fi
    echo "$found"
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

as_pg() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

pg_start() {
    local bin port
    bin=$(pg_bin)
    port=$(cat "$dir/pg.port")
    as_pg "$bin/pg_ctl" -D "$dir/pg" -l "$dir/pglog/pg.log" -w -t 30 \
        -o "-p $port -k $dir/pg -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" \
        start >/dev/null
}

pg_stop() {
    local bin
    bin=$(pg_bin)
    as_pg "$bin/pg_ctl" -D "$dir/pg" -m fast -w stop >/dev/null 2>&1 || true
}

redis_start() {
    local port
    port=$(cat "$dir/redis.port")
    mkdir -p "$dir/redis"
    if ! command -v redis-server >/dev/null 2>&1; then
        echo "services.sh: Redis is not installed (apt-get install redis-server)" >&2
        exit 1
    fi
    redis-server --port "$port" --bind 127.0.0.1 --dir "$dir/redis" --save '' --appendonly no \
        --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
    for _ in $(seq 50); do
        redis-cli -p "$port" ping >/dev/null 2>&1 && return
        sleep 0.1
    done
    echo "services.sh: Redis did not start (see $dir/redis.log)" >&2
    exit 1
}

redis_stop() {
    if [ -f "$dir/redis.pid" ]; then
        local pid
        pid=$(cat "$dir/redis.pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        rm -f "$dir/redis.pid"
    fi
}

case "$cmd" in
    start)
        bin=$(pg_bin)
        free_port >"$dir/pg.port"
        free_port >"$dir/redis.port"
        if [ ! -f "$dir/pg/PG_VERSION" ]; then
            mkdir -p "$dir/pg" "$dir/pglog"
            chmod 700 "$dir/pg"
            if [ "$(id -u)" = 0 ]; then chown -R postgres: "$dir/pg" "$dir/pglog"; fi
            as_pg "$bin/initdb" -D "$dir/pg" -U takhte --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1
        fi
        pg_start
        redis_start
        echo "export TAKHTE_TEST_PG=postgres://takhte@127.0.0.1:$(cat "$dir/pg.port")/postgres"
        echo "export TAKHTE_TEST_REDIS=redis://127.0.0.1:$(cat "$dir/redis.port")"
        ;;
    stop)
        redis_stop
        pg_stop
        ;;
    pg-stop) pg_stop ;;
    pg-start) pg_start ;;
    redis-stop) redis_stop ;;
    redis-start) redis_start ;;
    *)
        echo "services.sh: unknown command '$cmd'" >&2
        exit 2
        ;;
esac
