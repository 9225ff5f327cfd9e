#!/usr/bin/env bash
# The checkpoint scenario on hekla and on PostgreSQL in one run: single-row
# inserts of a random uuid key (one statement and commit each), doublings by
# INSERT ... SELECT from the table itself, five deletes of ID ranges, then a
# manual CHECKPOINT. hekla runs it as `hekla bench checkpoint --json` (a
# memory-optimized table, its hash index sized for the final rows);
# PostgreSQL as a plain table with a B-tree primary key on the uuid.
# Both are fully durable: PostgreSQL keeps its defaults (fsync on,
# synchronous_commit on, max_wal_size 1GB, checkpoint_timeout 5min) except
# shared_buffers = 2GB, so that the table stays in memory as hekla's does,
# and log_checkpoints = on, whose "checkpoint complete" lines give every
# checkpoint of the run (the ones WAL growth sets off, too). Both keep their
# files in the system temp directory, on the same disk.
# Usage:
#   bench/checkpoint_vs_postgres.sh [--doublings D] [--initial-rows N]
# Defaults: 10,000 initial rows and 8 doublings (2,560,000 rows); the
# article's run is --doublings 12 (40,960,000 rows). HEKLA_BIN names another
# hekla binary (default target/release/hekla, built when missing).
set -euo pipefail
if [ -n "${HEKLA_BIN:-}" ]; then HEKLA_BIN=$(realpath -m "$HEKLA_BIN"); fi
cd "$(dirname "$0")/.."

DOUBLINGS=8
INITIAL_ROWS=10000
while [ $# -gt 0 ]; do
    case "$1" in
        --doublings) DOUBLINGS=$2; shift 2 ;;
        --initial-rows) INITIAL_ROWS=$2; shift 2 ;;
        *) echo "usage: $0 [--doublings D] [--initial-rows N]" >&2; exit 2 ;;
    esac
done

HEKLA=${HEKLA_BIN:-target/release/hekla}
if [ ! -x "$HEKLA" ]; then
    cargo build --release -q -p hekla
fi
echo "hekla: $INITIAL_ROWS single-row inserts, $DOUBLINGS doublings" >&2
HEKLA_JSON=$("$HEKLA" bench checkpoint --initial-rows "$INITIAL_ROWS" --doublings "$DOUBLINGS" --json)

PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
WORK=$(mktemp -d /tmp/hekla-pg-checkpoint.XXXXXX)
chmod 777 "$WORK"
PORT=55434
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
cleanup() { as_pg "$PGBIN/pg_ctl -D $WORK/data -m immediate stop" >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

as_pg "$PGBIN/initdb -D $WORK/data -A trust -U postgres" >/dev/null
as_pg "$PGBIN/pg_ctl -D $WORK/data -l $WORK/log -w -o \"-p $PORT -k $WORK -c listen_addresses='' \
  -c shared_buffers=2GB -c log_checkpoints=on\" start" >/dev/null
PSQL="$PGBIN/psql -X -q -h $WORK -p $PORT -U postgres -d postgres -v ON_ERROR_STOP=1"

now() { date +%s.%N; }
# Runs the SQL file $1 in one psql session; prints its wall-clock seconds.
timed_file() {
    local start
    start=$(now)
    as_pg "$PSQL -f $1" >/dev/null
    python3 -c "print($(now) - $start)"
}
sql_file() { # name text: writes $WORK/name.sql, readable by the postgres user
    printf '%s\n' "$2" > "$WORK/$1.sql"
    chmod 644 "$WORK/$1.sql"
    printf '%s' "$WORK/$1.sql"
}

as_pg "$PSQL -c 'CREATE TABLE hk_tbl (id int GENERATED ALWAYS AS IDENTITY, data uuid PRIMARY KEY, dt timestamp NOT NULL);'"
echo "postgres: $INITIAL_ROWS single-row inserts, $DOUBLINGS doublings" >&2
# Where the run's checkpoints start in the server log.
LOG_START=$(wc -l < "$WORK/log")
single=$(sql_file single "$(for _ in $(seq "$INITIAL_ROWS"); do
    echo "INSERT INTO hk_tbl (data, dt) SELECT gen_random_uuid(), now();"; done)")
declare -A PG
PG[single_row_inserts_s]=$(timed_file "$single")
load=${PG[single_row_inserts_s]}
double=$(sql_file double "INSERT INTO hk_tbl (data, dt) SELECT gen_random_uuid(), now() FROM hk_tbl;")
for d in $(seq "$DOUBLINGS"); do
    PG[doubling_${d}_s]=$(timed_file "$double")
    load=$(python3 -c "print($load + ${PG[doubling_${d}_s]})")
done
deletes=$(sql_file deletes "DELETE FROM hk_tbl WHERE id BETWEEN 1000 AND 2000;
DELETE FROM hk_tbl WHERE id BETWEEN 25000 AND 26000;
DELETE FROM hk_tbl WHERE id BETWEEN 555555 AND 556555;
DELETE FROM hk_tbl WHERE id BETWEEN 6666666 AND 6667666;
DELETE FROM hk_tbl WHERE id BETWEEN 333 AND 1333;")
PG[deletes_s]=$(timed_file "$deletes")
PG[load_s]=$(python3 -c "print($load + ${PG[deletes_s]})")
# psql's \timing: the statement's time, without connecting.
PG[checkpoint_statement_ms]=$(as_pg "$PSQL -c '\\timing on' -c 'CHECKPOINT'" | awk '/^Time:/ {print $2}')
PG[rows_after_deletes]=$(as_pg "$PSQL -At -c 'SELECT count(*) FROM hk_tbl'")
PG[table_bytes]=$(as_pg "$PSQL -At -c \"SELECT pg_total_relation_size('hk_tbl')\"")
tail -n +"$((LOG_START + 1))" "$WORK/log" > "$WORK/run.log"
PG[data_dir_bytes]=$(du -sb "$WORK/data" | cut -f1)
PG[data_dir_allocated_bytes]=$(du -sB1 "$WORK/data" | cut -f1)
as_pg "$PGBIN/pg_ctl -D $WORK/data -m fast stop" >/dev/null

PG_FIGURES=$(for name in "${!PG[@]}"; do echo "$name=${PG[$name]}"; done)
export HEKLA_JSON PG_FIGURES
python3 - "$WORK/run.log" <<'PY'
import json, os, re, sys

hekla = {r["name"]: r["value"] for r in json.loads(os.environ["HEKLA_JSON"])["results"]}
pg = {}
for line in os.environ["PG_FIGURES"].splitlines():
    name, value = line.split("=", 1)
    pg[name] = float(value)

# "checkpoint starting: wal" ... "checkpoint complete: wrote 123 buffers ...
# write=1.2 s, sync=0.1 s, total=1.4 s; ..." (PostgreSQL 15's log_checkpoints).
pg_checkpoints, reason = [], None
for line in open(sys.argv[1]):
    if m := re.search(r"checkpoint starting: (.*)", line):
        reason = m.group(1).strip()
    elif m := re.search(r"checkpoint complete: wrote (\d+) buffers.*write=([\d.]+) s, "
                        r"sync=([\d.]+) s, total=([\d.]+) s", line):
        pg_checkpoints.append({"reason": reason, "bytes": int(m.group(1)) * 8192,
                               "write_s": float(m.group(2)), "sync_s": float(m.group(3)),
                               "total_s": float(m.group(4))})
manual = [c for c in pg_checkpoints if "force" in (c["reason"] or "")]
if len(manual) != 1 or pg_checkpoints[-1] is not manual[0]:
    sys.exit(f"expected the run's CHECKPOINT last in the server log, found {pg_checkpoints}")
if hekla["rows_after_deletes"] != pg["rows_after_deletes"]:
    sys.exit(f"rows after the deletes differ: hekla {hekla['rows_after_deletes']}, "
             f"postgres {pg['rows_after_deletes']}")

print(f"rows after the deletes: {int(pg['rows_after_deletes']):,} on both")
print("\nPostgreSQL's checkpoints during the run (from log_checkpoints):")
for n, c in enumerate(pg_checkpoints, 1):
    print(f"  {n}. {c['reason']:<28} wrote {c['bytes'] / 2**20:8.1f} MB  write {c['write_s']:.3f} s"
          f"  sync {c['sync_s']:.3f} s  total {c['total_s']:.3f} s")
if len(pg_checkpoints) > 1:
    print("  (PostgreSQL paces the checkpoints WAL growth or the timeout start: their writes are"
          " spread over the time until the next one is due, so their time is mostly waiting;"
          " CHECKPOINT runs at full speed)")
print("hekla's checkpoints during the run:")
n = 1
while True:
    kind = next((k for k in ("automatic", "manual") if f"checkpoint_{n}_{k}_ms" in hekla), None)
    if kind is None:
        break
    print(f"  {n}. {kind:<28} wrote {hekla[f'checkpoint_{n}_{kind}_bytes_written'] / 2**20:8.1f} MB"
          f"  total {hekla[f'checkpoint_{n}_{kind}_ms'] / 1000:.3f} s")
    n += 1

# (figure, hekla, postgres, format, whether the ratio means something)
doublings = lambda figures: sum(v for k, v in figures.items() if re.fullmatch(r"doubling_\d+_s", k))
rows = [
    ("single-row inserts, s", hekla["single_row_inserts_s"], pg["single_row_inserts_s"], ",.2f", False),
    ("doublings, s", doublings(hekla), doublings(pg), ",.2f", False),
    ("deletes, s", hekla["deletes_s"], pg["deletes_s"], ",.2f", False),
    ("load (inserts, doublings, deletes), s", hekla["load_s"], pg["load_s"], ",.2f", False),
    ("CHECKPOINT statement, ms", hekla["checkpoint_statement_ms"], pg["checkpoint_statement_ms"],
     ",.1f", True),
    ("checkpoints during the run",
     len([k for k in hekla if re.fullmatch(r"checkpoint_\d+_(automatic|manual)_ms", k)]),
     len(pg_checkpoints), "d", False),
    ("total checkpoint time, ms", hekla["checkpoint_total_ms"],
     sum(c["total_s"] for c in pg_checkpoints) * 1000, ",.1f", True),
    ("bytes written by checkpoints, MB", hekla["checkpoint_bytes_written_total"] / 2**20,
     sum(c["bytes"] for c in pg_checkpoints) / 2**20, ",.1f", False),
    ("data directory on disk, MB", hekla["data_dir_allocated_bytes"] / 2**20,
     pg["data_dir_allocated_bytes"] / 2**20, ",.1f", False),
]
print(f"\n{'figure':<40} {'hekla':>12} {'postgres':>12} {'postgres / hekla':>17}")
for name, h, p, fmt, ratio in rows:
    shown = f"{p / h:16.1f}x" if ratio and h > 0 else ""
    print(f"{name:<40} {h:>12{fmt}} {p:>12{fmt}} {shown:>17}")
print(f"\nhekla's checkpoint worker was busy {hekla['checkpoint_worker_busy_ms']:,.0f} ms in all "
      f"(writing the log into checkpoint files as it grows, and checkpointing); "
      f"PostgreSQL's table and indexes: {pg['table_bytes'] / 2**20:,.1f} MB")
PY
