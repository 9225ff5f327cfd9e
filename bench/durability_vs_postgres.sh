#!/usr/bin/env bash
# Runs the single-row commit parts of `hekla bench durability` and the same
# workload on PostgreSQL (pgbench, prepared statements, over a Unix socket)
# in one run, and prints both with the ratio. Each transaction inserts one
# row into a table with a bigint primary key; 1, 4, 16 and 64 clients.
#   durable: PostgreSQL with fsync and synchronous_commit on (its defaults),
#            hekla fully durable; both wait for their log's fdatasync.
#   delayed: PostgreSQL with synchronous_commit off and the WAL writer
#            waking every 10 ms, hekla with DELAYED_DURABILITY = FORCED
#            (flushes every 60 KB or 10 ms).
# Both keep their files in the system temp directory, on the same disk.
# Usage:
#   bench/durability_vs_postgres.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-5}
CLIENTS="1 4 16 64"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
WORK=$(mktemp -d /tmp/hekla-pg.XXXXXX)
chmod 777 "$WORK"
PORT=55433
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
cleanup() { as_pg "$PGBIN/pg_ctl -D $WORK/data -m immediate stop" >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

as_pg "$PGBIN/initdb -D $WORK/data -A trust -U postgres" >/dev/null
# Durability stays at PostgreSQL's defaults (fsync on, fdatasync on Linux);
# the rest only keeps checkpoints out of a short run.
as_pg "$PGBIN/pg_ctl -D $WORK/data -l $WORK/log -w -o \"-p $PORT -k $WORK -c listen_addresses='' \
  -c shared_buffers=2GB -c max_wal_size=8GB -c checkpoint_timeout=1h -c wal_writer_delay=10ms \
  -c max_connections=200\" start" >/dev/null
PSQL="$PGBIN/psql -q -h $WORK -p $PORT -U postgres -d postgres -v ON_ERROR_STOP=1"
PGBENCH="$PGBIN/pgbench -h $WORK -p $PORT -U postgres -n -M prepared -T $SECONDS_EACH"

# The key comes from a sequence: pgbench has no per-client counter, and a
# sequence costs far less than a commit.
as_pg "$PSQL -c 'CREATE TABLE single_row_commits (id bigserial PRIMARY KEY, value int NOT NULL);'"
cat > "$WORK/insert.sql" <<SQL
INSERT INTO single_row_commits (value) VALUES (:client_id);
SQL
chmod 644 "$WORK"/insert.sql

pg_tps() { # clients synchronous_commit
    # pgbench's own threads: a few are enough to drive 64 connections.
    local jobs=$(( $1 < 4 ? $1 : 4 ))
    as_pg "PGOPTIONS='-c synchronous_commit=$2' $PGBENCH -f $WORK/insert.sql -c $1 -j $jobs" \
        | awk '/^tps/ {print int($3)}'
}

declare -A PG
for c in $CLIENTS; do
    PG[durable_insert_${c}c]=$(pg_tps "$c" on)
done
for c in $CLIENTS; do
    PG[delayed_insert_${c}c]=$(pg_tps "$c" off)
done
as_pg "$PGBIN/pg_ctl -D $WORK/data -m fast stop" >/dev/null

cargo build --release -q -p hekla
HEKLA_JSON=$(target/release/hekla bench durability --parts disk,commits,delayed \
    --seconds "$SECONDS_EACH" --committers "${CLIENTS// /,}" --json)

figure() { printf '%s' "$HEKLA_JSON" | python3 -c "import json,sys; r={x['name']:x['value'] for x in json.load(sys.stdin)['results']}; print(int(r['$1']))"; }
echo "disk: $(figure disk_fdatasync_per_s) fdatasync/s, $(figure disk_seq_write_mb_per_s) MB/s sequential"
printf '%-24s %14s %14s %8s\n' workload hekla postgres ratio
for mode in durable delayed; do
    for c in $CLIENTS; do
        name=${mode}_insert_${c}c
        hekla=$(figure "$name")
        pg=${PG[$name]}
        python3 -c "print(f'{\"$name\":<24} {$hekla:>14,} {$pg:>14,} {($hekla / max($pg, 1)):>7.1f}x')"
    done
done
