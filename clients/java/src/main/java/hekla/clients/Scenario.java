package hekla.clients;

import com.microsoft.sqlserver.jdbc.SQLServerCallableStatement;
import com.microsoft.sqlserver.jdbc.SQLServerDataTable;
import com.microsoft.sqlserver.jdbc.SQLServerException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The driver suite's scenario (docs/clients.md) with Microsoft's JDBC driver.
 * Prints one line per check: "ok NAME" or "FAIL NAME: why"; exits 1 if any failed.
 */
public final class Scenario {
    interface Check {
        void run() throws Exception;
    }

    private final String prefix;
    private final String host = System.getenv("HEKLA_HOST");
    private final String port = System.getenv("HEKLA_PORT");
    private final String saPassword = System.getenv("HEKLA_SA_PASSWORD");
    private final Path sqlDir = Path.of(System.getenv("HEKLA_CLIENTS_SQL"));
    private int failures;

    private Scenario(String prefix) {
        this.prefix = prefix;
    }

    public static void main(String[] args) {
        Scenario s = new Scenario(args.length > 0 ? args[0] : "java");
        s.runAll();
        System.exit(s.failures == 0 ? 0 : 1);
    }

    private void check(String name, Check body) {
        try {
            body.run();
            System.out.println("ok " + name);
        } catch (Throwable e) {
            failures++;
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            if (e instanceof SQLException sql) {
                why = "Msg " + sql.getErrorCode() + ": " + why;
            }
            System.out.println("FAIL " + name + ": " + why.replace('\n', ' '));
        }
        System.out.flush();
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    private static void expectEqual(Object expected, Object actual, String what) {
        if (!Objects.deepEquals(expected, actual)) {
            throw new AssertionError(what + ": expected " + shorten(expected) + ", got " + shorten(actual));
        }
    }

    private static String shorten(Object value) {
        String s = value instanceof byte[] b ? "bytes[" + b.length + "]" : String.valueOf(value);
        return s.length() > 80 ? s.substring(0, 77) + "...(" + s.length() + " chars)" : s;
    }

    /** Expects `body` to fail with SQL Server error `number`, as the driver's exception type. */
    private static void expectError(int number, Check body) throws Exception {
        try {
            body.run();
        } catch (SQLServerException e) {
            expectEqual(number, e.getErrorCode(), "error number (message: " + e.getMessage() + ")");
            return;
        }
        throw new AssertionError("expected Msg " + number + ", got no error");
    }

    private Connection connect(String user, String password, boolean tls) throws SQLException {
        String url = "jdbc:sqlserver://" + host + ":" + port + ";databaseName=hekla;"
                + (tls ? "encrypt=true;trustServerCertificate=true;" : "encrypt=false;")
                // Without it mssql-jdbc sends java.time.LocalTime as a datetime, rounded to 1/300 s
                // (23:59:59.9999999 becomes the next midnight), as Microsoft documents.
                + "sendTimeAsDatetime=false;"
                + "loginTimeout=10";
        return DriverManager.getConnection(url, user, password);
    }

    private Connection connectSa() throws SQLException {
        return connect("sa", saPassword, false);
    }

    private static int queryInt(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            expect(rs.next(), "no row from " + sql);
            return rs.getInt(1);
        }
    }

    private void runScript(Connection c, String file) throws Exception {
        String text = Files.readString(sqlDir.resolve(file)).replace("{p}", prefix);
        try (Statement s = c.createStatement()) {
            for (String batch : text.split("(?m)^GO\\s*$")) {
                if (!batch.isBlank()) {
                    s.execute(batch);
                }
            }
        }
    }

    private void runAll() {
        check("connect_plain", () -> {
            try (Connection c = connectSa()) {
                expectEqual(1, queryInt(c, "SELECT 1"), "SELECT 1");
            }
        });
        check("connect_tls", () -> {
            try (Connection c = connect("sa", saPassword, true)) {
                expectEqual(2, queryInt(c, "SELECT 2"), "SELECT 2 over TLS");
            }
        });
        check("create_objects", () -> {
            try (Connection c = connectSa()) {
                runScript(c, "setup.sql");
                expectEqual(1, queryInt(c, "SELECT COUNT(*) FROM sys.tables WHERE name = '" + prefix
                        + "_types' AND is_memory_optimized = 1"), "memory-optimized table in sys.tables");
            }
        });
        check("types_max", () -> roundTrip(2, maxRow()));
        check("types_min", () -> roundTrip(3, minRow()));
        check("types_null", () -> roundTrip(4, new Object[COLUMNS.length]));
        check("proc_output", this::procOutput);
        check("tvp", this::tvp);
        check("tx_commit", () -> transaction(true));
        check("tx_rollback", () -> transaction(false));
        check("unique_violation", () -> {
            try (Connection c = connectSa(); PreparedStatement p = c.prepareStatement(
                    "INSERT INTO dbo." + prefix + "_kv (id, v) VALUES (?, ?)")) {
                p.setInt(1, 1);
                p.setInt(2, 5);
                expectError(2627, p::executeUpdate);
                expectEqual(100, queryInt(c, "SELECT v FROM dbo." + prefix + "_kv WHERE id = 1"),
                        "row 1 unchanged");
            }
        });
        check("write_conflict", this::writeConflict);
        check("denied", this::denied);
        check("wrong_password", () -> expectError(18456, () -> connect("sa", saPassword + "x", false).close()));
        // Last: a cancel the server ignores can hang the driver until the runner's timeout.
        check("cancel", () -> withinDeadline(this::cancel, 30));
    }

    // ---- data types

    /** Column name and the JDBC type its parameter is sent as (so typed NULLs work too). */
    private record Column(String name, int sqlType) {}

    private static final Column[] COLUMNS = {
        new Column("c_tinyint", Types.TINYINT),
        new Column("c_smallint", Types.SMALLINT),
        new Column("c_int", Types.INTEGER),
        new Column("c_bigint", Types.BIGINT),
        new Column("c_bit", Types.BIT),
        new Column("c_dec", Types.DECIMAL),
        new Column("c_dec0", Types.DECIMAL),
        new Column("c_money", Types.DECIMAL),
        new Column("c_smallmoney", Types.DECIMAL),
        new Column("c_float", Types.DOUBLE),
        new Column("c_real", Types.REAL),
        new Column("c_date", Types.DATE),
        new Column("c_time", Types.TIME),
        new Column("c_datetime", Types.TIMESTAMP),
        new Column("c_datetime2", Types.TIMESTAMP),
        new Column("c_dto", Types.TIMESTAMP_WITH_TIMEZONE),
        new Column("c_sdt", Types.TIMESTAMP),
        new Column("c_char", Types.CHAR),
        new Column("c_varchar", Types.VARCHAR),
        new Column("c_nchar", Types.NCHAR),
        new Column("c_nvarchar", Types.NVARCHAR),
        new Column("c_varcharmax", Types.LONGVARCHAR),
        new Column("c_nvarcharmax", Types.LONGNVARCHAR),
        new Column("c_varbinarymax", Types.LONGVARBINARY),
        new Column("c_binary", Types.BINARY),
        new Column("c_varbinary", Types.VARBINARY),
        new Column("c_guid", Types.CHAR),
    };

    /** The scenario's long string: letters a..z cycling, `length` of them. */
    static String letters(int length) {
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append((char) ('a' + i % 26));
        }
        return b.toString();
    }

    /** The scenario's byte pattern: byte i is (i * step) mod 256. */
    static byte[] pattern(int length, int step) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * step);
        }
        return b;
    }

    private static Object[] maxRow() {
        return new Object[] {
            (short) 255, (short) 32767, 2147483647, 9223372036854775807L, true,
            new BigDecimal("9999999999999999999999999999.9999999999"),
            new BigDecimal("99999999999999999999999999999999999999"),
            new BigDecimal("922337203685477.5807"), new BigDecimal("214748.3647"),
            1.7976931348623157e308, 3.4028235e38f,
            LocalDate.of(9999, 12, 31), LocalTime.of(23, 59, 59, 999_999_900),
            LocalDateTime.of(9999, 12, 31, 23, 59, 59, 997_000_000),
            LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_900),
            OffsetDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_900, ZoneOffset.ofHours(14)),
            LocalDateTime.of(2079, 6, 6, 23, 59, 0),
            "abc       ", "é".repeat(10) + letters(7990), "żółw      ", "日本語ü".repeat(1000),
            "é" + letters(99_999), "Ωλφα".repeat(25_000), pattern(300_000, 1),
            new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef, 0, 1, 2, (byte) 0xff},
            pattern(8000, 7), "6F9619FF-8B86-D011-B42D-00C04FC964FF",
        };
    }

    private static Object[] minRow() {
        return new Object[] {
            (short) 0, (short) -32768, -2147483648, -9223372036854775808L, false,
            new BigDecimal("-9999999999999999999999999999.9999999999"),
            new BigDecimal("-99999999999999999999999999999999999999"),
            new BigDecimal("-922337203685477.5808"), new BigDecimal("-214748.3648"),
            -2.2250738585072014e-308, -1.17549435e-38f,
            LocalDate.of(1, 1, 1), LocalTime.MIDNIGHT,
            LocalDateTime.of(1753, 1, 1, 0, 0, 0),
            LocalDateTime.of(1, 1, 1, 0, 0, 0),
            // mssql-jdbc converts datetimeoffset through java.util.Calendar, which shifts days
            // before the Gregorian cutover (mssql-jdbc issues 2246, 2565): its earliest exact day.
            OffsetDateTime.of(1582, 10, 15, 0, 0, 0, 0, ZoneOffset.UTC),
            LocalDateTime.of(1900, 1, 1, 0, 0),
            "          ", "", "          ", "", "", "", new byte[0],
            new byte[8], new byte[0], "00000000-0000-0000-0000-000000000000",
        };
    }

    /** Reads column i as the Java type the scenario wrote it with. */
    private static Object read(ResultSet rs, int i) throws SQLException {
        String name = COLUMNS[i].name();
        Object v = switch (COLUMNS[i].sqlType()) {
            case Types.TINYINT, Types.SMALLINT -> rs.getShort(name);
            case Types.INTEGER -> rs.getInt(name);
            case Types.BIGINT -> rs.getLong(name);
            case Types.BIT -> rs.getBoolean(name);
            case Types.DECIMAL -> rs.getBigDecimal(name);
            case Types.DOUBLE -> rs.getDouble(name);
            case Types.REAL -> rs.getFloat(name);
            case Types.DATE -> rs.getObject(name, LocalDate.class);
            case Types.TIME -> rs.getObject(name, LocalTime.class);
            case Types.TIMESTAMP -> rs.getObject(name, LocalDateTime.class);
            case Types.TIMESTAMP_WITH_TIMEZONE -> rs.getObject(name, OffsetDateTime.class);
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> rs.getBytes(name);
            case Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR -> rs.getNString(name);
            default -> rs.getString(name);
        };
        return rs.wasNull() ? null : v;
    }

    private static boolean sameValue(Object expected, Object actual) {
        if (expected instanceof BigDecimal e && actual instanceof BigDecimal a) {
            return e.compareTo(a) == 0;
        }
        if (expected instanceof String e && actual instanceof String a && e.length() == 36 && e.contains("-")) {
            return e.equalsIgnoreCase(a); // uniqueidentifier: the driver prints it in upper case
        }
        return Objects.deepEquals(expected, actual);
    }

    private void roundTrip(int id, Object[] row) throws Exception {
        String columns = String.join(", ", Arrays.stream(COLUMNS).map(Column::name).toList());
        String markers = String.join(", ", java.util.Collections.nCopies(COLUMNS.length, "?"));
        int insertedRows;
        try (Connection c = connectSa()) {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO dbo." + prefix + "_types (id, " + columns
                    + ") VALUES (?, " + markers + ")")) {
                p.setInt(1, id);
                for (int i = 0; i < COLUMNS.length; i++) {
                    if (row[i] == null) {
                        p.setNull(i + 2, COLUMNS[i].sqlType());
                    } else if (row[i] instanceof String s && isUnicode(COLUMNS[i].sqlType())) {
                        p.setNString(i + 2, s);
                    } else if (row[i] instanceof String s) {
                        p.setString(i + 2, s);
                    } else {
                        p.setObject(i + 2, row[i]);
                    }
                }
                insertedRows = p.executeUpdate();
            }
            try (PreparedStatement p = c.prepareStatement("SELECT " + columns + " FROM dbo." + prefix
                    + "_types WHERE id = ?")) {
                p.setInt(1, id);
                try (ResultSet rs = p.executeQuery()) {
                    expect(rs.next(), "row " + id + " not found");
                    List<String> wrong = new ArrayList<>();
                    if (insertedRows != 1) {
                        wrong.add("executeUpdate's row count expected 1 got " + insertedRows);
                    }
                    for (int i = 0; i < COLUMNS.length; i++) {
                        Object got = read(rs, i);
                        if (!sameValue(row[i], got)) {
                            wrong.add(COLUMNS[i].name() + " expected " + shorten(row[i]) + " got " + shorten(got));
                        }
                    }
                    expect(!rs.next(), "more than one row");
                    expect(wrong.isEmpty(), String.join("; ", wrong));
                }
            }
        }
    }

    private static boolean isUnicode(int sqlType) {
        return sqlType == Types.NCHAR || sqlType == Types.NVARCHAR || sqlType == Types.LONGNVARCHAR;
    }

    // ---- procedures

    private void procOutput() throws Exception {
        try (Connection c = connectSa();
                CallableStatement call = c.prepareCall("{? = call dbo." + prefix + "_double(?, ?)}")) {
            call.registerOutParameter(1, Types.INTEGER);
            call.setInt(2, 21);
            call.registerOutParameter(3, Types.INTEGER);
            call.execute();
            expectEqual(22, call.getInt(1), "return status");
            expectEqual(42, call.getInt(3), "OUTPUT parameter");
        }
    }

    private void tvp() throws Exception {
        SQLServerDataTable lines = new SQLServerDataTable();
        lines.addColumnMetadata("line_no", Types.INTEGER);
        lines.addColumnMetadata("item", Types.NVARCHAR);
        lines.addColumnMetadata("amount", Types.DECIMAL);
        lines.addRow(1, "äpfel", new BigDecimal("1.2500"));
        lines.addRow(2, "birnen", new BigDecimal("10.0001"));
        lines.addRow(3, "zitronen", new BigDecimal("-0.5000"));
        try (Connection c = connectSa();
                CallableStatement call = c.prepareCall("{call dbo." + prefix + "_sum_lines(?)}")) {
            call.unwrap(SQLServerCallableStatement.class).setStructured(1, "dbo." + prefix + "_line", lines);
            try (ResultSet rs = call.executeQuery()) {
                expect(rs.next(), "no result row");
                expectEqual(3, rs.getInt("line_count"), "line_count");
                expect(new BigDecimal("10.7501").compareTo(rs.getBigDecimal("total")) == 0,
                        "total: expected 10.7501, got " + rs.getBigDecimal("total"));
                expectEqual("zitronen", rs.getString("last_item"), "last_item");
            }
        }
    }

    // ---- transactions and errors

    private void transaction(boolean commit) throws Exception {
        int id = commit ? 10 : 11;
        String count = "SELECT COUNT(*) FROM dbo." + prefix + "_kv WHERE id = " + id;
        try (Connection c = connectSa(); Connection other = connectSa()) {
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO dbo." + prefix + "_kv (id, v) VALUES (?, ?)")) {
                p.setInt(1, id);
                p.setInt(2, 7);
                p.executeUpdate();
            }
            expectEqual(1, queryInt(c, count.replace("_kv", "_kv WITH (SNAPSHOT)")), "own insert visible inside");
            expectEqual(0, queryInt(other, count), "uncommitted insert visible to another connection");
            if (commit) {
                c.commit();
            } else {
                c.rollback();
            }
            c.setAutoCommit(true);
            expectEqual(commit ? 1 : 0, queryInt(other, count), "rows after " + (commit ? "commit" : "rollback"));
            expectEqual(0, queryInt(c, "SELECT @@TRANCOUNT"), "@@TRANCOUNT after the transaction");
        }
    }

    private void writeConflict() throws Exception {
        String update = "UPDATE dbo." + prefix + "_kv WITH (SNAPSHOT) SET v = v + 1 WHERE id = 1";
        try (Connection a = connectSa(); Connection b = connectSa()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try (Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
                expectEqual(1, sa.executeUpdate(update), "first update's row count");
                expectError(41302, () -> sb.executeUpdate(update));
            }
            rollbackAborted(b);
            a.rollback();
        }
        try (Connection fresh = connectSa()) {
            expectEqual(100, queryInt(fresh, "SELECT v FROM dbo." + prefix + "_kv WHERE id = 1"),
                    "value after both rolled back");
        }
    }

    /** Runs `body` on another thread: a driver blocked on a server that never answers fails the check. */
    private static void withinDeadline(Check body, int seconds) throws Exception {
        java.util.concurrent.ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        });
        try {
            runner.submit(() -> {
                body.run();
                return null;
            }).get(seconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no answer within " + seconds + " s");
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            runner.shutdownNow();
        }
    }

    /**
     * Rolls back a transaction that 41302 ("The transaction was aborted") may have ended already:
     * then the server answers the rollback with 3903, which is no failure.
     */
    private static void rollbackAborted(Connection c) throws SQLException {
        try {
            c.rollback();
        } catch (SQLServerException e) {
            if (e.getErrorCode() != 3903) {
                throw e;
            }
        }
    }

    private void cancel() throws Exception {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (Connection c = connectSa(); Statement s = c.createStatement()) {
            timer.schedule(() -> {
                try {
                    s.cancel();
                } catch (SQLException e) {
                    throw new RuntimeException(e);
                }
            }, 500, TimeUnit.MILLISECONDS);
            long start = System.nanoTime();
            try {
                s.execute("DECLARE @i INT = 0; WHILE 1 = 1 SET @i = @i + 1;");
                throw new AssertionError("the endless loop ended without an error");
            } catch (SQLException expected) {
                expect(expected.getMessage().toLowerCase().contains("cancel"),
                        "expected the driver's 'query was canceled', got: " + expected.getMessage());
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            expect(millis < 5000, "cancel took " + millis + " ms");
            expectEqual(3, queryInt(c, "SELECT 3"), "the connection after the cancel");
        } finally {
            timer.shutdownNow();
        }
    }

    private void denied() throws Exception {
        try (Connection c = connectSa()) {
            runScript(c, "login.sql");
        }
        try (Connection r = connect(prefix + "_reader", "Reader#Pass1", false)) {
            expectEqual(100, queryInt(r, "SELECT v FROM dbo." + prefix + "_kv WHERE id = 1"), "granted SELECT");
            expectError(229, () -> r.createStatement().executeUpdate(
                    "INSERT INTO dbo." + prefix + "_kv (id, v) VALUES (50, 1)"));
        }
    }
}
