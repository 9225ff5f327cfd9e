// The driver suite's scenario (docs/clients.md) with tedious.
// Prints one line per check: "ok NAME" or "FAIL NAME: why"; exits 1 if any failed.
'use strict';

const fs = require('fs');
const path = require('path');
const { Connection, Request, TYPES } = require('tedious');

const prefix = process.argv[2] || 'node';
const saPassword = process.env.HEKLA_SA_PASSWORD;

function expect(condition, what) {
  if (!condition) throw new Error(what);
}

function short(value) {
  const s = Buffer.isBuffer(value) ? `bytes[${value.length}]`
    : value instanceof Date ? value.toISOString() : JSON.stringify(value);
  return s === undefined ? String(value) : s.length > 80 ? `${s.slice(0, 77)}...(${s.length} chars)` : s;
}

function expectEqual(expected, actual, what) {
  expect(sameValue(expected, actual), `${what}: expected ${short(expected)}, got ${short(actual)}`);
}

function sameValue(expected, actual) {
  if (Buffer.isBuffer(expected)) return Buffer.isBuffer(actual) && expected.equals(actual);
  if (expected instanceof Date) return actual instanceof Date && expected.getTime() === actual.getTime();
  return expected === actual;
}

/** Expects `promise` to reject with the driver's RequestError carrying SQL Server error `number`. */
async function expectError(number, promise) {
  try {
    await promise;
  } catch (err) {
    expect(err.constructor.name === 'RequestError', `expected a RequestError with Msg ${number}, got ${err}`);
    expect(err.number === number, `expected Msg ${number}, got Msg ${err.number}: ${err.message}`);
    return;
  }
  throw new Error(`expected Msg ${number}, got no error`);
}

function connect({ user = 'sa', password = saPassword, tls = false, onError } = {}) {
  const connection = new Connection({
    server: process.env.HEKLA_HOST,
    authentication: { type: 'default', options: { userName: user, password } },
    options: {
      port: Number(process.env.HEKLA_PORT),
      database: 'hekla',
      encrypt: tls,
      trustServerCertificate: true,
      connectTimeout: 10000,
      requestTimeout: 0,
    },
  });
  if (onError) connection.on('errorMessage', onError);
  return new Promise((resolve, reject) => {
    connection.connect((err) => (err ? reject(err) : resolve(connection)));
  });
}

/** Runs `sql` with [name, type, value, options] parameters; resolves to {rows, rowCount}. */
function query(connection, sql, params = []) {
  return new Promise((resolve, reject) => {
    const rows = [];
    const request = new Request(sql, (err, rowCount) => (err ? reject(err) : resolve({ rows, rowCount })));
    for (const [name, type, value, options] of params) request.addParameter(name, type, value, options);
    request.on('row', (columns) => rows.push(columns.map((c) => c.value)));
    connection.execSql(request);
  });
}

async function queryValue(connection, sql, params) {
  const { rows } = await query(connection, sql, params);
  expect(rows.length > 0, `no row from ${sql}`);
  return rows[0][0];
}

function close(connection) {
  if (connection.closed) return Promise.resolve();
  return new Promise((resolve) => {
    connection.on('end', resolve);
    connection.close();
  });
}

function transactionCall(connection, method) {
  return new Promise((resolve, reject) => connection[method]((err) => (err ? reject(err) : resolve())));
}

async function runScript(connection, file) {
  const text = fs.readFileSync(path.join(process.env.HEKLA_CLIENTS_SQL, file), 'utf8').replaceAll('{p}', prefix);
  for (const batch of text.split(/^GO\s*$/m)) {
    if (batch.trim()) await query(connection, batch);
  }
}

// ---- data types

const letters = (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
const pattern = (n, step) => Buffer.from(Array.from({ length: n }, (_, i) => (i * step) % 256));
const utc = (y, mo, d, h = 0, mi = 0, s = 0, ms = 0) => {
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  date.setUTCFullYear(y); // Date.UTC maps years 0..99 to 19xx
  return date;
};

// [column, tedious type, options]. JavaScript numbers are doubles, so the
// exact decimal and money extremes go as strings (the server converts them)
// and come back as the double nearest to them, which is what tedious returns;
// bigint goes and comes back as a string; dates have milliseconds.
const COLUMNS = [
  ['c_tinyint', TYPES.TinyInt], ['c_smallint', TYPES.SmallInt], ['c_int', TYPES.Int], ['c_bigint', TYPES.BigInt],
  ['c_bit', TYPES.Bit], ['c_dec', TYPES.VarChar], ['c_dec0', TYPES.VarChar], ['c_money', TYPES.VarChar],
  ['c_smallmoney', TYPES.VarChar], ['c_float', TYPES.Float], ['c_real', TYPES.Real], ['c_date', TYPES.Date],
  ['c_time', TYPES.Time, { scale: 7 }], ['c_datetime', TYPES.DateTime], ['c_datetime2', TYPES.DateTime2, { scale: 7 }],
  ['c_dto', TYPES.DateTimeOffset, { scale: 7 }], ['c_sdt', TYPES.SmallDateTime], ['c_char', TYPES.VarChar],
  ['c_varchar', TYPES.VarChar], ['c_nchar', TYPES.NVarChar], ['c_nvarchar', TYPES.NVarChar],
  ['c_varcharmax', TYPES.VarChar], ['c_nvarcharmax', TYPES.NVarChar], ['c_varbinarymax', TYPES.VarBinary],
  ['c_binary', TYPES.VarBinary], ['c_varbinary', TYPES.VarBinary], ['c_guid', TYPES.UniqueIdentifier],
];

const float32 = (x) => Math.fround(x);

// Each entry: [value sent, value expected back].
const MAX_ROW = [
  [255, 255], [32767, 32767], [2147483647, 2147483647], ['9223372036854775807', '9223372036854775807'], [true, true],
  ['9999999999999999999999999999.9999999999', 9999999999999999999999999999.9999999999],
  ['99999999999999999999999999999999999999', 99999999999999999999999999999999999999],
  ['922337203685477.5807', 922337203685477.5807], ['214748.3647', 214748.3647],
  [1.7976931348623157e308, 1.7976931348623157e308], [float32(3.4028235e38), float32(3.4028235e38)],
  [utc(9999, 12, 31), utc(9999, 12, 31)], [utc(1970, 1, 1, 23, 59, 59, 999), utc(1970, 1, 1, 23, 59, 59, 999)],
  [utc(9999, 12, 31, 23, 59, 59, 997), utc(9999, 12, 31, 23, 59, 59, 997)],
  [utc(9999, 12, 31, 23, 59, 59, 999), utc(9999, 12, 31, 23, 59, 59, 999)],
  [utc(9999, 12, 31, 9, 59, 59, 999), utc(9999, 12, 31, 9, 59, 59, 999)],
  [utc(2079, 6, 6, 23, 59), utc(2079, 6, 6, 23, 59)],
  ['abc', 'abc       '], ['é'.repeat(10) + letters(7990), 'é'.repeat(10) + letters(7990)],
  ['żółw', 'żółw      '], ['日本語ü'.repeat(1000), '日本語ü'.repeat(1000)],
  ['é' + letters(99999), 'é' + letters(99999)], ['Ωλφα'.repeat(25000), 'Ωλφα'.repeat(25000)],
  [pattern(300000, 1), pattern(300000, 1)],
  [Buffer.from([0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 0xff]), Buffer.from([0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 0xff])],
  [pattern(8000, 7), pattern(8000, 7)],
  ['6F9619FF-8B86-D011-B42D-00C04FC964FF', '6F9619FF-8B86-D011-B42D-00C04FC964FF'],
];

const MIN_ROW = [
  [0, 0], [-32768, -32768], [-2147483648, -2147483648], ['-9223372036854775808', '-9223372036854775808'],
  [false, false],
  ['-9999999999999999999999999999.9999999999', -9999999999999999999999999999.9999999999],
  ['-99999999999999999999999999999999999999', -99999999999999999999999999999999999999],
  ['-922337203685477.5808', -922337203685477.5808], ['-214748.3648', -214748.3648],
  [-2.2250738585072014e-308, -2.2250738585072014e-308], [float32(-1.17549435e-38), float32(-1.17549435e-38)],
  [utc(1, 1, 1), utc(1, 1, 1)], [utc(1970, 1, 1), utc(1970, 1, 1)],
  [utc(1753, 1, 1), utc(1753, 1, 1)], [utc(1, 1, 1), utc(1, 1, 1)], [utc(1, 1, 1), utc(1, 1, 1)],
  [utc(1900, 1, 1), utc(1900, 1, 1)],
  ['', ' '.repeat(10)], ['', ''], ['', ' '.repeat(10)], ['', ''], ['', ''], ['', ''],
  [Buffer.alloc(0), Buffer.alloc(0)], [Buffer.alloc(8), Buffer.alloc(8)], [Buffer.alloc(0), Buffer.alloc(0)],
  ['00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000000'],
];

const NULL_ROW = COLUMNS.map(() => [null, null]);

async function roundTrip(id, row) {
  const connection = await connect();
  try {
    const names = COLUMNS.map(([name]) => name);
    const params = [['id', TYPES.Int, id]].concat(
      COLUMNS.map(([name, type, options], i) => [name, type, row[i][0], options]));
    const insert = `INSERT INTO dbo.${prefix}_types (id, ${names.join(', ')}) VALUES (@id, ${names.map((n) => `@${n}`).join(', ')})`;
    const { rowCount } = await query(connection, insert, params);
    expect(rowCount === 1, `rows inserted: ${rowCount}`);
    const { rows } = await query(connection, `SELECT ${names.join(', ')} FROM dbo.${prefix}_types WHERE id = @id`,
      [['id', TYPES.Int, id]]);
    expect(rows.length === 1, `expected one row, got ${rows.length}`);
    const wrong = names.filter((name, i) => !sameValue(row[i][1], rows[0][i]))
      .map((name) => `${name} expected ${short(row[names.indexOf(name)][1])} got ${short(rows[0][names.indexOf(name)])}`);
    expect(wrong.length === 0, wrong.join('; '));
  } finally {
    await close(connection);
  }
}

// ---- procedures

async function procOutput() {
  const connection = await connect();
  try {
    const result = await new Promise((resolve, reject) => {
      const outcome = {};
      const request = new Request(`dbo.${prefix}_double`, (err) => (err ? reject(err) : resolve(outcome)));
      request.addParameter('x', TYPES.Int, 21);
      request.addOutputParameter('doubled', TYPES.Int);
      request.on('returnValue', (name, value) => { outcome[name] = value; });
      request.on('doneProc', (rowCount, more, returnStatus) => { outcome.status = returnStatus; });
      connection.callProcedure(request);
    });
    expectEqual(22, result.status, 'return status');
    expectEqual(42, result.doubled, 'OUTPUT parameter');
  } finally {
    await close(connection);
  }
}

async function tvp() {
  const connection = await connect();
  try {
    const table = {
      name: `${prefix}_line`,
      schema: 'dbo',
      columns: [
        { name: 'line_no', type: TYPES.Int },
        { name: 'item', type: TYPES.NVarChar, length: 40 },
        { name: 'amount', type: TYPES.Decimal, precision: 18, scale: 4 },
      ],
      rows: [[1, 'äpfel', 1.25], [2, 'birnen', 10.0001], [3, 'zitronen', -0.5]],
    };
    const rows = await new Promise((resolve, reject) => {
      const found = [];
      const request = new Request(`dbo.${prefix}_sum_lines`, (err) => (err ? reject(err) : resolve(found)));
      request.addParameter('lines', TYPES.TVP, table);
      request.on('row', (columns) => found.push(columns.map((c) => c.value)));
      connection.callProcedure(request);
    });
    expect(rows.length === 1, `expected one row, got ${rows.length}`);
    expectEqual(3, rows[0][0], 'line_count');
    expectEqual(10.7501, rows[0][1], 'total');
    expectEqual('zitronen', rows[0][2], 'last_item');
  } finally {
    await close(connection);
  }
}

// ---- transactions and errors

async function transaction(commit) {
  const id = commit ? 10 : 11;
  const count = `SELECT COUNT(*) FROM dbo.${prefix}_kv WHERE id = ${id}`;
  const connection = await connect();
  const other = await connect();
  try {
    await transactionCall(connection, 'beginTransaction');
    await query(connection, `INSERT INTO dbo.${prefix}_kv (id, v) VALUES (@id, 7)`, [['id', TYPES.Int, id]]);
    expectEqual(1, await queryValue(connection, count.replace('_kv', '_kv WITH (SNAPSHOT)')), 'own insert visible inside');
    expectEqual(0, await queryValue(other, count), 'uncommitted insert seen by another connection');
    await transactionCall(connection, commit ? 'commitTransaction' : 'rollbackTransaction');
    expectEqual(commit ? 1 : 0, await queryValue(other, count), 'rows after the transaction');
    expectEqual(0, await queryValue(connection, 'SELECT @@TRANCOUNT'), '@@TRANCOUNT after the transaction');
  } finally {
    await close(connection);
    await close(other);
  }
}

async function uniqueViolation() {
  const connection = await connect();
  try {
    await expectError(2627, query(connection, `INSERT INTO dbo.${prefix}_kv (id, v) VALUES (@id, @v)`,
      [['id', TYPES.Int, 1], ['v', TYPES.Int, 5]]));
    expectEqual(100, await queryValue(connection, `SELECT v FROM dbo.${prefix}_kv WHERE id = 1`), 'row 1 unchanged');
  } finally {
    await close(connection);
  }
}

async function writeConflict() {
  const update = `UPDATE dbo.${prefix}_kv WITH (SNAPSHOT) SET v = v + 1 WHERE id = 1`;
  const a = await connect();
  const b = await connect();
  try {
    await transactionCall(a, 'beginTransaction');
    await transactionCall(b, 'beginTransaction');
    const { rowCount } = await query(a, update);
    expectEqual(1, rowCount, "first update's row count");
    await expectError(41302, query(b, update));
    await rollbackAborted(b);
    await transactionCall(a, 'rollbackTransaction');
    expectEqual(100, await queryValue(a, `SELECT v FROM dbo.${prefix}_kv WHERE id = 1`), 'value after both rolled back');
  } finally {
    await close(a);
    await close(b);
  }
}

// 41302 says "The transaction was aborted": the server may have ended the
// transaction already and answer the rollback with 3903, which is no failure.
async function rollbackAborted(connection) {
  try {
    await transactionCall(connection, 'rollbackTransaction');
  } catch (err) {
    if (err.number !== 3903) throw err;
  }
}

async function cancel() {
  const connection = await connect();
  try {
    const start = Date.now();
    const error = await new Promise((resolve) => {
      const request = new Request('DECLARE @i INT = 0; WHILE 1 = 1 SET @i = @i + 1;', (err) => resolve(err));
      connection.execSql(request);
      setTimeout(() => connection.cancel(), 500);
    });
    const elapsed = Date.now() - start;
    expect(error, 'the endless loop ended without an error');
    expect(error.code === 'ECANCEL', `expected ECANCEL, got ${error.code}: ${error.message}`);
    expect(elapsed < 5000, `cancel took ${elapsed} ms`);
    expectEqual(3, await queryValue(connection, 'SELECT 3'), 'the connection after the cancel');
  } finally {
    await close(connection);
  }
}

async function denied() {
  const connection = await connect();
  try {
    await runScript(connection, 'login.sql');
  } finally {
    await close(connection);
  }
  const reader = await connect({ user: `${prefix}_reader`, password: 'Reader#Pass1' });
  try {
    expectEqual(100, await queryValue(reader, `SELECT v FROM dbo.${prefix}_kv WHERE id = 1`), 'granted SELECT');
    await expectError(229, query(reader, `INSERT INTO dbo.${prefix}_kv (id, v) VALUES (50, 1)`));
  } finally {
    await close(reader);
  }
}

// tedious reports a failed login as a ConnectionError (code ELOGIN) and the
// server's ERROR token through the connection's 'errorMessage' event.
async function wrongPassword() {
  const numbers = [];
  try {
    const connection = await connect({ password: `${saPassword}x`, onError: (token) => numbers.push(token.number) });
    await close(connection);
  } catch (err) {
    expect(err.code === 'ELOGIN', `expected ELOGIN, got ${err.code}: ${err.message}`);
    expect(numbers.includes(18456), `expected Msg 18456, got ${JSON.stringify(numbers)}`);
    return;
  }
  throw new Error('expected Msg 18456, got no error');
}

async function connectAndSelect(tls, value) {
  const connection = await connect({ tls });
  try {
    expectEqual(value, await queryValue(connection, `SELECT ${value}`), 'SELECT');
  } finally {
    await close(connection);
  }
}

async function createObjects() {
  const connection = await connect();
  try {
    await runScript(connection, 'setup.sql');
    const count = await queryValue(connection,
      'SELECT COUNT(*) FROM sys.tables WHERE name = @name AND is_memory_optimized = 1',
      [['name', TYPES.NVarChar, `${prefix}_types`]]);
    expectEqual(1, count, 'memory-optimized table in sys.tables');
  } finally {
    await close(connection);
  }
}

const CHECKS = [
  ['connect_plain', () => connectAndSelect(false, 1)],
  ['connect_tls', () => connectAndSelect(true, 2)],
  ['create_objects', createObjects],
  ['types_max', () => roundTrip(2, MAX_ROW)],
  ['types_min', () => roundTrip(3, MIN_ROW)],
  ['types_null', () => roundTrip(4, NULL_ROW)],
  ['proc_output', procOutput],
  ['tvp', tvp],
  ['tx_commit', () => transaction(true)],
  ['tx_rollback', () => transaction(false)],
  ['unique_violation', uniqueViolation],
  ['write_conflict', writeConflict],
  ['denied', denied],
  ['wrong_password', wrongPassword],
  // Last: a cancel the server ignores can hang the driver until the runner's timeout.
  ['cancel', () => withinDeadline(cancel, 30000)],
];

// A driver blocked on a server that never answers fails the check instead of hanging.
function withinDeadline(body, ms) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([body(), deadline]).finally(() => clearTimeout(timer));
}

async function main() {
  let failures = 0;
  for (const [name, body] of CHECKS) {
    try {
      await body();
      console.log(`ok ${name}`);
    } catch (err) {
      failures += 1;
      console.log(`FAIL ${name}: ${String(err && err.message ? err.message : err).replace(/\n/g, ' ')}`);
    }
  }
  process.exit(failures ? 1 : 0);
}

main();
