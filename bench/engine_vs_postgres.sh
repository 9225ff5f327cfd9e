#!/usr/bin/env bash
# Runs `hekla bench engine` and the same YCSB-shaped workloads on PostgreSQL
# (pgbench, prepared statements, over a Unix socket) in one run, and prints
# both with the ratio. PostgreSQL runs with durability off (fsync,
# synchronous_commit and full_page_writes off) to match the engine's
# durability-off figures. Usage:
#   bench/engine_vs_postgres.sh [ROWS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-1000000}
SECONDS_EACH=${2:-10}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
WORK=$(mktemp -d /tmp/hekla-pg.XXXXXX)
chmod 777 "$WORK"
PORT=55432
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
cleanup() { as_pg "$PGBIN/pg_ctl -D $WORK/data -m immediate stop" >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

as_pg "$PGBIN/initdb -D $WORK/data -A trust -U postgres" >/dev/null
as_pg "$PGBIN/pg_ctl -D $WORK/data -l $WORK/log -w -o \"-p $PORT -k $WORK -c listen_addresses='' \
  -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=4GB \
  -c max_wal_size=8GB -c checkpoint_timeout=1h\" start" >/dev/null
PSQL="$PGBIN/psql -q -h $WORK -p $PORT -U postgres -d postgres -v ON_ERROR_STOP=1"
PGBENCH="$PGBIN/pgbench -h $WORK -p $PORT -U postgres -n -M prepared -T $SECONDS_EACH"

fields=""; for i in $(seq 0 9); do fields="$fields, field$i varchar(100)"; done
values=""; for i in $(seq 0 9); do values="$values, repeat(md5((g * 10 + $i)::text), 4)::varchar(100)"; done
as_pg "$PSQL -c \"CREATE TABLE usertable (ycsb_key varchar(255) PRIMARY KEY $fields);\""
as_pg "$PSQL -c \"INSERT INTO usertable SELECT 'user' || g $values FROM generate_series(0, $ROWS - 1) g;\""
as_pg "$PSQL -c 'VACUUM ANALYZE usertable;'"

cat > "$WORK/read.sql" <<SQL
\set id random(0, $ROWS - 1)
SELECT * FROM usertable WHERE ycsb_key = 'user' || :id;
SQL
cat > "$WORK/update.sql" <<SQL
\set id random(0, $ROWS - 1)
UPDATE usertable SET field3 = md5(:id::text) WHERE ycsb_key = 'user' || :id;
SQL
cat > "$WORK/insert.sql" <<SQL
\set id random(0, 2000000000)
INSERT INTO usertable VALUES ('new' || :id || '-' || :client_id || '-' || random(), 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j');
SQL
cat > "$WORK/scan.sql" <<SQL
\set id random(0, $ROWS - 1)
SELECT * FROM usertable WHERE ycsb_key >= 'user' || :id ORDER BY ycsb_key LIMIT 100;
SQL
chmod 644 "$WORK"/*.sql

pg_tps() { # script clients
    as_pg "$PGBENCH -f $WORK/$1.sql -c $2 -j $2" | awk '/^tps/ {print int($3)}'
}

# Warm the buffer cache and the plans first, as the engine's own run is warm.
pg_tps read 2 >/dev/null

declare -A PG
for t in 1 2; do
    PG[point_read_uniform_${t}t]=$(pg_tps read $t)
    PG[update_uniform_${t}t]=$(pg_tps update $t)
    PG[insert_${t}t]=$(pg_tps insert $t)
    PG[scan_100_${t}t]=$(pg_tps scan $t)
done
as_pg "$PGBIN/pg_ctl -D $WORK/data -m fast stop" >/dev/null

cargo build --release -q -p hekla
HEKLA_JSON=$(target/release/hekla bench engine --rows "$ROWS" --seconds "$SECONDS_EACH" \
    --parts reads,updates,inserts,scans --json)

printf '%-24s %14s %14s %8s\n' workload hekla postgres ratio
for name in point_read_uniform_1t point_read_uniform_2t update_uniform_1t update_uniform_2t insert_1t insert_2t scan_100_1t scan_100_2t; do
    hekla=$(printf '%s' "$HEKLA_JSON" | python3 -c "import json,sys; r={x['name']:x['value'] for x in json.load(sys.stdin)['results']}; print(int(r['$name']))")
    pg=${PG[$name]}
    python3 -c "print(f'{\"$name\":<24} {$hekla:>14,} {$pg:>14,} {($hekla / max($pg, 1)):>7.1f}x')"
done
