#!/usr/bin/env bash
# The driver suite's scenario (docs/clients.md) with FreeTDS's `tsql`.
#   scenario.sh [prefix]      (run by clients/run.sh, which sets HEKLA_*)
# Prints one line per check: "ok NAME", "FAIL NAME: why", or "n/a NAME: why"
# for what a command-line client cannot express; exits 1 if any failed.
#
# tsql sends SQL batches only: no parameters, procedures called by EXEC in a
# batch, transactions by BEGIN TRAN/COMMIT/ROLLBACK. It prints each row on a
# line, columns separated by tabs, and errors as "Msg N (severity S, ...".
set -uo pipefail

PREFIX="${1:-tsql}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failures=0

# FreeTDS's "encryption = off" means TLS for the login packet only (what
# SQL Server's "encrypt=false" clients do); "require" means the whole session.
cat >"$WORK/freetds.conf" <<EOF
[hekla_login_tls]
    host = $HEKLA_HOST
    port = $HEKLA_PORT
    tds version = 7.4
    encryption = off
    client charset = UTF-8
[hekla_tls]
    host = $HEKLA_HOST
    port = $HEKLA_PORT
    tds version = 7.4
    encryption = require
    client charset = UTF-8
EOF

# tsql SERVER USER PASSWORD: runs the batches on stdin; stdout and stderr together.
tsql_as() {
    timeout 60 tsql -I "$WORK/freetds.conf" -S "$1" -U "$2" -P "$3" -D hekla -o fhq -t $'\t' 2>&1
}
sa() { tsql_as hekla_login_tls sa "$HEKLA_SA_PASSWORD"; }

# A script of $HEKLA_CLIENTS_SQL with the prefix filled in and tsql's "go".
script() { sed -e "s/{p}/$PREFIX/g" -e 's/^GO[[:space:]]*$/go/' "$HEKLA_CLIENTS_SQL/$1"; }

ok() { echo "ok $1"; }
fail() {
    failures=$((failures + 1))
    echo "FAIL $1: $(echo "$2" | tr '\n\t' '  ' | cut -c1-400)"
}

# expect_output NAME ACTUAL EXPECTED: the check passes when tsql printed exactly EXPECTED.
expect_output() {
    if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "expected [$3], got [$2]"; fi
}
# expect_msg NAME ACTUAL NUMBER [MORE]: tsql printed SQL Server error NUMBER (and MORE).
expect_msg() {
    if ! grep -q "^Msg $3 (severity" <<<"$2"; then
        fail "$1" "expected Msg $3, got [$2]"
    elif [ -n "${4:-}" ] && ! grep -qx "$4" <<<"$2"; then
        fail "$1" "expected a line [$4] too, got [$2]"
    else
        ok "$1"
    fi
}

kv="dbo.${PREFIX}_kv"

expect_output connect_plain "$(printf 'SELECT 1\ngo\n' | sa)" "1"
expect_output connect_tls "$(printf 'SELECT 2\ngo\n' | tsql_as hekla_tls sa "$HEKLA_SA_PASSWORD")" "2"
expect_output create_objects \
    "$({ script setup.sql; printf "SELECT COUNT(*) FROM sys.tables WHERE name = '%s_types' AND is_memory_optimized = 1\ngo\n" "$PREFIX"; } | sa)" \
    "1"

# Literal extremes through the batch path (tsql has no parameters): each value
# comes back as FreeTDS prints the wire format, one SELECT (and line) per
# column. FreeTDS prints date and time types to the minute, floats with 17
# and reals with 9 significant digits, binaries as lower-case hex.
COLUMNS="c_tinyint, c_smallint, c_int, c_bigint, c_bit, c_dec, c_dec0, c_money, c_smallmoney, c_float, c_real, c_date, c_time, c_datetime, c_datetime2, c_dto, c_sdt, c_char, c_varchar, c_nchar, c_nvarchar, c_varcharmax, c_nvarcharmax, c_varbinarymax, c_binary, c_varbinary, c_guid"
repeat() { local i; for ((i = 0; i < $2; i++)); do printf '%s' "$1"; done; }
types_check() {
    local name=$1 id=$2 values=$3 expected=$4 out c
    out="$({
        printf 'SET NOCOUNT ON\ngo\nINSERT INTO dbo.%s_types (id, %s) VALUES (%s, %s)\ngo\n' "$PREFIX" "$COLUMNS" "$id" "$values"
        for c in ${COLUMNS//,/}; do printf 'SELECT %s FROM dbo.%s_types WHERE id = %s\ngo\n' "$c" "$PREFIX" "$id"; done
    } | sa)"
    expect_output "$name" "$out" "$expected"
}

types_check types_max 2 \
    "255, 32767, 2147483647, 9223372036854775807, 1, 9999999999999999999999999999.9999999999, 99999999999999999999999999999999999999, 922337203685477.5807, 214748.3647, 1.7976931348623157E+308, 3.4028235E+38, '9999-12-31', '23:59:59.9999999', '9999-12-31T23:59:59.997', '9999-12-31T23:59:59.9999999', '9999-12-31T23:59:59.9999999+14:00', '2079-06-06T23:59:00', 'abc', N'café', N'żółw', N'日本語ü', REPLICATE(CAST('xy' AS varchar(max)), 5000), REPLICATE(CAST(N'Ωλ' AS nvarchar(max)), 5000), 0xDEADBEEF, 0xDEADBEEF00010203, 0x00FF, '6F9619FF-8B86-D011-B42D-00C04FC964FF'" \
    "$(printf '%s\n' 255 32767 2147483647 9223372036854775807 1 \
        9999999999999999999999999999.9999999999 99999999999999999999999999999999999999 \
        922337203685477.5807 214748.3647 1.7976931348623157e+308 3.40282347e+38 \
        'Dec 31 9999 12:00AM' 'Jan  1 1900 11:59PM' 'Dec 31 9999 11:59PM' 'Dec 31 9999 11:59PM' \
        'Dec 31 9999 11:59PM' 'Jun  6 2079 11:59PM' 'abc       ' 'café' 'żółw      ' '日本語ü' \
        "$(repeat xy 5000)" "$(repeat Ωλ 5000)" deadbeef deadbeef00010203 00ff \
        6F9619FF-8B86-D011-B42D-00C04FC964FF)"
types_check types_min 3 \
    "0, -32768, -2147483648, -9223372036854775808, 0, -9999999999999999999999999999.9999999999, -99999999999999999999999999999999999999, -922337203685477.5808, -214748.3648, -2.2250738585072014E-308, -1.17549435E-38, '0001-01-01', '00:00:00', '1753-01-01', '0001-01-01', '0001-01-01T00:00:00+00:00', '1900-01-01', '', '', '', '', '', '', 0x, 0x0000000000000000, 0x, '00000000-0000-0000-0000-000000000000'" \
    "$(printf '%s\n' 0 -32768 -2147483648 -9223372036854775808 0 \
        -9999999999999999999999999999.9999999999 -99999999999999999999999999999999999999 \
        -922337203685477.5808 -214748.3648 -2.2250738585072014e-308 -1.17549435e-38 \
        'Jan  1 1 12:00AM' 'Jan  1 1900 12:00AM' 'Jan  1 1753 12:00AM' 'Jan  1 1 12:00AM' \
        'Jan  1 1 12:00AM' 'Jan  1 1900 12:00AM' '          ' '' '          ' '' '' '' '' \
        0000000000000000 '' 00000000-0000-0000-0000-000000000000)"
types_check types_null 4 \
    "$(repeat 'NULL, ' 26)NULL" \
    "$(repeat $'NULL\n' 27)"

# EXEC in a batch: tsql prints the RETURNSTATUS token as "(return status = N)"
# unless quiet, so this session runs without -o q (and its prompts, such as
# "5> ", come before it on the line).
proc_out="$(printf 'SET NOCOUNT ON\nDECLARE @d INT\nEXEC dbo.%s_double 21, @d OUTPUT\nSELECT @d\ngo\n' "$PREFIX" |
    timeout 60 tsql -I "$WORK/freetds.conf" -S hekla_login_tls -U sa -P "$HEKLA_SA_PASSWORD" -D hekla -o fh 2>&1)"
if ! grep -qE '(^|> )\(return status = 22\)$' <<<"$proc_out"; then
    fail proc_output "no '(return status = 22)' line in [$proc_out]"
elif ! grep -qx '42' <<<"$proc_out"; then
    fail proc_output "no @d = 42 line in [$proc_out]"
else
    ok proc_output
fi
echo "n/a tvp: tsql sends no parameters (a table variable in T-SQL is not a TVP)"

for outcome in COMMIT ROLLBACK; do
    id=$([ $outcome = COMMIT ] && echo 10 || echo 11)
    want=$([ $outcome = COMMIT ] && echo 1 || echo 0)
    expect_output "tx_$(tr 'A-Z' 'a-z' <<<$outcome)" \
        "$(printf 'SET NOCOUNT ON\nBEGIN TRANSACTION\nINSERT INTO %s (id, v) VALUES (%s, 7)\nSELECT COUNT(*) FROM %s WITH (SNAPSHOT) WHERE id = %s\n%s\nSELECT @@TRANCOUNT\ngo\n' \
            "$kv" $id "$kv" $id $outcome | sa; printf 'SELECT COUNT(*) FROM %s WHERE id = %s\ngo\n' "$kv" $id | sa)" \
        "$(printf '1\n0\n%s' $want)"
done

expect_msg unique_violation "$(printf 'INSERT INTO %s (id, v) VALUES (1, 5)\ngo\n' "$kv" | sa)" 2627

# Two sessions at once: A updates row 1 in a transaction and waits; B's update
# of the same row must fail with 41302; then A rolls back.
write_conflict() {
    local update="UPDATE $kv WITH (SNAPSHOT) SET v = v + 1 WHERE id = 1"
    mkfifo "$WORK/a.in"
    sa <"$WORK/a.in" >"$WORK/a.out" &
    local a_pid=$!
    exec 7>"$WORK/a.in"
    printf 'SET NOCOUNT ON\nBEGIN TRANSACTION\n%s\nSELECT @@ROWCOUNT\ngo\n' "$update" >&7
    for _ in $(seq 100); do grep -qx 1 "$WORK/a.out" && break; sleep 0.1; done
    local b
    b="$(printf 'SET NOCOUNT ON\nBEGIN TRANSACTION\n%s\ngo\nIF @@TRANCOUNT > 0 ROLLBACK\ngo\n' "$update" | sa)"
    printf 'ROLLBACK\nSELECT v FROM %s WHERE id = 1\ngo\nexit\n' "$kv" >&7
    exec 7>&-
    wait $a_pid
    if ! grep -qx 1 "$WORK/a.out"; then
        fail write_conflict "session A's update: [$(cat "$WORK/a.out")]"
    elif ! grep -qx 100 "$WORK/a.out"; then
        fail write_conflict "value after the rollbacks: [$(cat "$WORK/a.out")]"
    else
        expect_msg write_conflict "$b" 41302
    fi
}
write_conflict
echo "n/a cancel: tsql has no way to cancel a running batch"

denied_out="$(script login.sql | sa)"
if [ -n "$denied_out" ]; then
    fail denied "creating the login: [$denied_out]"
else
    reader() { tsql_as hekla_login_tls "${PREFIX}_reader" 'Reader#Pass1'; }
    expect_msg denied "$(printf 'SELECT v FROM %s WHERE id = 1\ngo\nINSERT INTO %s (id, v) VALUES (50, 1)\ngo\n' "$kv" "$kv" | reader)" 229 100
fi

expect_msg wrong_password "$(printf 'SELECT 1\ngo\n' | tsql_as hekla_login_tls sa "${HEKLA_SA_PASSWORD}x")" 18456

exit $((failures > 0))
