#!/usr/bin/env bash
# YCSB's own client (site.ycsb.Client, core 0.17.0) against `hekla serve` and
# PostgreSQL 15 in one run, through one binding class (hekla.ycsb.
# JdbcKeyValueClient): Microsoft's JDBC driver for hekla, PostgreSQL's for
# PostgreSQL. Loads RECORDS records into each, checks the row counts, runs
# the workloads (default A, B, C, F) against both, prints YCSB's output for
# each and a table of throughput, ratio, p99 latencies and each server's CPU
# per operation (its own process tree, from /proc), written as
# Markdown to target/ycsb-compare.md. Full durability on both sides: hekla's
# table is SCHEMA_AND_DATA (every commit waits for its log write), and
# PostgreSQL runs with fsync=on, synchronous_commit=on.
#
# hekla's table is memory-optimized (a hash primary key sized to the records,
# a range index on the key for workload E) and the runs log in as the
# key-value study's restricted login `ycsb` (SELECT, INSERT, UPDATE on
# usertable). PostgreSQL's is a plain table with a B-tree primary key, used
# by a role with the same rights.
#
# Usage: bench/ycsb/run.sh [--smoke] [--records N] [--operations M]
#                          [--threads T] [--workloads "a b c f"] [--retries R]
# or the same as RECORDS, OPERATIONS, THREADS, WORKLOADS, RETRIES in the
# environment (and HEKLA_BIN for another hekla binary, HEKLA_JDBC_OPTIONS
# for mssql-jdbc's URL options, default sendStringParametersAsUnicode=false). Defaults: 100,000 records, 100,000 operations, 8 threads, no
# retries. --smoke: 1,000 records, 2,000 operations, 2 threads, workload A.
# Exits non-zero when a row count after the load is wrong or an operation
# fails with anything but a counted 41302 write conflict.
set -euo pipefail
# A relative HEKLA_BIN names a file from where the script was started.
if [ -n "${HEKLA_BIN:-}" ]; then HEKLA_BIN=$(realpath -m "$HEKLA_BIN"); fi
cd "$(dirname "$0")"
YCSB_DIR=$(pwd)
ROOT=$(cd ../.. && pwd)

RECORDS=${RECORDS:-100000}
OPERATIONS=${OPERATIONS:-100000}
THREADS=${THREADS:-8}
WORKLOADS=${WORKLOADS:-a b c f}
RETRIES=${RETRIES:-0}
# The study's driver option: string parameters as varchar, as the column is.
HEKLA_JDBC_OPTIONS=${HEKLA_JDBC_OPTIONS:-sendStringParametersAsUnicode=false}
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) RECORDS=1000 OPERATIONS=2000 THREADS=2 WORKLOADS=a; shift ;;
    --records) RECORDS=$2; shift 2 ;;
    --operations) OPERATIONS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --workloads) WORKLOADS=$2; shift 2 ;;
    --retries) RETRIES=$2; shift 2 ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

log() { echo "== $*" >&2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }

WORK=$(mktemp -d /tmp/hekla-ycsb.XXXXXX)
chmod 777 "$WORK"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
HEKLA_PID=
cleanup() {
  [ -n "$HEKLA_PID" ] && kill "$HEKLA_PID" 2>/dev/null && wait "$HEKLA_PID" 2>/dev/null
  as_pg "$PGBIN/pg_ctl -D $WORK/pg -m immediate stop" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# ---- the binding and the hekla binary
log "building the binding (mvn)"
mvn -B -q package dependency:copy-dependencies -DoutputDirectory=target/lib >"$WORK/mvn.log" 2>&1 ||
  { cat "$WORK/mvn.log" >&2; exit 1; }
CLASSPATH_YCSB="$YCSB_DIR/target/hekla-ycsb-1.jar:$YCSB_DIR/target/lib/*"
HEKLA=${HEKLA_BIN:-$ROOT/target/release/hekla}
if [ ! -x "$HEKLA" ]; then
  log "building hekla (cargo build --release -p hekla)"
  (cd "$ROOT" && cargo build --release --quiet -p hekla)
fi

# ---- hekla serve, the memory-optimized table and the restricted login
HEKLA_PORT=$(free_port)
SA_PASSWORD="Sa#$(python3 -c 'import secrets; print(secrets.token_hex(8))')"
YCSB_PASSWORD="Ycsb#$(python3 -c 'import secrets; print(secrets.token_hex(8))')"
HEKLA_SA_PASSWORD=$SA_PASSWORD "$HEKLA" serve --data-dir "$WORK/hekla" --listen "127.0.0.1:$HEKLA_PORT" \
  >"$WORK/hekla.log" 2>&1 &
HEKLA_PID=$!
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$HEKLA_PORT") 2>/dev/null && break
  kill -0 "$HEKLA_PID" 2>/dev/null || { cat "$WORK/hekla.log" >&2; exit 1; }
  sleep 0.1
done
log "hekla serve on 127.0.0.1:$HEKLA_PORT (pid $HEKLA_PID)"
hekla_sql() { "$HEKLA" sql -S "127.0.0.1,$HEKLA_PORT" -U sa -P "$SA_PASSWORD" -b "$@"; }
FIELDS=$(for i in $(seq 0 9); do printf ', FIELD%d varchar(100)' "$i"; done)
hekla_sql -Q "CREATE TABLE usertable (YCSB_KEY varchar(255) NOT NULL$FIELDS,
  CONSTRAINT pk_usertable PRIMARY KEY NONCLUSTERED HASH (YCSB_KEY) WITH (BUCKET_COUNT = $RECORDS),
  INDEX ix_usertable_key NONCLUSTERED (YCSB_KEY)) WITH (MEMORY_OPTIMIZED = ON);
CREATE LOGIN ycsb WITH PASSWORD = '$YCSB_PASSWORD';
CREATE USER ycsb FOR LOGIN ycsb;
GRANT SELECT, INSERT, UPDATE ON usertable TO ycsb;" >/dev/null

# ---- PostgreSQL 15: a throwaway cluster, the plain table, the same role
PG_PORT=$(free_port)
as_pg "$PGBIN/initdb -D $WORK/pg -A trust -U postgres" >/dev/null
as_pg "$PGBIN/pg_ctl -D $WORK/pg -l $WORK/pg.log -w -o \"-p $PG_PORT -k $WORK \
  -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=1GB \
  -c fsync=on -c synchronous_commit=on -c full_page_writes=on\" start" >/dev/null
log "PostgreSQL $("$PGBIN/postgres" --version | awk '{ print $3 }') on 127.0.0.1:$PG_PORT"
pg_sql() { as_pg "$PGBIN/psql -q -X -A -t -h $WORK -p $PG_PORT -U postgres -d postgres -v ON_ERROR_STOP=1 $*"; }
pg_sql "-c \"CREATE TABLE usertable (YCSB_KEY varchar(255) PRIMARY KEY${FIELDS});\"" >/dev/null
pg_sql "-c \"CREATE ROLE ycsb LOGIN PASSWORD '$YCSB_PASSWORD';\" -c 'GRANT SELECT, INSERT, UPDATE ON usertable TO ycsb;'" \
  >/dev/null

cat >"$WORK/hekla.properties" <<EOF
db.url=jdbc:sqlserver://127.0.0.1:$HEKLA_PORT;databaseName=hekla;encrypt=false;$HEKLA_JDBC_OPTIONS
db.user=ycsb
db.passwd=$YCSB_PASSWORD
db.dialect=top
db.retries=$RETRIES
EOF
cat >"$WORK/postgres.properties" <<EOF
db.url=jdbc:postgresql://127.0.0.1:$PG_PORT/postgres
db.user=ycsb
db.passwd=$YCSB_PASSWORD
db.dialect=limit
db.retries=$RETRIES
EOF

# ---- YCSB: one run prints its output and keeps it in $WORK/NAME.out
# The server's CPU seconds so far (PostgreSQL: the postmaster and its
# backends, live or exited).
server_cpu() {
  case "$1" in
    hekla) python3 "$ROOT/bench/proc_cpu.py" "$HEKLA_PID" ;;
    postgres) python3 "$ROOT/bench/proc_cpu.py" "$(head -1 "$WORK/pg/postmaster.pid")" ;;
  esac
}
ycsb() {
  local name=$1 system=$2 phase=$3 workload=$4
  log "$name: YCSB $phase, workload ${workload^^}, $system, $THREADS threads"
  local cpu_before
  cpu_before=$(server_cpu "$system")
  java -cp "$CLASSPATH_YCSB" site.ycsb.Client "$phase" -db hekla.ycsb.JdbcKeyValueClient \
    -P "workloads/workload$workload" -P "$WORK/$system.properties" \
    -p recordcount="$RECORDS" -p operationcount="$OPERATIONS" -threads "$THREADS" \
    >"$WORK/$name.out" 2>"$WORK/$name.err" || { cat "$WORK/$name.err" >&2; exit 1; }
  # Let the closed connections' backends exit and be reaped first.
  sleep 0.5
  echo "$cpu_before $(server_cpu "$system")" >"$WORK/$name.cpu"
  grep -v '^\[CLEANUP\]\|^\[TOTAL_GC\|Intended' "$WORK/$name.out"
  grep '^\[ERRORS\]\|^\[RETRIES\]\|^\[FIRST ERROR\]' "$WORK/$name.err" || true
}
row_count() {
  case "$1" in
    hekla) "$HEKLA" sql -S "127.0.0.1,$HEKLA_PORT" -U ycsb -P "$YCSB_PASSWORD" -h -1 -W \
      -Q "SET NOCOUNT ON; SELECT COUNT(*) FROM usertable;" | tr -d ' \r' | grep -v '^$' ;;
    postgres) pg_sql "-c 'SELECT count(*) FROM usertable;'" ;;
  esac
}

RUNS=()
for system in hekla postgres; do
  ycsb "load-$system" "$system" -load a
  RUNS+=("load-$system")
  count=$(row_count "$system")
  if [ "$count" != "$RECORDS" ]; then
    log "FAIL: $system has $count rows after the load of $RECORDS records"
    exit 1
  fi
  log "$system: $count rows after the load"
done
for workload in $WORKLOADS; do
  for system in hekla postgres; do
    ycsb "$workload-$system" "$system" -t "$workload"
    RUNS+=("$workload-$system")
  done
done

mkdir -p "$ROOT/target"
python3 - "$WORK" "$ROOT/target/ycsb-compare.md" "$RECORDS" "$OPERATIONS" "$THREADS" "${RUNS[@]}" <<'PY'
import re, sys
work, report, records, operations, threads, runs = sys.argv[1], sys.argv[2], *sys.argv[3:6], sys.argv[6:]

def parse(name):
    """YCSB's report lines ([SECTION], metric, value) and the binding's error counts."""
    out = {}
    for line in open(f"{work}/{name}.out"):
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 3 and parts[0].startswith("["):
            out[(parts[0].strip("[]"), parts[1])] = parts[2]
    errors = {}
    for line in open(f"{work}/{name}.err"):
        m = re.match(r"\[ERRORS\], (.+), (\d+)$", line.strip())
        if m:
            errors[m.group(1)] = int(m.group(2))
    return out, errors

def p99(out):
    ops = sorted({s for s, _ in out if s not in ("OVERALL", "CLEANUP", "TOTAL_GCS", "TOTAL_GC_TIME",
                                                  "TOTAL_GC_TIME_%") and not s.startswith("TOTAL_GC")
                  and (s, "99thPercentileLatency(us)") in out})
    return " / ".join(f"{s} {int(float(out[(s, '99thPercentileLatency(us)')])):,}" for s in ops)

failures, rows = [], []
for name in runs:
    out, errors = parse(name)
    if ("OVERALL", "Throughput(ops/sec)") not in out:
        failures.append(f"{name}: no [OVERALL] throughput in YCSB's output")
        continue
    returned = sum(int(v) for (s, m), v in out.items() if m == "Return=ERROR" and not s.startswith("CLEANUP"))
    # A read-modify-write's failed update is counted under UPDATE and READ-MODIFY-WRITE both.
    returned -= int(out.get(("READ-MODIFY-WRITE", "Return=ERROR"), 0))
    others = {e: n for e, n in errors.items() if e != "Msg 41302"}
    if others:
        failures.append(f"{name}: errors other than 41302: {others}")
    if returned != sum(errors.values()):
        failures.append(f"{name}: YCSB counted {returned} errors, the binding {sum(errors.values())}")
    rows.append((name, out, errors))

def cpu_us_per_op(name):
    """The server's CPU over the run, per operation (a load inserts each
    record once; a run does the operation count)."""
    before, after = (float(v) for v in open(f"{work}/{name}.cpu").read().split())
    return (after - before) * 1e6 / float(records if name.startswith("load-") else operations)

def cell(name):
    for n, out, errors in rows:
        if n == name:
            return (float(out[("OVERALL", "Throughput(ops/sec)")]), p99(out), errors.get("Msg 41302", 0),
                    cpu_us_per_op(name))
    return None

lines = [f"YCSB 0.17.0 through JDBC, {int(records):,} records, {int(operations):,} operations, "
         f"{threads} threads, full durability", "",
         "| workload | hekla ops/s | PostgreSQL ops/s | hekla ÷ PostgreSQL | hekla p99 (µs) | PostgreSQL p99 (µs) "
         "| hekla 41302 | hekla server CPU µs/op | PostgreSQL server CPU µs/op | PostgreSQL ÷ hekla CPU |",
         "|---|---:|---:|---:|---|---|---:|---:|---:|---:|"]
for workload in dict.fromkeys(n.split("-")[0] for n in runs):
    h, p = cell(f"{workload}-hekla"), cell(f"{workload}-postgres")
    if h and p:
        label = "load" if workload == "load" else workload.upper()
        lines.append(f"| {label} | {h[0]:,.0f} | {p[0]:,.0f} | {h[0] / p[0]:.2f}× | {h[1]} | {p[1]} | {h[2]} "
                     f"| {h[3]:.1f} | {p[3]:.1f} | {p[3] / h[3]:.2f}× |")
text = "\n".join(lines) + "\n"
print(text)
open(report, "w").write(text)
for failure in failures:
    print(f"FAIL: {failure}", file=sys.stderr)
sys.exit(1 if failures else 0)
PY
log "written to target/ycsb-compare.md"
