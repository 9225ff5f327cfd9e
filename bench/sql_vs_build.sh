#!/usr/bin/env bash
# Runs `hekla bench sql` on this checkout and on an earlier commit in one
# run, to show what a change did: the earlier commit is checked out into a
# temporary worktree and built there (release), then the two binaries run
# the same benchmark alternately, RUNS times each, so that drift of the
# shared machine falls on both. Prints each figure's median per build and
# the ratio (this build / the earlier one; for times, the earlier one /
# this build, so above 1 always means faster now).
# The earlier commit must have the benchmark cases compared (bcee985 or
# later has the parameterised and the ostress-script cases).
# Usage: bench/sql_vs_build.sh REV [RUNS] [-- bench sql arguments]
# BEFORE_BIN=path reuses an earlier build of REV instead of building it.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:?usage: bench/sql_vs_build.sh REV [RUNS] [-- bench sql arguments]}
shift
RUNS=3
if [ $# -gt 0 ] && [ "$1" != "--" ]; then RUNS=$1; shift; fi
[ "${1:-}" = "--" ] && shift
ARGS=("$@")
[ ${#ARGS[@]} -eq 0 ] && ARGS=(--rows 100000 --seconds 3 --count-rows 1000000 --large-rows 1000000 --group-rows 1000000 --repeat 3)

BEFORE_DIR=$(mktemp -d /tmp/hekla-before.XXXXXX)
OUT=$(mktemp -d /tmp/hekla-compare.XXXXXX)
cleanup() { git worktree remove --force "$BEFORE_DIR" >/dev/null 2>&1 || true; rm -rf "$BEFORE_DIR" "$OUT"; }
trap cleanup EXIT
if [ -z "${BEFORE_BIN:-}" ]; then
  git worktree add --quiet --detach "$BEFORE_DIR" "$REV"
  (cd "$BEFORE_DIR" && cargo build --release --quiet -p hekla)
  BEFORE_BIN="$BEFORE_DIR/target/release/hekla"
fi
cargo build --release --quiet -p hekla

for run in $(seq "$RUNS"); do
  "$BEFORE_BIN" bench sql "${ARGS[@]}" --json > "$OUT/before.$run.json"
  ./target/release/hekla bench sql "${ARGS[@]}" --json > "$OUT/after.$run.json"
done

python3 - "$OUT" "$RUNS" "$REV" "$(git rev-parse --short HEAD)" <<'PY'
import json, statistics, sys
out, runs, rev, head = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def medians(which):
    figures = {}
    order = []
    for run in range(1, runs + 1):
        for f in json.load(open(f"{out}/{which}.{run}.json"))["results"]:
            if f["name"] not in figures:
                order.append(f["name"])
            figures.setdefault(f["name"], []).append((f["value"], f["unit"]))
    return order, {k: (statistics.median(v for v, _ in vs), vs[0][1]) for k, vs in figures.items()}
order, after = medians("after")
_, before = medians("before")
print(f"{'figure':<44} {rev:>14} {head:>14}  ratio  (median of {runs} runs)")
for name in order:
    if name not in before:
        print(f"{name:<44} {'-':>14} {after[name][0]:>14,.1f}")
        continue
    (b, unit), (a, _) = before[name], after[name]
    if b == 0 or a == 0:
        ratio = float("nan")
    else:
        ratio = b / a if unit in ("ms", "s") else a / b
    print(f"{name:<44} {b:>14,.1f} {a:>14,.1f}  {ratio:5.2f}x {unit}")
PY
