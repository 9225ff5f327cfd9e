#!/usr/bin/env bash
# Runs `hekla bench sql` and the same statements on PostgreSQL in one run:
# a point SELECT by key, a single-row UPDATE by key, a 5-row INSERT, one
# client. PostgreSQL gets each statement as text (pgbench -M simple), as
# hekla's session does, over a Unix socket, with durability off (hekla's
# table is SCHEMA_ONLY). Then the analytic queries: COUNT(*) over 5,000,000
# rows (003) and the SMALL/MEDIUM/LARGE join (001), best of REPEAT runs,
# PostgreSQL without parallel workers (the articles' MAXDOP 1), timed by
# psql's \timing; and GROUP BY over 2,000,000 rows in 20,000 groups, on a
# column with a range (btree) index and on one without, all groups and
# the first 10 in key order, and the 10 rows of the largest value of the
# plain column (a top-N sort); and the seed's sales-order insert procedure
# (5 lines per order) against a PL/pgSQL function taking the lines as an
# array, one call per transaction.
# Usage: bench/sql_vs_postgres.sh [ROWS] [SECONDS] [REPEAT]
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-100000}
SECONDS_EACH=${2:-5}
REPEAT=${3:-5}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
WORK=$(mktemp -d /tmp/hekla-pg.XXXXXX)
chmod 777 "$WORK"
PORT=55433
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
cleanup() { as_pg "$PGBIN/pg_ctl -D $WORK/data -m immediate stop" >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

cargo build --release --quiet -p hekla
HEKLA=$(./target/release/hekla bench sql --rows "$ROWS" --seconds "$SECONDS_EACH" --repeat "$REPEAT" --json)

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
# The sales-order procedure: the same tables (unlogged), the order lines
# as an array of a composite type, one call per transaction.
as_pg "$PSQL" <<'SQL'
CREATE UNLOGGED TABLE product (productid int PRIMARY KEY, name varchar(50) NOT NULL, listprice numeric(19,4) NOT NULL);
CREATE UNLOGGED TABLE specialoffer (specialofferid int PRIMARY KEY, discountpct numeric(10,4) NOT NULL DEFAULT 0);
CREATE UNLOGGED TABLE salesorderheader (salesorderid serial PRIMARY KEY, orderdate timestamp NOT NULL,
  duedate timestamp NOT NULL, status smallint NOT NULL DEFAULT 1, customerid int NOT NULL,
  shipmethodid int NOT NULL, subtotal numeric(19,4) NOT NULL DEFAULT 0, comment varchar(128));
CREATE INDEX ix_customer ON salesorderheader USING hash (customerid);
CREATE UNLOGGED TABLE salesorderdetail (salesorderid int NOT NULL, salesorderdetailid bigserial,
  orderqty smallint NOT NULL CHECK (orderqty > 0), productid int NOT NULL, specialofferid int NOT NULL,
  unitprice numeric(19,4) NOT NULL, unitpricediscount numeric(19,4) NOT NULL DEFAULT 0,
  PRIMARY KEY (salesorderid, salesorderdetailid));
CREATE TYPE detail_line AS (orderqty smallint, productid int, specialofferid int);
CREATE FUNCTION insert_sales_order(due timestamp, customer int, ship int, lines detail_line[]) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE id int; sub numeric(19,4);
BEGIN
  SELECT coalesce(sum(p.listprice * (1 - coalesce(so.discountpct, 0)) * l.orderqty), 0) INTO sub
  FROM unnest(lines) l JOIN product p ON l.productid = p.productid
  LEFT JOIN specialoffer so ON l.specialofferid = so.specialofferid;
  INSERT INTO salesorderheader (orderdate, duedate, customerid, shipmethodid, subtotal)
  VALUES (now(), due, customer, ship, sub) RETURNING salesorderid INTO id;
  INSERT INTO salesorderdetail (salesorderid, orderqty, productid, specialofferid, unitprice, unitpricediscount)
  SELECT id, l.orderqty, l.productid, l.specialofferid, p.listprice, p.listprice * coalesce(so.discountpct, 0)
  FROM unnest(lines) l JOIN product p ON l.productid = p.productid
  LEFT JOIN specialoffer so ON l.specialofferid = so.specialofferid;
  RETURN id;
END $$;
INSERT INTO product VALUES (1, 'Bike', 1000), (2, 'Helmet', 50), (3, 'Bottle', 5), (4, 'Tire', 30), (5, 'Lamp', 20);
INSERT INTO specialoffer VALUES (1, 0), (2, 0.1);
SQL
cat > "$WORK/order.sql" <<'SQL'
\set c random(0, 9999)
SELECT insert_sales_order('2026-12-01', :c, 3, ARRAY[(1,1,1),(2,2,2),(3,3,1),(4,4,2),(5,5,1)]::detail_line[]);
SQL
chmod 644 "$WORK"/*.sql
tps() { as_pg "$PGBENCH -f $WORK/$1.sql" | awk '/^tps/ { print $3; exit }'; }
PG_SELECT=$(tps select); PG_UPDATE=$(tps update); PG_INSERT=$(tps insert); PG_ORDER=$(tps order)

# The analytic queries' tables, loaded as the articles load them.
as_pg "$PSQL" <<SQL
CREATE TABLE sales_order_detail_medium (SalesOrderID int NOT NULL, SalesOrderDetailID int NOT NULL,
  CarrierTrackingNumber varchar(25), OrderQty smallint NOT NULL, ProductID int NOT NULL, UnitPrice money NOT NULL);
INSERT INTO sales_order_detail_medium SELECT 43659 + g / 4, g, '4911-403C-98', g % 10 + 1, 700 + g % 300, 20.5
  FROM generate_series(1, 5000000) g;
CREATE INDEX ix ON sales_order_detail_medium USING hash (SalesOrderID);
CREATE TABLE small (id_u numeric(18, 0));
INSERT INTO small SELECT 5 * g FROM generate_series(1, 100) g;
CREATE TABLE medium (id_a numeric(18, 0));
INSERT INTO medium SELECT g FROM generate_series(1, 600000) g;
CREATE TABLE large (id_a numeric(18, 0), id_u numeric(18, 0), filler varchar(100));
INSERT INTO large SELECT 2 * (g / 4), g % 500, repeat('Z', 100) FROM generate_series(1, 8000000) g;
CREATE INDEX ia ON large (id_a);
CREATE INDEX iu ON large (id_u);
CREATE TABLE g (id int PRIMARY KEY, k int NOT NULL, h int NOT NULL, v int NOT NULL);
INSERT INTO g SELECT n, n % 20000, n % 20000, n % 7 FROM generate_series(1, 2000000) n;
CREATE INDEX ix_k ON g (k);
VACUUM ANALYZE;
SQL
best_ms() {
  for _ in $(seq "$REPEAT"); do echo "$1"; done > "$WORK/query.sql"
  chmod 644 "$WORK/query.sql"
  as_pg "$PSQL -c 'SET max_parallel_workers_per_gather = 0' -c '\\timing on' -f $WORK/query.sql" \
    | awk '/^Time:/ { print $2 }' | sort -n | head -1
}
PG_COUNT=$(best_ms "SELECT count(*) FROM sales_order_detail_medium;")
PG_JOIN=$(best_ms "SELECT large.id_u FROM small JOIN large ON small.id_u = large.id_u JOIN medium ON large.id_a = medium.id_a;")
PG_GROUP_INDEXED=$(best_ms "SELECT k, count(*), sum(v) FROM g GROUP BY k;")
PG_GROUP_PLAIN=$(best_ms "SELECT h, count(*), sum(v) FROM g GROUP BY h;")
PG_TOP_INDEXED=$(best_ms "SELECT k, count(*) FROM g GROUP BY k ORDER BY k LIMIT 10;")
PG_TOP_PLAIN=$(best_ms "SELECT h, count(*) FROM g GROUP BY h ORDER BY h LIMIT 10;")
PG_TOP_SORT=$(best_ms "SELECT id, h FROM g ORDER BY h DESC, id LIMIT 10;")

python3 - "$HEKLA" "$PG_SELECT" "$PG_UPDATE" "$PG_INSERT" "$PG_ORDER" "$PG_COUNT" "$PG_JOIN" \
  "$PG_GROUP_INDEXED" "$PG_GROUP_PLAIN" "$PG_TOP_INDEXED" "$PG_TOP_PLAIN" "$PG_TOP_SORT" <<'PY'
import json, sys
hekla = {r["name"]: r["value"] for r in json.loads(sys.argv[1])["results"]}
pg = dict(zip(["point_select_per_s", "update_by_key_per_s", "insert_5_rows_per_s", "sales_order_per_s"],
              map(float, sys.argv[2:6])))
print(f"{'statement':<24} {'hekla':>12} {'PostgreSQL':>12} {'ratio':>7}")
for name, value in pg.items():
    print(f"{name:<24} {hekla[name]:>12,.0f} {value:>12,.0f} {hekla[name] / value:>6.1f}x")
print(f"{'query (best ms)':<24} {'hekla':>12} {'PostgreSQL':>12} {'ratio':>7}")
queries = ["count_star_best_ms", "three_table_join_best_ms", "group_by_stream_best_ms",
           "group_by_hash_best_ms", "group_by_top_10_stream_best_ms", "group_by_top_10_hash_best_ms",
           "top_10_sort_best_ms"]
for name, value in zip(queries, map(float, sys.argv[6:13])):
    print(f"{name:<30} {hekla[name]:>12,.1f} {value:>12,.1f} {value / max(hekla[name], 0.01):>6.1f}x")
PY
