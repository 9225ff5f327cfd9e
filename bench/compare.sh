#!/usr/bin/env bash
# hekla and PostgreSQL 15 side by side, in one run on this machine, over
# the wire: the sales-order sample's workload (hekla stress against
# pgbench running the same batch through a PL/pgSQL twin of the insert
# procedure) and single-row durable commits, at each connection count,
# with full durability and then with delayed durability / asynchronous
# commit on both. Prints one table of throughput (rows counted in the
# tables over wall-clock time), p99 latency and server CPU per operation,
# and writes target/compare.md, target/compare.json and
# target/compare-sales.svg (with --ycsb also target/compare-ycsb.svg).
# See docs/benchmarks.md.
# Usage: bench/compare.sh [--quick] [--connections "2 64"] [--ycsb]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p hekla
exec python3 bench/compare/compare.py "$@"
