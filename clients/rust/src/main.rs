//! The driver suite's scenario (docs/clients.md) with tiberius.
//! Prints one line per check: "ok NAME", "FAIL NAME: why", or "n/a NAME: why"
//! for what tiberius' API cannot express; exits 1 if any check failed.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike};
use tiberius::numeric::Numeric;
use tiberius::{AuthMethod, Client, Config, EncryptionLevel, FromSql, Row, ToSql};
use tokio::net::TcpStream;
use tokio_util::compat::{Compat, TokioAsyncWriteCompatExt};
use uuid::Uuid;

type Conn = Client<Compat<TcpStream>>;
type Outcome = Result<(), String>;
type CheckFuture<'a> = Pin<Box<dyn Future<Output = Outcome> + 'a>>;

/// Connection settings from clients/run.sh and the prefix of this run's objects.
struct Env {
    host: String,
    port: u16,
    sa_password: String,
    sql_dir: String,
    prefix: String,
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set (run clients/run.sh)"))
}

fn fail<T>(what: impl std::fmt::Display) -> Result<T, String> {
    Err(what.to_string())
}

fn expect(condition: bool, what: impl FnOnce() -> String) -> Outcome {
    if condition {
        Ok(())
    } else {
        Err(what())
    }
}

fn expect_eq<T: PartialEq + std::fmt::Debug>(expected: T, actual: T, what: &str) -> Outcome {
    expect(expected == actual, || {
        format!("{what}: expected {expected:?}, got {actual:?}")
    })
}

fn sql_err(e: tiberius::error::Error) -> String {
    match &e {
        tiberius::error::Error::Server(token) => {
            format!("Msg {}: {}", token.code(), token.message())
        }
        _ => e.to_string(),
    }
}

/// Expects the driver's server-error type carrying SQL Server error `number`.
fn expect_error<T>(number: u32, result: Result<T, tiberius::error::Error>) -> Outcome {
    match result {
        Ok(_) => fail(format!("expected Msg {number}, got no error")),
        Err(tiberius::error::Error::Server(token)) if token.code() == number => Ok(()),
        Err(other) => fail(format!("expected Msg {number}, got {}", sql_err(other))),
    }
}

impl Env {
    async fn connect_as(
        &self,
        user: &str,
        password: &str,
        tls: bool,
    ) -> Result<Conn, tiberius::error::Error> {
        let mut config = Config::new();
        config.host(&self.host);
        config.port(self.port);
        config.database("hekla");
        config.authentication(AuthMethod::sql_server(user, password));
        if tls {
            config.encryption(EncryptionLevel::Required);
            config.trust_cert();
        } else {
            config.encryption(EncryptionLevel::NotSupported);
        }
        let tcp = TcpStream::connect(config.get_addr()).await?;
        tcp.set_nodelay(true)?;
        Client::connect(config, tcp.compat_write()).await
    }

    async fn connect(&self) -> Result<Conn, String> {
        self.connect_as("sa", &self.sa_password, false)
            .await
            .map_err(sql_err)
    }

    async fn run_script(&self, client: &mut Conn, file: &str) -> Outcome {
        let path = format!("{}/{file}", self.sql_dir);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let text = text.replace("{p}", &self.prefix);
        for batch in split_batches(&text) {
            client
                .simple_query(batch)
                .await
                .map_err(sql_err)?
                .into_results()
                .await
                .map_err(sql_err)?;
        }
        Ok(())
    }

    fn table(&self, suffix: &str) -> String {
        format!("dbo.{}_{suffix}", self.prefix)
    }
}

/// Splits a script into its batches at lines holding only GO.
fn split_batches(text: &str) -> Vec<String> {
    let mut batches = vec![String::new()];
    for line in text.lines() {
        if line.trim().eq_ignore_ascii_case("GO") {
            batches.push(String::new());
        } else {
            let current = batches.last_mut().expect("never empty");
            current.push_str(line);
            current.push('\n');
        }
    }
    batches
        .into_iter()
        .filter(|b| !b.trim().is_empty())
        .collect()
}

async fn first_row(client: &mut Conn, sql: &str, params: &[&dyn ToSql]) -> Result<Row, String> {
    let stream = client.query(sql, params).await.map_err(sql_err)?;
    match stream.into_row().await.map_err(sql_err)? {
        Some(row) => Ok(row),
        None => fail(format!("no row from {sql}")),
    }
}

async fn query_i32(client: &mut Conn, sql: &str) -> Result<i32, String> {
    let row = first_row(client, sql, &[]).await?;
    row.try_get::<i32, _>(0)
        .map_err(sql_err)?
        .ok_or_else(|| format!("NULL from {sql}"))
}

// ---- the checks

async fn connect_and_select(env: &Env, tls: bool, value: i32) -> Outcome {
    let mut client = env
        .connect_as("sa", &env.sa_password, tls)
        .await
        .map_err(sql_err)?;
    expect_eq(
        value,
        query_i32(&mut client, &format!("SELECT {value}")).await?,
        "SELECT",
    )
}

async fn create_objects(env: &Env) -> Outcome {
    let mut client = env.connect().await?;
    env.run_script(&mut client, "setup.sql").await?;
    let name = format!("{}_types", env.prefix);
    let row = first_row(
        &mut client,
        "SELECT COUNT(*) FROM sys.tables WHERE name = @P1 AND is_memory_optimized = 1",
        &[&name.as_str()],
    )
    .await?;
    expect_eq(
        Some(1),
        row.try_get::<i32, _>(0).map_err(sql_err)?,
        "memory-optimized table in sys.tables",
    )
}

const COLUMNS: [&str; 27] = [
    "c_tinyint",
    "c_smallint",
    "c_int",
    "c_bigint",
    "c_bit",
    "c_dec",
    "c_dec0",
    "c_money",
    "c_smallmoney",
    "c_float",
    "c_real",
    "c_date",
    "c_time",
    "c_datetime",
    "c_datetime2",
    "c_dto",
    "c_sdt",
    "c_char",
    "c_varchar",
    "c_nchar",
    "c_nvarchar",
    "c_varcharmax",
    "c_nvarcharmax",
    "c_varbinarymax",
    "c_binary",
    "c_varbinary",
    "c_guid",
];

/// One row of the types table, as Rust values (None = NULL).
#[derive(Debug, PartialEq, Clone, Default)]
struct TypesRow {
    tinyint: Option<u8>,
    smallint: Option<i16>,
    int: Option<i32>,
    bigint: Option<i64>,
    bit: Option<bool>,
    dec: Option<Numeric>,
    dec0: Option<Numeric>,
    /// money and smallmoney go as exact numerics; tiberius reads them back as f64.
    money: Option<Numeric>,
    smallmoney: Option<Numeric>,
    float: Option<f64>,
    real: Option<f32>,
    date: Option<NaiveDate>,
    time: Option<NaiveTime>,
    datetime: Option<NaiveDateTime>,
    datetime2: Option<NaiveDateTime>,
    dto: Option<DateTime<FixedOffset>>,
    sdt: Option<NaiveDateTime>,
    char: Option<String>,
    varchar: Option<String>,
    nchar: Option<String>,
    nvarchar: Option<String>,
    varcharmax: Option<String>,
    nvarcharmax: Option<String>,
    varbinarymax: Option<Vec<u8>>,
    binary: Option<Vec<u8>>,
    varbinary: Option<Vec<u8>>,
    guid: Option<Uuid>,
}

fn letters(n: usize) -> String {
    (0..n).map(|i| (b'a' + (i % 26) as u8) as char).collect()
}

fn pattern(n: usize, step: usize) -> Vec<u8> {
    (0..n).map(|i| (i * step % 256) as u8).collect()
}

fn datetime(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32, nanos: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, mo, d)
        .unwrap()
        .and_hms_nano_opt(h, mi, s, nanos)
        .unwrap()
}

fn max_row() -> TypesRow {
    TypesRow {
        tinyint: Some(255),
        smallint: Some(i16::MAX),
        int: Some(i32::MAX),
        bigint: Some(i64::MAX),
        bit: Some(true),
        dec: Some(Numeric::new_with_scale(
            99_999_999_999_999_999_999_999_999_999_999_999_999,
            10,
        )),
        dec0: Some(Numeric::new_with_scale(
            99_999_999_999_999_999_999_999_999_999_999_999_999,
            0,
        )),
        money: Some(Numeric::new_with_scale(9_223_372_036_854_775_807, 4)),
        smallmoney: Some(Numeric::new_with_scale(2_147_483_647, 4)),
        float: Some(f64::MAX),
        real: Some(f32::MAX),
        date: NaiveDate::from_ymd_opt(9999, 12, 31),
        time: NaiveTime::from_hms_nano_opt(23, 59, 59, 999_999_900),
        datetime: Some(datetime(9999, 12, 31, 23, 59, 59, 997_000_000)),
        datetime2: Some(datetime(9999, 12, 31, 23, 59, 59, 999_999_900)),
        dto: Some(
            FixedOffset::east_opt(14 * 3600)
                .unwrap()
                .from_local_datetime(&datetime(9999, 12, 31, 23, 59, 59, 999_999_900))
                .unwrap(),
        ),
        sdt: Some(datetime(2079, 6, 6, 23, 59, 0, 0)),
        char: Some("abc       ".into()),
        varchar: Some("é".repeat(10) + &letters(7990)),
        nchar: Some("żółw      ".into()),
        nvarchar: Some("日本語ü".repeat(1000)),
        varcharmax: Some("é".to_string() + &letters(99_999)),
        nvarcharmax: Some("Ωλφα".repeat(25_000)),
        varbinarymax: Some(pattern(300_000, 1)),
        binary: Some(vec![0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 0xff]),
        varbinary: Some(pattern(8000, 7)),
        guid: Some(Uuid::parse_str("6F9619FF-8B86-D011-B42D-00C04FC964FF").unwrap()),
    }
}

fn min_row() -> TypesRow {
    TypesRow {
        tinyint: Some(0),
        smallint: Some(i16::MIN),
        int: Some(i32::MIN),
        bigint: Some(i64::MIN),
        bit: Some(false),
        dec: Some(Numeric::new_with_scale(
            -99_999_999_999_999_999_999_999_999_999_999_999_999,
            10,
        )),
        dec0: Some(Numeric::new_with_scale(
            -99_999_999_999_999_999_999_999_999_999_999_999_999,
            0,
        )),
        money: Some(Numeric::new_with_scale(-9_223_372_036_854_775_808, 4)),
        smallmoney: Some(Numeric::new_with_scale(-2_147_483_648, 4)),
        float: Some(-2.2250738585072014e-308),
        real: Some(-1.175_494_4e-38),
        date: NaiveDate::from_ymd_opt(1, 1, 1),
        time: NaiveTime::from_hms_opt(0, 0, 0),
        datetime: Some(datetime(1753, 1, 1, 0, 0, 0, 0)),
        datetime2: Some(datetime(1, 1, 1, 0, 0, 0, 0)),
        dto: Some(
            FixedOffset::east_opt(0)
                .unwrap()
                .from_local_datetime(&datetime(1, 1, 1, 0, 0, 0, 0))
                .unwrap(),
        ),
        sdt: Some(datetime(1900, 1, 1, 0, 0, 0, 0)),
        char: Some(" ".repeat(10)),
        varchar: Some(String::new()),
        nchar: Some(" ".repeat(10)),
        nvarchar: Some(String::new()),
        varcharmax: Some(String::new()),
        nvarcharmax: Some(String::new()),
        varbinarymax: Some(Vec::new()),
        binary: Some(vec![0; 8]),
        varbinary: Some(Vec::new()),
        guid: Some(Uuid::nil()),
    }
}

/// A datetime holds 1/300 s ticks (.997 is stored as 299/300 s) and tiberius
/// reports the tick exactly, to the nanosecond below it.
fn as_datetime_ticks(value: NaiveDateTime) -> NaiveDateTime {
    let nanos = u64::from(value.and_utc().timestamp_subsec_nanos());
    let ticks = (nanos * 300 + 500_000_000) / 1_000_000_000;
    let tick_nanos = (ticks * 1_000_000_000 / 300) as u32;
    value.with_nanosecond(tick_nanos).expect("below one second")
}

/// Money as tiberius decodes it: the wire's scaled integer divided by 10^4 in f64.
fn money_as_f64(n: Option<Numeric>) -> Option<f64> {
    n.map(|n| n.value() as f64 / 1e4)
}

fn get<'a, T: FromSql<'a>>(row: &'a Row, column: &str) -> Result<Option<T>, String> {
    row.try_get::<T, _>(column)
        .map_err(|e| format!("{column}: {e}"))
}

async fn round_trip(env: &Env, id: i32, want: TypesRow) -> Outcome {
    let mut client = env.connect().await?;
    let markers: Vec<String> = (2..=COLUMNS.len() + 1).map(|i| format!("@P{i}")).collect();
    let insert = format!(
        "INSERT INTO {} (id, {}) VALUES (@P1, {})",
        env.table("types"),
        COLUMNS.join(", "),
        markers.join(", ")
    );
    let w = &want;
    let params: [&dyn ToSql; 28] = [
        &id,
        &w.tinyint,
        &w.smallint,
        &w.int,
        &w.bigint,
        &w.bit,
        &w.dec,
        &w.dec0,
        &w.money,
        &w.smallmoney,
        &w.float,
        &w.real,
        &w.date,
        &w.time,
        &w.datetime,
        &w.datetime2,
        &w.dto,
        &w.sdt,
        &w.char,
        &w.varchar,
        &w.nchar,
        &w.nvarchar,
        &w.varcharmax,
        &w.nvarcharmax,
        &w.varbinarymax,
        &w.binary,
        &w.varbinary,
        &w.guid,
    ];
    let result = client.execute(insert, &params).await.map_err(sql_err)?;
    expect_eq(1, result.total(), "rows inserted")?;
    let select = format!(
        "SELECT {} FROM {} WHERE id = @P1",
        COLUMNS.join(", "),
        env.table("types")
    );
    let row = first_row(&mut client, &select, &[&id]).await?;
    let got = TypesRow {
        tinyint: get(&row, "c_tinyint")?,
        smallint: get(&row, "c_smallint")?,
        int: get(&row, "c_int")?,
        bigint: get(&row, "c_bigint")?,
        bit: get(&row, "c_bit")?,
        dec: get(&row, "c_dec")?,
        dec0: get(&row, "c_dec0")?,
        money: None,
        smallmoney: None,
        float: get(&row, "c_float")?,
        real: get(&row, "c_real")?,
        date: get(&row, "c_date")?,
        time: get(&row, "c_time")?,
        datetime: get(&row, "c_datetime")?,
        datetime2: get(&row, "c_datetime2")?,
        dto: get(&row, "c_dto")?,
        sdt: get(&row, "c_sdt")?,
        char: get::<&str>(&row, "c_char")?.map(str::to_string),
        varchar: get::<&str>(&row, "c_varchar")?.map(str::to_string),
        nchar: get::<&str>(&row, "c_nchar")?.map(str::to_string),
        nvarchar: get::<&str>(&row, "c_nvarchar")?.map(str::to_string),
        varcharmax: get::<&str>(&row, "c_varcharmax")?.map(str::to_string),
        nvarcharmax: get::<&str>(&row, "c_nvarcharmax")?.map(str::to_string),
        varbinarymax: get::<&[u8]>(&row, "c_varbinarymax")?.map(<[u8]>::to_vec),
        binary: get::<&[u8]>(&row, "c_binary")?.map(<[u8]>::to_vec),
        varbinary: get::<&[u8]>(&row, "c_varbinary")?.map(<[u8]>::to_vec),
        guid: get(&row, "c_guid")?,
    };
    let mut wrong = Vec::new();
    let money: Option<f64> = get(&row, "c_money")?;
    let smallmoney: Option<f64> = get(&row, "c_smallmoney")?;
    if money != money_as_f64(want.money) {
        wrong.push(format!(
            "c_money expected {:?} got {money:?}",
            money_as_f64(want.money)
        ));
    }
    if smallmoney != money_as_f64(want.smallmoney) {
        wrong.push(format!(
            "c_smallmoney expected {:?} got {smallmoney:?}",
            money_as_f64(want.smallmoney)
        ));
    }
    let want = TypesRow {
        money: None,
        smallmoney: None,
        datetime: want.datetime.map(as_datetime_ticks),
        ..want
    };
    if got != want {
        for (name, w, g) in field_differences(&want, &got) {
            wrong.push(format!("{name} expected {w} got {g}"));
        }
    }
    expect(wrong.is_empty(), || wrong.join("; "))
}

/// The fields where two rows differ, each value shortened for the report.
fn field_differences(want: &TypesRow, got: &TypesRow) -> Vec<(&'static str, String, String)> {
    fn short<T: std::fmt::Debug>(v: &T) -> String {
        let s = format!("{v:?}");
        if s.len() > 80 {
            format!(
                "{}...({} chars)",
                s.chars().take(60).collect::<String>(),
                s.len()
            )
        } else {
            s
        }
    }
    let mut out = Vec::new();
    macro_rules! compare {
        ($($field:ident),*) => {$(
            if want.$field != got.$field {
                out.push((concat!("c_", stringify!($field)), short(&want.$field), short(&got.$field)));
            }
        )*};
    }
    compare!(
        tinyint,
        smallint,
        int,
        bigint,
        bit,
        dec,
        dec0,
        float,
        real,
        date,
        time,
        datetime,
        datetime2,
        dto,
        sdt,
        char,
        varchar,
        nchar,
        nvarchar,
        varcharmax,
        nvarcharmax,
        varbinarymax,
        binary,
        varbinary,
        guid
    );
    out
}

/// tiberius calls procedures only through batches: its RPC requests are all
/// sp_executesql, so the OUTPUT parameter and return status are read by T-SQL.
async fn proc_output(env: &Env) -> Outcome {
    let mut client = env.connect().await?;
    let sql = format!(
        "DECLARE @doubled INT, @status INT; EXEC @status = {} @P1, @doubled OUTPUT; SELECT @status, @doubled",
        env.table("double")
    );
    let row = first_row(&mut client, &sql, &[&21i32]).await?;
    let got = (
        row.try_get::<i32, _>(0).map_err(sql_err)?,
        row.try_get::<i32, _>(1).map_err(sql_err)?,
    );
    expect_eq((Some(22), Some(42)), got, "(return status, @doubled)")
}

async fn transaction(env: &Env, commit: bool) -> Outcome {
    let id = if commit { 10 } else { 11 };
    let count = format!("SELECT COUNT(*) FROM {} WHERE id = {id}", env.table("kv"));
    let mut client = env.connect().await?;
    let mut other = env.connect().await?;
    client.begin_transaction().await.map_err(sql_err)?;
    let insert = format!("INSERT INTO {} (id, v) VALUES (@P1, 7)", env.table("kv"));
    client.execute(insert, &[&id]).await.map_err(sql_err)?;
    let inside = count.replace("_kv", "_kv WITH (SNAPSHOT)");
    expect_eq(
        1,
        query_i32(&mut client, &inside).await?,
        "own insert visible inside",
    )?;
    expect_eq(
        0,
        query_i32(&mut other, &count).await?,
        "uncommitted insert seen by another connection",
    )?;
    if commit {
        client.commit_transaction().await.map_err(sql_err)?;
    } else {
        client.rollback_transaction().await.map_err(sql_err)?;
    }
    expect_eq(
        i32::from(commit),
        query_i32(&mut other, &count).await?,
        "rows after the transaction",
    )?;
    expect_eq(
        0,
        query_i32(&mut client, "SELECT @@TRANCOUNT").await?,
        "@@TRANCOUNT after the transaction",
    )
}

async fn unique_violation(env: &Env) -> Outcome {
    let mut client = env.connect().await?;
    let insert = format!("INSERT INTO {} (id, v) VALUES (@P1, @P2)", env.table("kv"));
    expect_error(2627, client.execute(insert, &[&1i32, &5i32]).await)?;
    let v = query_i32(
        &mut client,
        &format!("SELECT v FROM {} WHERE id = 1", env.table("kv")),
    )
    .await?;
    expect_eq(100, v, "row 1 unchanged")
}

async fn write_conflict(env: &Env) -> Outcome {
    let update = format!(
        "UPDATE {} WITH (SNAPSHOT) SET v = v + 1 WHERE id = 1",
        env.table("kv")
    );
    let mut a = env.connect().await?;
    let mut b = env.connect().await?;
    a.begin_transaction().await.map_err(sql_err)?;
    b.begin_transaction().await.map_err(sql_err)?;
    let first = a.execute(update.as_str(), &[]).await.map_err(sql_err)?;
    expect_eq(1, first.total(), "first update's row count")?;
    expect_error(41302, b.execute(update.as_str(), &[]).await)?;
    // 41302 says "The transaction was aborted": the server may have ended it
    // already and answer the rollback with 3903, which is no failure.
    if let Err(e) = b.rollback_transaction().await {
        expect_error(3903, Err::<(), _>(e))?;
    }
    a.rollback_transaction().await.map_err(sql_err)?;
    let v = query_i32(
        &mut a,
        &format!("SELECT v FROM {} WHERE id = 1", env.table("kv")),
    )
    .await?;
    expect_eq(100, v, "value after both rolled back")
}

/// tiberius' documented way: let a timeout drop the running request's future,
/// then `cancel_query` sends ATTENTION and waits for the server's acknowledgement.
async fn cancel(env: &Env) -> Outcome {
    let mut client = env.connect().await?;
    let start = Instant::now();
    let endless = client.execute("DECLARE @i INT = 0; WHILE 1 = 1 SET @i = @i + 1;", &[]);
    if let Ok(result) = tokio::time::timeout(Duration::from_millis(500), endless).await {
        return fail(format!(
            "the endless loop ended: {:?}",
            result.map(|r| r.total()).map_err(sql_err)
        ));
    }
    tokio::time::timeout(Duration::from_secs(5), client.cancel_query())
        .await
        .map_err(|_| "cancel_query took over 5 s".to_string())?
        .map_err(sql_err)?;
    let elapsed = start.elapsed();
    expect(elapsed < Duration::from_secs(5), || {
        format!("cancel took {elapsed:?}")
    })?;
    expect_eq(
        3,
        query_i32(&mut client, "SELECT 3").await?,
        "the connection after the cancel",
    )
}

async fn denied(env: &Env) -> Outcome {
    let mut client = env.connect().await?;
    env.run_script(&mut client, "login.sql").await?;
    let reader_name = format!("{}_reader", env.prefix);
    let mut reader = env
        .connect_as(&reader_name, "Reader#Pass1", false)
        .await
        .map_err(sql_err)?;
    let v = query_i32(
        &mut reader,
        &format!("SELECT v FROM {} WHERE id = 1", env.table("kv")),
    )
    .await?;
    expect_eq(100, v, "granted SELECT")?;
    let insert = format!("INSERT INTO {} (id, v) VALUES (50, 1)", env.table("kv"));
    expect_error(229, reader.execute(insert, &[]).await)
}

async fn wrong_password(env: &Env) -> Outcome {
    let wrong = format!("{}x", env.sa_password);
    expect_error(18456, env.connect_as("sa", &wrong, false).await)
}

/// A driver blocked on a server that never answers fails the check instead of hanging.
async fn within_deadline(check: impl Future<Output = Outcome>, seconds: u64) -> Outcome {
    match tokio::time::timeout(Duration::from_secs(seconds), check).await {
        Ok(outcome) => outcome,
        Err(_) => fail(format!("no answer within {seconds} s")),
    }
}

#[tokio::main]
async fn main() {
    let env = Env {
        host: env("HEKLA_HOST"),
        port: env("HEKLA_PORT")
            .parse()
            .expect("HEKLA_PORT is a port number"),
        sa_password: env("HEKLA_SA_PASSWORD"),
        sql_dir: env("HEKLA_CLIENTS_SQL"),
        prefix: std::env::args().nth(1).unwrap_or_else(|| "rust".into()),
    };
    let env = &env;
    let checks: Vec<(&str, CheckFuture)> = vec![
        ("connect_plain", Box::pin(connect_and_select(env, false, 1))),
        ("connect_tls", Box::pin(connect_and_select(env, true, 2))),
        ("create_objects", Box::pin(create_objects(env))),
        ("types_max", Box::pin(round_trip(env, 2, max_row()))),
        ("types_min", Box::pin(round_trip(env, 3, min_row()))),
        (
            "types_null",
            Box::pin(round_trip(env, 4, TypesRow::default())),
        ),
        ("proc_output", Box::pin(proc_output(env))),
        ("tx_commit", Box::pin(transaction(env, true))),
        ("tx_rollback", Box::pin(transaction(env, false))),
        ("unique_violation", Box::pin(unique_violation(env))),
        ("write_conflict", Box::pin(write_conflict(env))),
        ("denied", Box::pin(denied(env))),
        ("wrong_password", Box::pin(wrong_password(env))),
        // Last: a cancel the server ignores can hang the driver until the runner's timeout.
        ("cancel", Box::pin(within_deadline(cancel(env), 30))),
    ];
    println!("n/a tvp: tiberius has no table-valued parameter type");
    let mut failures = 0;
    for (name, check) in checks {
        match check.await {
            Ok(()) => println!("ok {name}"),
            Err(why) => {
                failures += 1;
                println!("FAIL {name}: {}", why.replace('\n', " "));
            }
        }
    }
    std::process::exit(if failures > 0 { 1 } else { 0 });
}
