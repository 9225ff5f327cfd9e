#!/usr/bin/env bash
# hekla's third-party driver suite: starts a real `hekla serve` on a loopback
# port and runs the same scenario with each driver (see docs/clients.md).
#
#   clients/run.sh                 every driver
#   clients/run.sh java go         only these (java pytds pymssql go node rust tsql)
#
# Each driver's scenario is a separate process with a timeout; it prints one
# line per check ("ok NAME", "FAIL NAME: why", "n/a NAME: why" for what the
# driver's API cannot express). This script prefixes them with the driver's
# name, prints a summary and exits non-zero if any check or driver failed.
# A failure listed in clients/expected_failures.txt (a gap of hekla's server
# with its reason) is printed as such and does not fail the run; a listed
# check that passes is named in the summary so its line gets removed.
# Drivers are fetched from their registries on first use (Maven, PyPI, Go
# modules, npm, crates.io) and cached; FreeTDS's `tsql` comes from apt
# (freetds-bin), which .ci/run installs.
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CLIENTS="$ROOT/clients"
WORK="$ROOT/target/clients"
ALL_DRIVERS=(java pytds pymssql go node rust tsql)
SCENARIO_TIMEOUT=${HEKLA_CLIENTS_TIMEOUT:-120}
BUILD_TIMEOUT=900

drivers=("$@")
[ ${#drivers[@]} -eq 0 ] && drivers=("${ALL_DRIVERS[@]}")
for d in "${drivers[@]}"; do
    case " ${ALL_DRIVERS[*]} " in
        *" $d "*) ;;
        *) echo "clients: unknown driver '$d' (known: ${ALL_DRIVERS[*]})" >&2; exit 2 ;;
    esac
done

[ -f "$HOME/.cargo/env" ] && source "$HOME/.cargo/env"
mkdir -p "$WORK"

log() { echo "clients: $*"; }

# ---- building each driver's scenario (fetches the pinned driver on first use)
build_java() {
    (cd "$CLIENTS/java" && mvn -B -q package dependency:copy-dependencies \
        -DoutputDirectory=target/dependency)
}
build_python() {
    local venv="$WORK/venv"
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv" || return 1
    fi
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$CLIENTS/python/requirements.txt"
}
build_go() {
    (cd "$CLIENTS/go" && go build -o "$WORK/go-scenario" .)
}
build_node() {
    (cd "$CLIENTS/node" && npm ci --no-audit --no-fund --silent)
}
build_rust() {
    CARGO_TARGET_DIR="$ROOT/target/clients-rust" \
        cargo build --quiet --locked --manifest-path "$CLIENTS/rust/Cargo.toml"
}
build_tsql() {
    command -v tsql >/dev/null || { echo "tsql not found: apt-get install freetds-bin" >&2; return 1; }
}

# ---- running one driver's scenario: its command line
scenario_command() {
    case "$1" in
        java) echo "java -cp $CLIENTS/java/target/classes:$CLIENTS/java/target/dependency/* hekla.clients.Scenario" ;;
        pytds|pymssql) echo "$WORK/venv/bin/python $CLIENTS/python/scenario.py $1" ;;
        go) echo "$WORK/go-scenario" ;;
        node) echo "node $CLIENTS/node/scenario.js" ;;
        rust) echo "$ROOT/target/clients-rust/debug/hekla-clients-rust" ;;
        tsql) echo "bash $CLIENTS/freetds/scenario.sh" ;;
    esac
}

# `timeout` runs the build functions in a child bash.
export ROOT CLIENTS WORK
export -f build_java build_python build_go build_node build_rust build_tsql

build_of() {
    case "$1" in
        pytds|pymssql) echo build_python ;;
        *) echo "build_$1" ;;
    esac
}

# ---- building every requested driver first (the first run fetches them)
declare -A built=()
for d in "${drivers[@]}"; do
    build="$(build_of "$d")"
    [ -n "${built[$build]:-}" ] && continue
    start=$(date +%s)
    if timeout "$BUILD_TIMEOUT" bash -c "$build" >"$WORK/$build.log" 2>&1; then
        built[$build]=ok
    else
        built[$build]=failed
    fi
    log "$build: ${built[$build]} in $(( $(date +%s) - start )) s"
done

# The reason clients/expected_failures.txt gives for DRIVER CHECK, if listed.
expected_failure() {
    awk -v d="$1" -v c="$2" '$1 == d && $2 == c { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' \
        "$CLIENTS/expected_failures.txt"
}

# ---- the server
# HEKLA_BIN runs another build of hekla (say, a release build) instead.
if [ -z "${HEKLA_BIN:-}" ]; then
    log "building hekla"
    (cd "$ROOT" && cargo build --quiet -p hekla) || { log "FAIL: cargo build -p hekla"; exit 1; }
    HEKLA_BIN="$ROOT/target/debug/hekla"
fi

DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/hekla-clients.XXXXXX")"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
SERVER_LOG="$WORK/server.log"
export HEKLA_HOST=127.0.0.1 HEKLA_PORT="$PORT" HEKLA_DATA_DIR="$DATA_DIR"
export HEKLA_SA_PASSWORD="Sa#$(python3 -c 'import secrets; print(secrets.token_hex(8))')"
export HEKLA_CLIENTS_SQL="$CLIENTS/sql"

SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$SERVER_PID" 2>/dev/null
    fi
    rm -rf "$DATA_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$HEKLA_BIN" serve --data-dir "$DATA_DIR" --listen "127.0.0.1:$PORT" >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!
listening=no
for _ in $(seq 300); do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
    if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then listening=yes; break; fi
    sleep 0.1
done
if [ "$listening" != yes ]; then
    log "FAIL: hekla serve did not listen on 127.0.0.1:$PORT; its log:"
    cat "$SERVER_LOG"
    exit 1
fi
log "hekla serve listening on 127.0.0.1:$PORT (pid $SERVER_PID, data dir $DATA_DIR)"

# ---- the drivers
passed=0 failed=0 notapplicable=0 xfailed=0
stale=()
failed_drivers=()
for d in "${drivers[@]}"; do
    build="$(build_of "$d")"
    if [ "${built[$build]}" != ok ]; then
        echo "[$d] FAIL build: see below"
        tail -n 30 "$WORK/$build.log"
        failed=$((failed + 1)); failed_drivers+=("$d")
        continue
    fi

    start=$(date +%s)
    out="$WORK/$d.out"
    # shellcheck disable=SC2046 # the command line is split on purpose
    timeout --kill-after=10 "$SCENARIO_TIMEOUT" $(scenario_command "$d") "$d" >"$out" 2>"$WORK/$d.err"
    rc=$?
    d_pass=0 d_fail=0 reported_failures=0
    while IFS= read -r line; do
        check="$(cut -d' ' -f2 <<<"$line" | tr -d :)"
        known="$(expected_failure "$d" "$check")"
        case "$line" in
            "ok "*)
                d_pass=$((d_pass + 1))
                if [ -n "$known" ]; then
                    line="$line (listed in clients/expected_failures.txt: remove the line)"
                    stale+=("$d $check")
                fi ;;
            "FAIL "*)
                reported_failures=$((reported_failures + 1))
                if [ -n "$known" ]; then
                    line="expected failure (${known}): ${line#FAIL }"
                    xfailed=$((xfailed + 1))
                else
                    d_fail=$((d_fail + 1))
                fi ;;
            "n/a "*) notapplicable=$((notapplicable + 1)) ;;
            *) continue ;;
        esac
        echo "[$d] $line"
    done <"$out"
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        echo "[$d] FAIL scenario: timed out after ${SCENARIO_TIMEOUT} s; the checks after the last line above did not run"
        d_fail=$((d_fail + 1))
    elif [ $rc -ne 0 ] && [ $reported_failures -eq 0 ]; then
        # A crash or an exit status the checks do not explain.
        echo "[$d] FAIL scenario: exit status $rc; stderr:"
        tail -n 20 "$WORK/$d.err"
        d_fail=$((d_fail + 1))
    fi
    passed=$((passed + d_pass)); failed=$((failed + d_fail))
    [ $d_fail -gt 0 ] && failed_drivers+=("$d")
    log "$d: $d_pass passed, $d_fail failed in $(( $(date +%s) - start )) s"
done

if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    log "FAIL: hekla serve is no longer running; the end of its log:"
    tail -n 40 "$SERVER_LOG"
    failed=$((failed + 1))
fi
[ ${#failed_drivers[@]} -gt 0 ] && log "drivers with failures: ${failed_drivers[*]} (server log: $SERVER_LOG)"
echo "clients: $notapplicable not applicable, $xfailed expected failures (clients/expected_failures.txt)"
[ ${#stale[@]} -gt 0 ] && log "listed as expected failures but passing now (remove them from clients/expected_failures.txt): ${stale[*]}"
echo "clients: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
