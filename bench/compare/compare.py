"""hekla and PostgreSQL 15 side by side, in one run on this machine.

bench/compare.sh builds hekla and runs this. It starts `hekla serve` and a
throwaway PostgreSQL cluster, loads the sales-order sample into both
(samples/inmem-oltp/ into hekla, bench/compare/postgres_sales.sql into
PostgreSQL), and runs over the wire, at each connection count, with full
durability and then with delayed durability / asynchronous commit:

- the sales-order workload: `hekla stress -i samples/inmem-oltp/
  workload_inmem.sql` against pgbench running the same batch (one of the
  106 sample orders, picked at random, inserted 20 times, each order its
  own autocommitted transaction through the PL/pgSQL twin of
  Sales.usp_InsertSalesOrder_inmem);
- single-row commits: one INSERT per transaction into a memory-optimized
  table against one INSERT per pgbench transaction.

Throughput is rows counted in the tables afterwards over wall-clock time,
not the clients' claims. Latency p99 is per batch (hekla stress's
histogram; pgbench's per-transaction log). Server CPU is utime + stime of
the server's process tree from /proc before and after each run.

Prints one table, writes target/compare.md, target/compare.json and the
charts target/compare-sales.svg (and, with --ycsb, target/compare-ycsb.svg). Python 3 standard library only.
"""

import argparse
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from proc_cpu import tree_cpu_seconds  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "inmem-oltp"
TARGET = ROOT / "target"
ORDERS_PER_BATCH = 20  # workload_inmem.sql's WHILE (@i < 20)
SEED_ORDERS = 106
IS_ROOT = os.geteuid() == 0


def run(args, **kwargs):
    """Runs a program, failing loudly with its output."""
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"{' '.join(map(str, args))} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result.stdout


# --- CPU time from /proc --------------------------------------------------


# --- the servers ---------------------------------------------------------


class Hekla:
    """`hekla serve` on a free loopback port, with the sample loaded."""

    def __init__(self, binary, work):
        self.binary = binary
        self.data = work / "hekla"
        self.password = "Cmp-" + secrets.token_hex(12)
        self.log = open(work / "hekla-serve.log", "w+")
        env = dict(os.environ, HEKLA_SA_PASSWORD=self.password)
        self.process = subprocess.Popen(
            [binary, "serve", "--data-dir", self.data, "--listen", "127.0.0.1:0"],
            stdout=subprocess.DEVNULL, stderr=self.log, env=env)
        self.address = self._wait_for_address()
        self.pid = self.process.pid

    def _wait_for_address(self):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            match = re.search(r" listening addr=127\.0\.0\.1:(\d+)", Path(self.log.name).read_text())
            if match:
                return f"127.0.0.1,{match.group(1)}"
            if self.process.poll() is not None:
                sys.exit(f"hekla serve exited:\n{Path(self.log.name).read_text()}")
            time.sleep(0.1)
        sys.exit("hekla serve did not start listening within 2 minutes")

    def login(self):
        return ["-S", self.address, "-U", "sa", "-P", self.password]

    def sql(self, *args):
        return run([self.binary, "sql", *self.login(), "-b", "-h", "-1", *args])

    def count(self, table):
        out = self.sql("-Q", f"SET NOCOUNT ON; SELECT 'COUNT=' + CAST(COUNT(*) AS varchar(20)) FROM {table}")
        return int(re.search(r"COUNT=(\d+)", out).group(1))

    def load(self):
        self.sql("-i", *(SAMPLE / name for name in
                         ["01_schema.sql", "02_procedures.sql", "03_ondisk.sql", "04_data.sql"]))
        self.sql("-Q", "CREATE TABLE dbo.commit_probe (id bigint IDENTITY NOT NULL, payload int NOT NULL, "
                 "CONSTRAINT pk_commit_probe PRIMARY KEY NONCLUSTERED HASH (id) WITH (BUCKET_COUNT = 4194304)) "
                 "WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)")

    def set_delayed(self, delayed):
        self.sql("-Q", "ALTER DATABASE CURRENT SET DELAYED_DURABILITY = " + ("FORCED" if delayed else "DISABLED"))

    def stress(self, connections, iterations, batch_args):
        out = run([self.binary, "stress", *self.login(), "-n", str(connections), "-r", str(iterations),
                   "-q", "--json", *batch_args])
        report = json.loads(out[out.index("{"):])
        results = {r["name"]: r["value"] for r in report["results"]}
        if results.get("errors", 0) or results.get("connections_failed", 0) or results.get("connections_lost", 0):
            sys.exit(f"hekla stress reported errors: {out}")
        return results["latency_p99_ms"]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


class Postgres:
    """A throwaway PostgreSQL cluster (initdb into the work directory,
    pg_ctl on a free loopback port; the server runs as `postgres` when
    this runs as root), fsync and synchronous_commit on."""

    def __init__(self, work, port):
        self.bin = Path(os.environ.get("PGBIN") or
                        sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))[-1])
        self.work = work
        self.data = work / "pg"
        self.port = str(port)
        self.as_server(["initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres"])
        options = (f"-p {port} -c listen_addresses=127.0.0.1 -k {work} -c max_connections=250 "
                   "-c shared_buffers=1GB -c max_wal_size=4GB -c checkpoint_timeout=30min")
        # fsync and synchronous_commit stay at their defaults (on), set
        # nowhere on the command line so that ALTER SYSTEM can change the
        # latter.
        self.as_server(["pg_ctl", "-D", str(self.data), "-l", str(work / "pg.log"), "-w", "-o", options, "start"])
        self.pid = int((self.data / "postmaster.pid").read_text().split()[0])

    def as_server(self, args):
        program = [str(self.bin / args[0]), *args[1:]]
        return run((["runuser", "-u", "postgres", "--"] if IS_ROOT else []) + program, cwd=self.work)

    def psql(self, *args):
        return run([str(self.bin / "psql"), "-X", "-q", "-h", "127.0.0.1", "-p", self.port, "-U", "postgres",
                    "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-At", *args])

    def count(self, table):
        return int(self.psql("-c", f"SELECT count(*) FROM {table}").strip())

    def load(self):
        self.psql("-o", "/dev/null", "-f", str(ROOT / "bench" / "compare" / "postgres_sales.sql"))

    def set_delayed(self, delayed):
        if self.psql("-c", "SHOW fsync").strip() != "on":
            sys.exit("PostgreSQL runs with fsync off")
        self.psql("-c", f"ALTER SYSTEM SET synchronous_commit = {'off' if delayed else 'on'}")
        self.psql("-c", "SELECT pg_reload_conf()")
        time.sleep(0.5)  # new backends read the reloaded setting
        expected = "off" if delayed else "on"
        actual = self.psql("-c", "SHOW synchronous_commit").strip()
        if actual != expected:
            sys.exit(f"PostgreSQL's synchronous_commit is {actual}, not {expected}")

    def seed_orders(self):
        """The 106 sample orders' lines, as array literals of the
        function's composite type, by order number."""
        rows = self.psql("-F", "|", "-c",
                         "SELECT orderid, string_agg(format('(%s,%s,%s)', orderqty, productid, specialofferid), ',' "
                         "ORDER BY localid) FROM demo.demosalesorderdetailseed GROUP BY orderid ORDER BY orderid")
        orders = [line.split("|", 1)[1] for line in rows.splitlines() if line]
        if len(orders) != SEED_ORDERS:
            sys.exit(f"PostgreSQL holds {len(orders)} seed orders, not {SEED_ORDERS}")
        return orders

    def pgbench(self, connections, transactions, scripts, logs):
        """pgbench, prepared statements over TCP, every transaction logged;
        returns the p99 of the logged transactions' latencies in ms."""
        logs.mkdir()
        script_args = [arg for script in scripts for arg in ("-f", str(script))]
        run([str(self.bin / "pgbench"), "-h", "127.0.0.1", "-p", self.port, "-U", "postgres", "-n",
             "-c", str(connections), "-j", "2", "-t", str(transactions), "-M", "prepared",
             "-l", f"--log-prefix={logs / 'tx'}", *script_args, "postgres"])
        latencies = []
        for log in logs.iterdir():
            # client_id transaction_no time_us script_no time_epoch time_us_part
            latencies.extend(int(line.split()[2]) for line in log.read_text().splitlines())
        shutil.rmtree(logs)
        return percentile(latencies, 0.99) / 1000.0

    def stop(self):
        self.as_server(["pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop"])


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- one measured run --------------------------------------------------------


def connect_cpu_seconds(server, client):
    """The server CPU of `client` connecting (and running one trivial
    statement per connection): hekla's logins verify a PBKDF2 password hash
    (about 40 ms of CPU each, by design), PostgreSQL's trust logins fork a
    backend. Subtracted from each run's CPU, so CPU per op is the steady
    state's; throughput still pays for the connects in wall-clock time."""
    before = tree_cpu_seconds(server.pid)
    client()
    time.sleep(0.5)
    return tree_cpu_seconds(server.pid) - before


def measure(server, table, client, connect_cpu):
    """Runs `client` (returns p99 ms) against `server`; counts `table`'s
    rows before and after. Returns ops/s, p99 ms and server CPU µs/op (less
    `connect_cpu`), where one op is one row (one order: its header row)."""
    before_rows = server.count(table)
    before_cpu = tree_cpu_seconds(server.pid)
    start = time.monotonic()
    p99 = client()
    elapsed = time.monotonic() - start
    # PostgreSQL's postmaster accounts an exited backend's CPU once it
    # has reaped it, a moment after the client disconnects.
    time.sleep(0.5)
    cpu = tree_cpu_seconds(server.pid) - before_cpu - connect_cpu
    ops = server.count(table) - before_rows
    if ops <= 0:
        sys.exit(f"no rows arrived in {table}")
    return {"per_s": ops / elapsed, "p99_ms": p99, "cpu_us": cpu * 1e6 / ops, "ops": ops, "elapsed_s": elapsed}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: a few minutes")
    parser.add_argument("--connections", default="2 64", help="connection counts (default: '2 64')")
    parser.add_argument("--hekla", default=str(TARGET / "release" / "hekla"), help="the hekla binary")
    parser.add_argument("--ycsb", action="store_true",
                        help="add YCSB A/B/C/F rows from bench/ycsb/run.sh (Java, slow: see docs/benchmarks.md)")
    args = parser.parse_args()
    connection_counts = [int(c) for c in args.connections.split()]
    orders_per_run = 20_000 if args.quick else 200_000
    commits_per_run = 20_000 if args.quick else 200_000

    TARGET.mkdir(exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="hekla-compare."))
    os.chmod(work, 0o777)  # the PostgreSQL server runs as `postgres`
    hekla = postgres = None
    load_before = os.getloadavg()
    try:
        hekla = Hekla(args.hekla, work)
        postgres = Postgres(work, free_port())
        print("loading the sales-order sample into hekla and PostgreSQL ...", flush=True)
        hekla.load()
        postgres.load()
        for table_pair in [("Sales.SalesOrderHeader_inmem", "sales.salesorderheader"),
                           ("Sales.SalesOrderDetail_inmem", "sales.salesorderdetail")]:
            counts = hekla.count(table_pair[0]), postgres.count(table_pair[1])
            if counts[0] != counts[1]:
                sys.exit(f"the loads differ: {table_pair} hold {counts}")
        scripts = write_pgbench_scripts(work, postgres.seed_orders())
        rows = []
        connects = {}
        for connections in connection_counts:
            connects[connections] = (
                connect_cpu_seconds(hekla, lambda: hekla.stress(connections, 1, ["-Q", "SELECT 1"])),
                connect_cpu_seconds(postgres, lambda: postgres.pgbench(
                    connections, 1, scripts["select"], work / "logs")))
        for delayed in (False, True):
            hekla.set_delayed(delayed)
            postgres.set_delayed(delayed)
            durability = "delayed" if delayed else "durable"
            for connections in connection_counts:
                hekla_connect, postgres_connect = connects[connections]
                iterations = max(1, round(orders_per_run / ORDERS_PER_BATCH / connections))
                h = measure(hekla, "Sales.SalesOrderHeader_inmem", lambda: hekla.stress(
                    connections, iterations, ["-i", str(SAMPLE / "workload_inmem.sql")]), hekla_connect)
                p = measure(postgres, "sales.salesorderheader", lambda: postgres.pgbench(
                    connections, iterations, scripts["sales"], work / "logs"), postgres_connect)
                rows.append(row("sales_order", "orders/s", durability, connections, h, p))
                print_progress(rows[-1])
            for connections in connection_counts:
                hekla_connect, postgres_connect = connects[connections]
                per_connection = max(1, round(commits_per_run / connections))
                h = measure(hekla, "dbo.commit_probe", lambda: hekla.stress(
                    connections, per_connection, ["-Q", "INSERT INTO dbo.commit_probe (payload) VALUES (1)"]),
                    hekla_connect)
                p = measure(postgres, "public.commit_probe", lambda: postgres.pgbench(
                    connections, per_connection, scripts["single"], work / "logs"), postgres_connect)
                rows.append(row("single_row_commit", "rows/s", durability, connections, h, p))
                print_progress(rows[-1])
    finally:
        if hekla:
            hekla.stop()
        if postgres:
            postgres.stop()
        shutil.rmtree(work, ignore_errors=True)
    ycsb_rows = run_ycsb(args.hekla, connection_counts, args.quick) if args.ycsb else []
    load_after = os.getloadavg()
    report(rows, ycsb_rows, connects, connection_counts, args.quick, load_before, load_after)


def write_pgbench_scripts(work, seed_orders):
    """pgbench scripts: one per sample order, each the workload's batch
    (20 calls of the insert function, each its own autocommitted
    transaction) with the workload's random customer, addresses and ship
    method; pgbench picks one of them at random per batch, as the
    workload's RAND() picks a sample order. And the single-row INSERT."""
    directory = work / "scripts"
    directory.mkdir()
    sales = []
    for number, lines in enumerate(seed_orders, start=1):
        call = (f"SELECT sales.usp_insertsalesorder(localtimestamp, :customer, :billto, :shipto, :shipmethod, "
                f"ARRAY[{lines}]::sales.salesorderdetailtype[]);\n")
        text = ("\\set customer random(0, 7999)\n\\set billto random(0, 9999)\n"
                "\\set shipto random(0, 9999)\n\\set shipmethod random(1, 5)\n" + call * ORDERS_PER_BATCH)
        path = directory / f"order{number:03}.sql"
        path.write_text(text)
        sales.append(path)
    single = directory / "single.sql"
    single.write_text("INSERT INTO public.commit_probe (payload) VALUES (1);\n")
    select = directory / "select.sql"
    select.write_text("SELECT 1;\n")
    return {"sales": sales, "single": [single], "select": [select]}


def row(workload, unit, durability, connections, h, p):
    return {"workload": workload, "unit": unit, "durability": durability, "connections": connections,
            "hekla": h, "postgres": p,
            "ratio": h["per_s"] / p["per_s"], "cpu_ratio": p["cpu_us"] / h["cpu_us"]}


def print_progress(r):
    print(f"  {r['workload']} {r['durability']} {r['connections']} connections: "
          f"hekla {r['hekla']['per_s']:,.0f} {r['unit']}, PostgreSQL {r['postgres']['per_s']:,.0f}", flush=True)


# --- YCSB, through bench/ycsb/run.sh ---------------------------------------------

YCSB_WORKLOADS = "a b c f"


def run_ycsb(hekla_binary, connection_counts, quick):
    """bench/ycsb/run.sh (YCSB's own Java client through JDBC, its own
    hekla serve and PostgreSQL cluster, full durability) once per
    connection count as its thread count, after this script's servers are
    stopped; its Markdown table (with each server's CPU per operation)
    folded into rows."""
    if not (shutil.which("java") and shutil.which("mvn")):
        print("YCSB rows need java and mvn (bench/ycsb/run.sh); not part of this run.")
        return []
    records, operations = (10_000, 20_000) if quick else (1_000_000, 200_000)
    rows = []
    for threads in connection_counts:
        print(f"YCSB {YCSB_WORKLOADS.upper()}: {threads} threads, {records:,} records, "
              f"{operations:,} operations (bench/ycsb/run.sh) ...", flush=True)
        run([str(ROOT / "bench" / "ycsb" / "run.sh"), "--records", str(records), "--operations", str(operations),
             "--threads", str(threads), "--workloads", YCSB_WORKLOADS],
            env=dict(os.environ, HEKLA_BIN=hekla_binary))
        for line in (TARGET / "ycsb-compare.md").read_text().splitlines():
            # | A | hekla ops/s | PostgreSQL ops/s | ratio | hekla p99 (µs) | PostgreSQL p99 (µs) | 41302
            # | hekla CPU µs/op | PostgreSQL CPU µs/op | CPU ratio |
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) != 10 or cells[0].lower() not in YCSB_WORKLOADS.split():
                continue
            h, p = (float(c.replace(",", "")) for c in cells[1:3])
            h_cpu, p_cpu = (float(c.replace(",", "")) for c in cells[7:9])
            rows.append({"workload": f"ycsb_{cells[0].lower()}", "unit": "ops/s", "durability": "durable",
                         "connections": threads, "ratio": h / p, "cpu_ratio": p_cpu / h_cpu,
                         "hekla": {"per_s": h, "p99_ms": worst_p99_ms(cells[4]), "cpu_us": h_cpu},
                         "postgres": {"per_s": p, "p99_ms": worst_p99_ms(cells[5]), "cpu_us": p_cpu}})
            print_progress(rows[-1])
    return rows


def worst_p99_ms(cell):
    """The highest of run.sh's per-operation p99s ("READ 1,234 / UPDATE
    5,678", in µs), in ms. YCSB's `UPDATE-FAILED` (the updates a 41302
    stopped) is left out: a handful of samples, whose "p99" is their
    slowest one."""
    parts = [part.split() for part in cell.split("/")]
    return max(float(words[-1].replace(",", "")) for words in parts
               if not words[0].endswith("-FAILED")) / 1000.0


# --- the report ----------------------------------------------------------------

COLUMNS = ["workload", "durability", "conns", "hekla /s", "PostgreSQL /s", "ratio", "hekla p99 ms",
           "PostgreSQL p99 ms", "hekla CPU µs/op", "PostgreSQL CPU µs/op", "CPU ratio"]


def cells(r):
    h, p = r["hekla"], r["postgres"]
    return [r["workload"], r["durability"], str(r["connections"]), f"{h['per_s']:,.0f}", f"{p['per_s']:,.0f}",
            f"{r['ratio']:.2f}x", f"{h['p99_ms']:.2f}", f"{p['p99_ms']:.2f}", optional(h["cpu_us"], "{:,.0f}"),
            optional(p["cpu_us"], "{:,.0f}"), optional(r["cpu_ratio"], "{:.2f}x")]


def optional(value, form):
    return "-" if value is None else form.format(value)


def report(rows, ycsb_rows, connects, connection_counts, quick, load_before, load_after):
    rows = rows + ycsb_rows
    table = [COLUMNS] + [cells(r) for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(COLUMNS))]
    print()
    for line in table:
        print("  ".join(c.rjust(w) if i > 2 else c.ljust(w) for i, (c, w) in enumerate(zip(line, widths))))
    notes = [
        "Over the wire on 127.0.0.1; clients (hekla stress, pgbench) share the machine's cores with the servers.",
        "sales_order: ops are orders (20 per batch, each its own transaction); p99 is per batch of 20 orders.",
        "single_row_commit: ops are one-row INSERT transactions; p99 per transaction.",
        "Throughput: rows counted in the tables afterwards / wall-clock time of the client run.",
        "CPU: the server process tree's utime+stime per op, less the run's connects (measured apart: "
        + "; ".join(f"{c} connections: hekla {h:.2f} s, PostgreSQL {p:.2f} s" for c, (h, p) in connects.items())
        + "); CPU ratio = PostgreSQL's / hekla's.",
        f"Load average (1 min) {load_before[0]:.2f} before, {load_after[0]:.2f} after"
        " (other builds may be running on this machine).",
        "ycsb_*: bench/ycsb/run.sh (YCSB 0.17.0 through JDBC, its own servers, full durability), the "
        "connection count as YCSB's threads; p99 is the worst of the workload's operations but UPDATE-FAILED "
        "(41302s, few samples); server CPU per op "
        "includes the run's logins (hekla hashes the login's password, PostgreSQL's throwaway cluster trusts "
        "local logins), which weighs on small runs."
        if ycsb_rows else "YCSB rows come from bench/ycsb/run.sh and are not part of this run (add --ycsb).",
    ]
    for note in notes:
        print(note)

    markdown = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    markdown += ["| " + " | ".join(c) + " |" for c in table[1:]]
    mode = "`bench/compare.sh --quick`" if quick else "`bench/compare.sh`"
    (TARGET / "compare.md").write_text(f"Produced by {mode}.\n\n" + "\n".join(markdown) + "\n\n"
                                       + "\n".join(f"- {n}" for n in notes) + "\n")

    results = []
    for r in rows:
        stem = f"{r['workload']}_{r['durability']}_c{r['connections']}"
        results += [
            {"name": f"{stem}_hekla_per_s", "value": r["hekla"]["per_s"], "unit": r["unit"]},
            {"name": f"{stem}_postgres_per_s", "value": r["postgres"]["per_s"], "unit": r["unit"]},
            {"name": f"{stem}_ratio", "value": r["ratio"], "unit": "x"},
            {"name": f"{stem}_hekla_p99_ms", "value": r["hekla"]["p99_ms"], "unit": "ms"},
            {"name": f"{stem}_postgres_p99_ms", "value": r["postgres"]["p99_ms"], "unit": "ms"},
        ]
        if r["cpu_ratio"] is not None:
            results += [
                {"name": f"{stem}_hekla_server_cpu_us", "value": r["hekla"]["cpu_us"], "unit": "us/op"},
                {"name": f"{stem}_postgres_server_cpu_us", "value": r["postgres"]["cpu_us"], "unit": "us/op"},
                {"name": f"{stem}_server_cpu_ratio", "value": r["cpu_ratio"], "unit": "x"},
            ]
    # The headline figures: full durability at the highest connection count.
    top = max(connection_counts)
    for workload in ("sales_order", "single_row_commit"):
        headline = next(r for r in rows if r["workload"] == workload and r["durability"] == "durable"
                        and r["connections"] == top)
        results.append({"name": f"{workload}_durable_ratio", "value": headline["ratio"], "unit": "x"})
        results.append({"name": f"{workload}_server_cpu_ratio", "value": headline["cpu_ratio"], "unit": "x"})
    ycsb_a = [r for r in ycsb_rows if r["workload"] == "ycsb_a" and r["connections"] == top]
    if ycsb_a:
        results.append({"name": "ycsb_a_durable_ratio", "value": ycsb_a[0]["ratio"], "unit": "x"})
        results.append({"name": "ycsb_a_server_cpu_ratio", "value": ycsb_a[0]["cpu_ratio"], "unit": "x"})
    (TARGET / "compare.json").write_text(json.dumps({"results": results}, indent=1) + "\n")
    written = [TARGET / "compare.md", TARGET / "compare.json", TARGET / "compare-sales.svg"]
    written[2].write_text(chart("Sales-order workload over the wire: orders/s",
                                [r for r in rows if r["workload"] == "sales_order"], connection_counts,
                                SALES_SERIES))
    if ycsb_rows:
        written.append(TARGET / "compare-ycsb.svg")
        written[3].write_text(chart("YCSB through JDBC, full durability: ops/s", ycsb_rows,
                                    connection_counts, YCSB_SERIES))
    print("\nwrote " + ", ".join(str(path) for path in written))


RED, BLUE = "#c0392b", "#2c5f9e"
SALES_SERIES = [("hekla, durable", {"durability": "durable"}, "hekla", RED, ""),
                ("hekla, delayed", {"durability": "delayed"}, "hekla", RED, "6,4"),
                ("PostgreSQL 15, durable", {"durability": "durable"}, "postgres", BLUE, ""),
                ("PostgreSQL 15, delayed", {"durability": "delayed"}, "postgres", BLUE, "6,4")]
YCSB_SERIES = [("hekla, YCSB A", {"workload": "ycsb_a"}, "hekla", RED, ""),
               ("hekla, YCSB C", {"workload": "ycsb_c"}, "hekla", RED, "6,4"),
               ("PostgreSQL 15, YCSB A", {"workload": "ycsb_a"}, "postgres", BLUE, ""),
               ("PostgreSQL 15, YCSB C", {"workload": "ycsb_c"}, "postgres", BLUE, "6,4")]


def chart(title, rows, connection_counts, series):
    """Throughput by connection count as an SVG line chart: one line per
    (label, the fields its rows match, system, colour, dash pattern)."""
    width, height, left, right, top, bottom = 640, 400, 80, 170, 40, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max(r[system]["per_s"] for r in rows for system in ("hekla", "postgres"))
    step = nice_step(peak / 5)
    y_max = step * (int(peak / step) + 1)

    def x(i):
        return left + (plot_w * (i + 0.5) / len(connection_counts))

    def y(value):
        return top + plot_h * (1 - value / y_max)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14">{title}</text>']
    tick = 0.0
    while tick <= y_max + step / 2:
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:,.0f}</text>')
        tick += step
    for i, c in enumerate(connection_counts):
        out.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{c}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 10}" text-anchor="middle">connections</text>')
    for n, (label, wanted, system, colour, dash) in enumerate(series):
        points = []
        for i, c in enumerate(connection_counts):
            match = [r for r in rows if r["connections"] == c and all(r[k] == v for k, v in wanted.items())]
            if match:
                points.append((x(i), y(match[0][system]["per_s"])))
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash_attr}/>')
        out += [f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}"/>' for px, py in points]
        ly = top + 14 + 20 * n
        out.append(f'<line x1="{width - right + 12}" x2="{width - right + 40}" y1="{ly}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="2"{dash_attr}/>')
        out.append(f'<text x="{width - right + 46}" y="{ly + 4}">{label}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def nice_step(raw):
    """1, 2 or 5 times a power of ten, at least `raw`."""
    magnitude = 10 ** len(str(int(max(raw, 1)))) / 10
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return factor * magnitude
    return 10 * magnitude


if __name__ == "__main__":
    main()
