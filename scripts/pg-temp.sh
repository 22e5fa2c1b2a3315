#!/usr/bin/env bash
# Starts a throwaway PostgreSQL 15 in a temporary directory on a spare port, as the `postgres`
# user (PostgreSQL refuses to run as root). Prints `export TEST_DATABASE_URL=…` and
# `export PG_TEMP_DIR=…` for eval; `pg-temp.sh stop DIR` stops it and removes the directory.
# `pg-temp.sh start DIR` uses DIR instead (kept, and reused when it already holds a cluster) and
# `pg-temp.sh stop DIR keep` stops it without removing anything: the benchmark's data set lives there.
set -euo pipefail

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_bin() {
  local found
  found=$(command -v "$1" 2>/dev/null || true)
  [ -n "$found" ] || found=$(ls /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1)
  [ -n "$found" ] || { echo "pg-temp: $1 not found (install PostgreSQL 15)" >&2; exit 1; }
  echo "$found"
}

case "${1:-start}" in
  start)
    port="${PG_TEMP_PORT:-}"
    if [ -z "$port" ]; then
      port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
    fi
    dir="${2:-}"
    if [ -z "$dir" ]; then dir=$(mktemp -d /tmp/lot-pg.XXXXXX); else mkdir -p "$dir"; fi
    chmod 755 "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      rm -rf "$dir/data"
      as_postgres "$(pg_bin initdb)" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    # A kept cluster left running by a run that crashed: restart it on the new port.
    as_postgres "$(pg_bin pg_ctl)" -D "$dir/data" status >/dev/null 2>&1 \
      && as_postgres "$(pg_bin pg_ctl)" -D "$dir/data" -m fast -w stop >/dev/null
    # Throwaway test data: durability settings off for speed; enough connections for parallel tests.
    as_postgres "$(pg_bin pg_ctl)" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "export PG_TEMP_DIR=$dir"
    echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir="${2:?usage: pg-temp.sh stop DIR}"
    as_postgres "$(pg_bin pg_ctl)" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    if [ "${3:-}" != keep ]; then rm -rf "$dir"; fi
    ;;
  *)
    echo "usage: pg-temp.sh start [DIR] | stop DIR [keep]" >&2
    exit 2
    ;;
esac
