#!/usr/bin/env bash
# Parse speed of hekla-parser against sqlparser-rs (MsSqlDialect) on the
# statements of hekla-parser's corpus that both accept, plus the YCSB
# statements. Usage: bench/parse_vs_sqlparser.sh [seconds per run]
set -euo pipefail
cd "$(dirname "$0")/parse_vs_sqlparser"
cargo run --release --quiet -- "${1:-3}"
