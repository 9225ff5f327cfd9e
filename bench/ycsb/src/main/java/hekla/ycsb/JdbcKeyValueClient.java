package hekla.ycsb;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * A YCSB binding over plain JDBC: one connection per YCSB client thread, autocommit (every operation is its own
 * transaction, as in YCSB's JDBC binding), its prepared statements cached on that connection by their SQL text.
 *
 * <p>The same class drives hekla (Microsoft's JDBC driver, T-SQL's {@code TOP (?)}) and PostgreSQL (its JDBC driver,
 * {@code LIMIT ?}); only properties differ:
 *
 * <ul>
 *   <li>{@code db.url}, {@code db.user}, {@code db.passwd}: the connection;
 *   <li>{@code db.driver}: a driver class to load first (optional, JDBC 4 drivers register themselves);
 *   <li>{@code db.dialect}: {@code top} (default) or {@code limit}, how a scan bounds its rows;
 *   <li>{@code db.retries}: how many times an operation failing with a retryable error is run again (default 0, as
 *       YCSB's JDBC binding, which reports them).
 * </ul>
 *
 * <p>Retryable errors are SQL Server's In-Memory OLTP validation failures (41302 update conflict, 41305 repeatable
 * read, 41325 serializable, 41301 commit dependency) and PostgreSQL's serialization failure and deadlock (SQLSTATE
 * 40001, 40P01). Every failure is an {@link Status#ERROR} to YCSB; the binding also counts them by error number and
 * prints the counts as {@code [ERRORS], Msg 41302, n} lines (and {@code [RETRIES], ...} for the retried ones) on
 * standard error when the last client thread ends, so a run can tell a write conflict from a broken statement.
 */
public final class JdbcKeyValueClient extends DB {
  private static final String KEY = "YCSB_KEY";
  private static final Set<Integer> RETRYABLE_ERRORS = Set.of(41302, 41305, 41325, 41301);
  private static final Set<String> RETRYABLE_STATES = Set.of("40001", "40P01");

  private static final AtomicInteger OPEN_CLIENTS = new AtomicInteger();
  private static final Map<String, LongAdder> ERRORS = new ConcurrentSkipListMap<>();
  private static final Map<String, LongAdder> RETRIES = new ConcurrentSkipListMap<>();
  private static final Set<String> ERRORS_SHOWN = ConcurrentHashMap.newKeySet();

  private Connection connection;
  private final Map<String, PreparedStatement> statements = new HashMap<>();
  private boolean limitDialect;
  private int retries;

  @Override
  public void init() throws DBException {
    Properties props = getProperties();
    String url = props.getProperty("db.url");
    if (url == null) {
      throw new DBException("db.url is required");
    }
    String dialect = props.getProperty("db.dialect", "top");
    if (!dialect.equals("top") && !dialect.equals("limit")) {
      throw new DBException("db.dialect must be top or limit, not " + dialect);
    }
    limitDialect = dialect.equals("limit");
    try {
      retries = Integer.parseInt(props.getProperty("db.retries", "0"));
    } catch (NumberFormatException e) {
      throw new DBException("db.retries must be a number: " + e.getMessage());
    }
    try {
      String driver = props.getProperty("db.driver");
      if (driver != null) {
        Class.forName(driver);
      }
      connection =
          DriverManager.getConnection(url, props.getProperty("db.user"), props.getProperty("db.passwd"));
      connection.setAutoCommit(true);
    } catch (ClassNotFoundException | SQLException e) {
      throw new DBException("cannot connect to " + url + ": " + e.getMessage(), e);
    }
    OPEN_CLIENTS.incrementAndGet();
  }

  @Override
  public void cleanup() throws DBException {
    try {
      for (PreparedStatement statement : statements.values()) {
        statement.close();
      }
      connection.close();
    } catch (SQLException e) {
      throw new DBException(e);
    } finally {
      if (OPEN_CLIENTS.decrementAndGet() == 0) {
        printCounts("[ERRORS]", ERRORS);
        printCounts("[RETRIES]", RETRIES);
      }
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    String sql = "SELECT " + columns(fields) + " FROM " + table + " WHERE " + KEY + " = ?";
    return run(sql, statement -> {
      statement.setString(1, key);
      try (ResultSet rows = statement.executeQuery()) {
        if (!rows.next()) {
          return Status.NOT_FOUND;
        }
        copyRow(rows, result);
        return Status.OK;
      }
    });
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    String from = " " + columns(fields) + " FROM " + table + " WHERE " + KEY + " >= ? ORDER BY " + KEY;
    String sql = limitDialect ? "SELECT" + from + " LIMIT ?" : "SELECT TOP (?)" + from;
    return run(sql, statement -> {
      statement.setInt(limitDialect ? 2 : 1, recordcount);
      statement.setString(limitDialect ? 1 : 2, startkey);
      result.clear();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          HashMap<String, ByteIterator> row = new HashMap<>();
          copyRow(rows, row);
          result.add(row);
        }
      }
      return Status.OK;
    });
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    TreeMap<String, String> sorted = new TreeMap<>(StringByteIterator.getStringMap(values));
    List<String> assignments = new ArrayList<>();
    for (String field : sorted.keySet()) {
      assignments.add(field + " = ?");
    }
    String sql = "UPDATE " + table + " SET " + String.join(", ", assignments) + " WHERE " + KEY + " = ?";
    return run(sql, statement -> {
      int index = 1;
      for (String value : sorted.values()) {
        statement.setString(index++, value);
      }
      statement.setString(index, key);
      return statement.executeUpdate() == 0 ? Status.NOT_FOUND : Status.OK;
    });
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    TreeMap<String, String> sorted = new TreeMap<>(StringByteIterator.getStringMap(values));
    String sql = "INSERT INTO " + table + " (" + KEY + ", " + String.join(", ", sorted.keySet()) + ") VALUES (?"
        + ", ?".repeat(sorted.size()) + ")";
    return run(sql, statement -> {
      statement.setString(1, key);
      int index = 2;
      for (String value : sorted.values()) {
        statement.setString(index++, value);
      }
      statement.executeUpdate();
      return Status.OK;
    });
  }

  @Override
  public Status delete(String table, String key) {
    String sql = "DELETE FROM " + table + " WHERE " + KEY + " = ?";
    return run(sql, statement -> {
      statement.setString(1, key);
      return statement.executeUpdate() == 0 ? Status.NOT_FOUND : Status.OK;
    });
  }

  /** One operation on a prepared statement; may throw, and is then counted, and retried if the error allows. */
  private interface Operation {
    Status on(PreparedStatement statement) throws SQLException;
  }

  private Status run(String sql, Operation operation) {
    for (int attempt = 0;; attempt++) {
      try {
        return operation.on(prepared(sql));
      } catch (SQLException e) {
        String error = errorName(e);
        if (attempt < retries && isRetryable(e)) {
          count(RETRIES, error);
          continue;
        }
        count(ERRORS, error);
        if (ERRORS_SHOWN.add(error)) {
          System.err.println("[FIRST ERROR], " + error + ", " + e.getMessage() + " (" + sql + ")");
        }
        return Status.ERROR;
      }
    }
  }

  private PreparedStatement prepared(String sql) throws SQLException {
    PreparedStatement statement = statements.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql);
      statements.put(sql, statement);
    }
    return statement;
  }

  private static String columns(Set<String> fields) {
    return fields == null ? "*" : String.join(", ", new TreeSet<>(fields));
  }

  /** Copies a row's fields (not the key) into {@code row}, named in lower case as YCSB names them. */
  private static void copyRow(ResultSet rows, Map<String, ByteIterator> row) throws SQLException {
    ResultSetMetaData meta = rows.getMetaData();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      String name = meta.getColumnLabel(i);
      if (!name.equalsIgnoreCase(KEY)) {
        String value = rows.getString(i);
        row.put(name.toLowerCase(Locale.ROOT), new StringByteIterator(value == null ? "" : value));
      }
    }
  }

  private static boolean isRetryable(SQLException e) {
    return RETRYABLE_ERRORS.contains(e.getErrorCode()) || RETRYABLE_STATES.contains(e.getSQLState());
  }

  /** SQL Server's error number when there is one, else the SQLSTATE (PostgreSQL's errors have no number). */
  private static String errorName(SQLException e) {
    return e.getErrorCode() != 0 ? "Msg " + e.getErrorCode() : "SQLSTATE " + e.getSQLState();
  }

  private static void count(Map<String, LongAdder> counts, String error) {
    counts.computeIfAbsent(error, k -> new LongAdder()).increment();
  }

  private static void printCounts(String section, Map<String, LongAdder> counts) {
    for (Map.Entry<String, LongAdder> entry : counts.entrySet()) {
      System.err.println(section + ", " + entry.getKey() + ", " + entry.getValue().sum());
    }
  }
}
