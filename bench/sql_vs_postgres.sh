#!/usr/bin/env bash
# Runs `hekla bench sql` and the same statements on PostgreSQL in one run:
# a point SELECT by key, a single-row UPDATE by key, a 5-row INSERT, one
# client. PostgreSQL gets each statement as text (pgbench -M simple), as
# hekla's session does, over a Unix socket, with durability off (hekla's
# table is SCHEMA_ONLY). Usage: bench/sql_vs_postgres.sh [ROWS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-100000}
SECONDS_EACH=${2:-5}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
WORK=$(mktemp -d /tmp/hekla-pg.XXXXXX)
chmod 777 "$WORK"
PORT=55433
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
cleanup() { as_pg "$PGBIN/pg_ctl -D $WORK/data -m immediate stop" >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

cargo build --release --quiet -p hekla
HEKLA=$(./target/release/hekla bench sql --rows "$ROWS" --seconds "$SECONDS_EACH" --json)

as_pg "$PGBIN/initdb -D $WORK/data -A trust -U postgres" >/dev/null
as_pg "$PGBIN/pg_ctl -D $WORK/data -l $WORK/log -w -o \"-p $PORT -k $WORK -c listen_addresses='' \
  -c fsync=off -c synchronous_commit=off -c full_page_writes=off\" start" >/dev/null
PSQL="$PGBIN/psql -q -h $WORK -p $PORT -U postgres -d postgres -v ON_ERROR_STOP=1"
PGBENCH="$PGBIN/pgbench -h $WORK -p $PORT -U postgres -n -M simple -T $SECONDS_EACH"
as_pg "$PSQL -c \"CREATE UNLOGGED TABLE usertable (ycsb_key int PRIMARY KEY, field0 varchar(100) NOT NULL, field1 varchar(100) NOT NULL, counter int NOT NULL);\""
as_pg "$PSQL -c \"INSERT INTO usertable SELECT g, 'value-a-' || g, 'value-b-' || g, 0 FROM generate_series(0, $ROWS - 1) g;\""
as_pg "$PSQL -c 'VACUUM ANALYZE usertable;'"
cat > "$WORK/select.sql" <<SQL
\set k random(0, $ROWS - 1)
SELECT field0, field1 FROM usertable WHERE ycsb_key = :k;
SQL
cat > "$WORK/update.sql" <<SQL
\set k random(0, $ROWS - 1)
UPDATE usertable SET counter = counter + 1 WHERE ycsb_key = :k;
SQL
cat > "$WORK/insert.sql" <<SQL
\set k random(1000000000, 2000000000)
INSERT INTO usertable VALUES (:k, 'a', 'b', 0), (:k + 1, 'a', 'b', 0), (:k + 2, 'a', 'b', 0), (:k + 3, 'a', 'b', 0), (:k + 4, 'a', 'b', 0) ON CONFLICT DO NOTHING;
SQL
chmod 644 "$WORK"/*.sql
tps() { as_pg "$PGBENCH -f $WORK/$1.sql" | awk '/^tps/ { print $3; exit }'; }
PG_SELECT=$(tps select); PG_UPDATE=$(tps update); PG_INSERT=$(tps insert)

python3 - "$HEKLA" "$PG_SELECT" "$PG_UPDATE" "$PG_INSERT" <<'PY'
import json, sys
hekla = {r["name"]: r["value"] for r in json.loads(sys.argv[1])["results"]}
pg = dict(zip(["point_select_per_s", "update_by_key_per_s", "insert_5_rows_per_s"], map(float, sys.argv[2:5])))
print(f"{'statement':<24} {'hekla':>12} {'PostgreSQL':>12} {'ratio':>7}")
for name, value in pg.items():
    print(f"{name:<24} {hekla[name]:>12,.0f} {value:>12,.0f} {hekla[name] / value:>6.1f}x")
PY
