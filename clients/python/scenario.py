"""The driver suite's scenario (docs/clients.md) with python-tds (pytds) or pymssql.

    scenario.py pytds | pymssql

Prints one line per check: "ok NAME", "FAIL NAME: why", or "n/a NAME: why"
for what the driver's API cannot express; exits 1 if any check failed.
The two drivers differ in how they connect, type parameters, call procedures,
cancel and report errors; `PytdsDriver` and `PymssqlDriver` hold those
differences, the checks are shared.
"""

import datetime
import os
import re
import sys
import time
import uuid
from decimal import Decimal

HOST = os.environ["HEKLA_HOST"]
PORT = int(os.environ["HEKLA_PORT"])
SA_PASSWORD = os.environ["HEKLA_SA_PASSWORD"]
SQL_DIR = os.environ["HEKLA_CLIENTS_SQL"]


class NotApplicable(Exception):
    """The driver's API has no way to express this check."""


class PytdsDriver:
    import pytds
    import pytds.tds_base
    import pytds.tds_types

    name = "pytds"

    def connect(self, user="sa", password=SA_PASSWORD, tls=False, autocommit=True, timeout=None):
        kwargs = {}
        if tls:
            # pytds turns TLS on only with a CA file and checks the chain:
            # the server's own self-signed certificate is that CA.
            kwargs = {"cafile": server_certificate(), "validate_host": False}
        return self.pytds.connect(dsn=HOST, port=PORT, user=user, password=password, database="hekla",
                                  autocommit=autocommit, timeout=timeout, login_timeout=10, **kwargs)

    def error_number(self, exc):
        if isinstance(exc, self.pytds.tds_base.Error) and getattr(exc, "number", 0):
            return exc.number
        return None

    def typed_null(self, declaration):
        return self.pytds.tds_base.Param(type=self.pytds.tds_types.sql_type_by_declaration(declaration), value=None)

    def call_double(self, cursor, x):
        outputs = cursor.callproc(f"dbo.{PREFIX}_double", (x, self.pytds.output(param_type=int)))
        return cursor.get_proc_return_status(), outputs[1]

    keeps_connection_after_timeout = True

    def binary(self, value):
        return self.pytds.Binary(value)  # plain bytes would be sent as a string

    def sendable(self, value):
        return value

    def call_sum_lines(self, cursor, lines):
        # Without columns pytds guesses each column's type from the first row
        # (decimal(3,2) for 1.25), too narrow for the rows after it.
        columns = [self.pytds.tds_base.Column(type=self.pytds.tds_types.sql_type_by_declaration(d))
                   for d in ("int", "nvarchar(40)", "decimal(18,4)")]
        tvp = self.pytds.TableValuedParam(type_name=f"dbo.{PREFIX}_line", columns=columns, rows=lines)
        cursor.callproc(f"dbo.{PREFIX}_sum_lines", (tvp,))
        return cursor.fetchone()



class PymssqlDriver:
    import pymssql

    name = "pymssql"

    def connect(self, user="sa", password=SA_PASSWORD, tls=False, autocommit=True, timeout=0):
        return self.pymssql.connect(server=HOST, port=str(PORT), user=user, password=password, database="hekla",
                                    autocommit=autocommit, timeout=timeout or 0, login_timeout=10,
                                    tds_version="7.4", encryption="require" if tls else "off")

    def error_number(self, exc):
        # pymssql's exceptions carry (number, message) as their arguments, or
        # as one tuple argument when raised at connect.
        if isinstance(exc, self.pymssql.Error) and exc.args:
            first = exc.args[0]
            if isinstance(first, tuple) and first and isinstance(first[0], int):
                return first[0]
            if isinstance(first, int):
                return first
        return None

    # pymssql's error handler answers a timeout with INT_CANCEL, which FreeTDS's
    # db-lib treats as fatal: the connection is closed ("DBPROCESS is dead").
    keeps_connection_after_timeout = False

    def binary(self, value):
        return bytearray(value)  # pymssql quotes b"" as '' (a string), bytearray(b"") as 0x

    def sendable(self, value):
        """pymssql quotes a naive datetime with milliseconds (its use_datetime2
        option sends microseconds, which a datetime column refuses as SQL Server
        does: Msg 241), so the scenario's naive datetimes have milliseconds."""
        if isinstance(value, datetime.datetime) and value.tzinfo is None:
            return value.replace(microsecond=value.microsecond // 1000 * 1000)
        return value

    def typed_null(self, declaration):
        return None  # parameters are quoted into the text: NULL needs no type

    def call_double(self, cursor, x):
        outputs = cursor.callproc(f"dbo.{PREFIX}_double", (x, self.pymssql.output(int)))
        return cursor.returnvalue, outputs[1]

    def call_sum_lines(self, cursor, lines):
        raise NotApplicable("pymssql has no table-valued parameter type")



def server_certificate():
    """The certificate `hekla serve` generated in its data directory."""
    data_dir = os.environ["HEKLA_DATA_DIR"]
    for root, _dirs, files in os.walk(data_dir):
        for f in files:
            if f.endswith((".crt", ".pem")) and "key" not in f:
                return os.path.join(root, f)
    raise AssertionError(f"no certificate (*.crt/*.pem) under {data_dir}")


# ---- helpers

def expect(condition, what):
    if not condition:
        raise AssertionError(what)


def expect_equal(expected, actual, what):
    expect(expected == actual, f"{what}: expected {short(expected)}, got {short(actual)}")


def expect_error(number, body):
    try:
        body()
    except Exception as exc:  # noqa: BLE001 - the driver's error type is checked below
        got = DRIVER.error_number(exc)
        expect(got is not None, f"expected the driver's error type with Msg {number}, got {type(exc).__name__}: {exc}")
        expect(got == number, f"expected Msg {number}, got Msg {got}: {exc}")
        return
    raise AssertionError(f"expected Msg {number}, got no error")


def short(value):
    s = f"bytes[{len(value)}]" if isinstance(value, (bytes, bytearray)) else repr(value)
    return s if len(s) <= 80 else f"{s[:77]}...({len(s)} chars)"


def query_value(conn, sql, params=None):
    cursor = conn.cursor()
    cursor.execute(sql, params) if params is not None else cursor.execute(sql)
    row = cursor.fetchone()
    expect(row is not None, f"no row from {sql}")
    return row[0]


def run_script(conn, file):
    with open(os.path.join(SQL_DIR, file), encoding="utf-8") as f:
        text = f.read().replace("{p}", PREFIX)
    cursor = conn.cursor()
    for batch in re.split(r"(?m)^GO\s*$", text):
        if batch.strip():
            cursor.execute(batch)


# ---- the checks

def connect_and_select(tls, value):
    conn = DRIVER.connect(tls=tls)
    try:
        expect_equal(value, query_value(conn, f"SELECT {value}"), "SELECT")
    finally:
        conn.close()


def create_objects():
    conn = DRIVER.connect()
    run_script(conn, "setup.sql")
    count = query_value(conn, "SELECT COUNT(*) FROM sys.tables WHERE name = %s AND is_memory_optimized = 1",
                        (f"{PREFIX}_types",))
    expect_equal(1, count, "memory-optimized table in sys.tables")
    conn.close()


COLUMNS = ["c_tinyint", "c_smallint", "c_int", "c_bigint", "c_bit", "c_dec", "c_dec0", "c_money", "c_smallmoney",
           "c_float", "c_real", "c_date", "c_time", "c_datetime", "c_datetime2", "c_dto", "c_sdt",
           "c_char", "c_varchar", "c_nchar", "c_nvarchar", "c_varcharmax", "c_nvarcharmax", "c_varbinarymax",
           "c_binary", "c_varbinary", "c_guid"]

# The declared types of the columns whose NULL must be sent typed (an
# nvarchar NULL does not convert to them implicitly).
TYPED_NULLS = {"c_varbinarymax": "varbinary(max)", "c_binary": "varbinary(8)", "c_varbinary": "varbinary(8000)"}


def letters(n):
    """The scenario's long string: a..z cycling, n of them."""
    return "".join(chr(ord("a") + i % 26) for i in range(n))


def pattern(n, step):
    """The scenario's byte pattern: byte i is (i * step) mod 256."""
    return bytes((i * step) % 256 for i in range(n))


# Python's datetime has microseconds, so time(7)/datetime2(7) values are sent
# with six fractional digits and must come back the same.
MAX_ROW = [
    255, 32767, 2147483647, 9223372036854775807, True,
    Decimal("9999999999999999999999999999.9999999999"), Decimal("99999999999999999999999999999999999999"),
    Decimal("922337203685477.5807"), Decimal("214748.3647"),
    1.7976931348623157e308, 3.4028234663852886e38,
    datetime.date(9999, 12, 31), datetime.time(23, 59, 59, 999999),
    datetime.datetime(9999, 12, 31, 23, 59, 59, 997000), datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
    datetime.datetime(9999, 12, 31, 23, 59, 59, 999999, datetime.timezone(datetime.timedelta(hours=14))),
    datetime.datetime(2079, 6, 6, 23, 59),
    "abc       ", "é" * 10 + letters(7990), "żółw      ", "日本語ü" * 1000,
    "é" + letters(99_999), "Ωλφα" * 25_000, pattern(300_000, 1),
    bytes([0xDE, 0xAD, 0xBE, 0xEF, 0, 1, 2, 0xFF]), pattern(8000, 7),
    uuid.UUID("6F9619FF-8B86-D011-B42D-00C04FC964FF"),
]
MIN_ROW = [
    0, -32768, -2147483648, -9223372036854775808, False,
    Decimal("-9999999999999999999999999999.9999999999"), Decimal("-99999999999999999999999999999999999999"),
    Decimal("-922337203685477.5808"), Decimal("-214748.3648"),
    -2.2250738585072014e-308, -1.1754943508222875e-38,
    datetime.date(1, 1, 1), datetime.time(0, 0),
    datetime.datetime(1753, 1, 1), datetime.datetime(1, 1, 1),
    datetime.datetime(1, 1, 1, tzinfo=datetime.timezone.utc),
    datetime.datetime(1900, 1, 1),
    " " * 10, "", " " * 10, "", "", "", b"",
    bytes(8), b"", uuid.UUID(int=0),
]


def round_trip(row_id, row):
    row = [DRIVER.sendable(v) for v in row]
    conn = DRIVER.connect()
    cursor = conn.cursor()
    params = [row_id] + [send_value(c, v) for c, v in zip(COLUMNS, row)]
    markers = ", ".join(["%s"] * len(params))
    cursor.execute(f"INSERT INTO dbo.{PREFIX}_types (id, {', '.join(COLUMNS)}) VALUES ({markers})", tuple(params))
    expect_equal(1, cursor.rowcount, "rows inserted")
    cursor.execute(f"SELECT {', '.join(COLUMNS)} FROM dbo.{PREFIX}_types WHERE id = %s", (row_id,))
    got = cursor.fetchone()
    expect(got is not None, f"row {row_id} not found")
    wrong = [f"{c} expected {short(want)} got {short(have)}"
             for c, want, have in zip(COLUMNS, row, got) if not same_value(want, have)]
    expect(not wrong, "; ".join(wrong))
    conn.close()


def send_value(column, value):
    if value is None:
        return DRIVER.typed_null(TYPED_NULLS[column]) if column in TYPED_NULLS else None
    return DRIVER.binary(value) if isinstance(value, bytes) else value


def same_value(want, have):
    if isinstance(want, datetime.datetime) and want.tzinfo is not None:
        return isinstance(have, datetime.datetime) and have.tzinfo is not None \
            and want == have and want.utcoffset() == have.utcoffset()
    return type(want) is type(have) and want == have if want is not None else have is None


def proc_output():
    conn = DRIVER.connect()
    status, doubled = DRIVER.call_double(conn.cursor(), 21)
    expect_equal((22, 42), (status, doubled), "(return status, @doubled)")
    conn.close()


def tvp():
    conn = DRIVER.connect()
    lines = [(1, "äpfel", Decimal("1.2500")), (2, "birnen", Decimal("10.0001")), (3, "zitronen", Decimal("-0.5000"))]
    row = DRIVER.call_sum_lines(conn.cursor(), lines)
    expect_equal((3, Decimal("10.7501"), "zitronen"), tuple(row), "(line_count, total, last_item)")
    conn.close()


def transaction(commit):
    row_id = 10 if commit else 11
    count = f"SELECT COUNT(*) FROM dbo.{PREFIX}_kv WHERE id = {row_id}"
    conn = DRIVER.connect(autocommit=False)
    other = DRIVER.connect()
    conn.cursor().execute(f"INSERT INTO dbo.{PREFIX}_kv (id, v) VALUES (%s, 7)", (row_id,))
    expect_equal(1, query_value(conn, count.replace("_kv", "_kv WITH (SNAPSHOT)")), "own insert visible inside")
    expect_equal(0, query_value(other, count), "uncommitted insert seen by another connection")
    if commit:
        conn.commit()
    else:
        conn.rollback()
    expect_equal(1 if commit else 0, query_value(other, count), "rows after the transaction")
    conn.close()
    other.close()


def unique_violation():
    conn = DRIVER.connect()
    expect_error(2627, lambda: conn.cursor().execute(f"INSERT INTO dbo.{PREFIX}_kv (id, v) VALUES (%s, %s)", (1, 5)))
    expect_equal(100, query_value(conn, f"SELECT v FROM dbo.{PREFIX}_kv WHERE id = 1"), "row 1 unchanged")
    conn.close()


def write_conflict():
    update = f"UPDATE dbo.{PREFIX}_kv WITH (SNAPSHOT) SET v = v + 1 WHERE id = 1"
    a = DRIVER.connect(autocommit=False)
    b = DRIVER.connect(autocommit=False)
    cursor_a = a.cursor()
    cursor_a.execute(update)
    expect_equal(1, cursor_a.rowcount, "first update's row count")
    expect_error(41302, lambda: b.cursor().execute(update))
    rollback_aborted(b)
    a.rollback()
    a.close()
    b.close()
    fresh = DRIVER.connect()
    expect_equal(100, query_value(fresh, f"SELECT v FROM dbo.{PREFIX}_kv WHERE id = 1"), "value after both rolled back")
    fresh.close()


def rollback_aborted(conn):
    """Rolls back a transaction that 41302 ("The transaction was aborted") may have ended
    already: then the server answers the rollback with 3903, which is no failure."""
    try:
        conn.rollback()
    except Exception as exc:  # noqa: BLE001 - anything but 3903 is re-raised
        if DRIVER.error_number(exc) != 3903:
            raise


# Both drivers cancel through their query timeout: it sends ATTENTION when no
# reply has come for that long, which any DONE token resets (an assigning
# SELECT in a loop sends one per row); a WAITFOR sends nothing until it ends.
# (pytds' cursor.cancel() would read the socket from a second thread while
# execute() reads it.)
def cancel():
    conn = DRIVER.connect(timeout=1)
    start = time.monotonic()
    try:
        conn.cursor().execute("WAITFOR DELAY '01:00:00'")
    except Exception as exc:  # noqa: BLE001 - any error ends the wait; its cause is printed on failure
        elapsed = time.monotonic() - start
        expect(elapsed < 5, f"cancel took {elapsed:.1f} s ({exc})")
    else:
        raise AssertionError("the hour-long WAITFOR ended without an error")
    if not DRIVER.keeps_connection_after_timeout:
        conn = DRIVER.connect()
    expect_equal(3, query_value(conn, "SELECT 3"), "the connection after the cancel")
    conn.close()


def denied():
    conn = DRIVER.connect()
    run_script(conn, "login.sql")
    conn.close()
    reader = DRIVER.connect(user=f"{PREFIX}_reader", password="Reader#Pass1")
    expect_equal(100, query_value(reader, f"SELECT v FROM dbo.{PREFIX}_kv WHERE id = 1"), "granted SELECT")
    expect_error(229, lambda: reader.cursor().execute(f"INSERT INTO dbo.{PREFIX}_kv (id, v) VALUES (50, 1)"))
    reader.close()


def wrong_password():
    expect_error(18456, lambda: DRIVER.connect(password=SA_PASSWORD + "x").close())


CHECKS = [
    ("connect_plain", lambda: connect_and_select(False, 1)),
    ("connect_tls", lambda: connect_and_select(True, 2)),
    ("create_objects", create_objects),
    ("types_max", lambda: round_trip(2, MAX_ROW)),
    ("types_min", lambda: round_trip(3, MIN_ROW)),
    ("types_null", lambda: round_trip(4, [None] * len(COLUMNS))),
    ("proc_output", proc_output),
    ("tvp", tvp),
    ("tx_commit", lambda: transaction(True)),
    ("tx_rollback", lambda: transaction(False)),
    ("unique_violation", unique_violation),
    ("write_conflict", write_conflict),
    ("denied", denied),
    ("wrong_password", wrong_password),
    ("cancel", cancel),  # last: a cancel the server ignores can hang the driver until the runner's timeout
]


def within_deadline(body, seconds):
    """Runs body in a child process: a driver blocked on a server that never
    answers (a cancel never acknowledged) fails the check instead of hanging."""
    import multiprocessing

    def child(queue):
        try:
            body()
            queue.put(None)
        except NotApplicable as why:
            queue.put(("n/a", str(why)))
        except Exception as exc:  # noqa: BLE001 - reported to the parent
            queue.put(("fail", f"{type(exc).__name__}: {exc}"))

    queue = multiprocessing.get_context("fork").Queue()
    process = multiprocessing.get_context("fork").Process(target=child, args=(queue,))
    process.start()
    process.join(seconds)
    if process.is_alive():
        process.kill()
        raise AssertionError(f"no answer within {seconds} s")
    outcome = queue.get() if not queue.empty() else ("fail", f"the check's process died ({process.exitcode})")
    if outcome is None:
        return
    if outcome[0] == "n/a":
        raise NotApplicable(outcome[1])
    raise AssertionError(outcome[1])


def main():
    failures = 0
    for name, body in CHECKS:
        try:
            within_deadline(body, 30) if name == "cancel" else body()
            print(f"ok {name}", flush=True)
        except NotApplicable as why:
            print(f"n/a {name}: {why}", flush=True)
        except Exception as exc:  # noqa: BLE001 - every failure is reported, none ends the run
            failures += 1
            why = f"{type(exc).__name__}: {exc}".replace("\n", " ")
            print(f"FAIL {name}: {why}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    DRIVER = {"pytds": PytdsDriver, "pymssql": PymssqlDriver}[sys.argv[1]]()
    PREFIX = DRIVER.name
    sys.exit(main())
