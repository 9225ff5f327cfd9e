//! The system views against real databases: every view's rows fit its
//! columns, and the figures are the catalog's and the engine's. (They
//! run whole databases, so they live above the views, as tests of the
//! crate.)

use hekla_engine::{DatabaseConfig, IsolationLevel, StorageConfig};
use hekla_sql::names::{DATABASE_ID, DATABASE_NAME, MASTER_NAME};
use hekla_sql::session_registry as sessions;
use hekla_sql::system_views::{lookup, Scope, SystemContext, ViewColumn, VIEWS};
use hekla_sql::text_output::{TextOptions, TextSink};
use hekla_sql::SqlDatabase;
use hekla_types::{DataType, Length, Value};
use std::collections::HashSet;
use std::sync::Arc;

fn run(db: &Arc<SqlDatabase>, sql: &str) {
    let mut sink = TextSink::new(Vec::new(), TextOptions::default());
    db.session().unwrap().execute(sql, &mut sink);
    let errors = sink.error_count();
    let (out, _) = sink.finish();
    assert_eq!(errors, 0, "{sql}\n{}", String::from_utf8_lossy(&out));
}

const SCHEMA: &str = "
    CREATE SCHEMA Sales;
    CREATE TABLE Sales.Orders (
        OrderID int NOT NULL,
        LineID int NOT NULL,
        Note nvarchar(25) NULL DEFAULT N'none',
        Qty smallint NOT NULL,
        Price money NOT NULL,
        PRIMARY KEY NONCLUSTERED HASH (OrderID, LineID) WITH (BUCKET_COUNT = 1000),
        INDEX ix_qty NONCLUSTERED (Qty DESC)
    ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
    CREATE TABLE dbo.Scratch (
        k bigint NOT NULL,
        v varchar(max) NULL,
        at datetime2(3) NULL,
        d decimal(18, 2) NULL,
        CONSTRAINT uq_scratch UNIQUE NONCLUSTERED (k)
    ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY);
";

/// A database with two tables (one durable with a hash primary key and a
/// range index, one SCHEMA_ONLY with a named UNIQUE constraint) and three
/// order lines.
fn sample() -> Arc<SqlDatabase> {
    let db = SqlDatabase::in_memory().unwrap();
    run(&db, SCHEMA);
    run(
        &db,
        "INSERT INTO Sales.Orders (OrderID, LineID, Qty, Price)
         VALUES (1, 1, 5, 2.50), (1, 2, 7, 1.00), (2, 1, 1, 9.99)",
    );
    db
}

/// A view's result: rows addressed by column name.
struct Rows {
    columns: Vec<ViewColumn>,
    rows: Vec<Vec<Value>>,
}

impl Rows {
    fn read(db: &SqlDatabase, schema: &str, name: &str) -> Rows {
        Rows::read_from(db, schema, name)
    }

    fn read_from(context: &dyn SystemContext, schema: &str, name: &str) -> Rows {
        let database = (schema == "dbo").then_some(MASTER_NAME);
        let view = lookup(database, schema, name).unwrap_or_else(|| panic!("{schema}.{name}"));
        Rows {
            columns: (view.columns)(),
            rows: (view.rows)(context).unwrap(),
        }
    }

    fn at(&self, row: usize, column: &str) -> &Value {
        let index = self
            .columns
            .iter()
            .position(|c| c.name == column)
            .unwrap_or_else(|| panic!("no column {column}"));
        &self.rows[row][index]
    }

    /// The rows whose `column` is `value`.
    fn filter(&self, column: &str, value: &Value) -> Vec<usize> {
        (0..self.rows.len())
            .filter(|&row| self.at(row, column) == value)
            .collect()
    }

    fn len(&self) -> usize {
        self.rows.len()
    }
}

fn s(text: &str) -> Value {
    Value::String(text.to_string())
}

fn object_id(db: &SqlDatabase, schema: &str, table: &str) -> i32 {
    let catalog = db.catalog();
    let schema = catalog.schema_id(schema).unwrap();
    catalog.table(schema, table).unwrap().object_id
}

/// Whether `value` is a value of `data_type` (the variant, and within its
/// length or precision, which encoding checks).
fn fits(value: &Value, data_type: &DataType) -> bool {
    let variant = matches!(
        (value, data_type),
        (Value::Bit(_), DataType::Bit)
            | (Value::TinyInt(_), DataType::TinyInt)
            | (Value::SmallInt(_), DataType::SmallInt)
            | (Value::Int(_), DataType::Int)
            | (Value::BigInt(_), DataType::BigInt)
            | (Value::Decimal(_), DataType::Decimal { .. })
            | (Value::Money(_), DataType::Money | DataType::SmallMoney)
            | (Value::Float(_), DataType::Float)
            | (Value::Real(_), DataType::Real)
            | (Value::Date(_), DataType::Date)
            | (Value::DateTime(_), DataType::DateTime)
            | (Value::DateTime2(_), DataType::DateTime2 { .. })
            | (Value::UniqueIdentifier(_), DataType::UniqueIdentifier)
            | (
                Value::String(_),
                DataType::Char { .. }
                    | DataType::VarChar { .. }
                    | DataType::NChar { .. }
                    | DataType::NVarChar { .. }
            )
            | (
                Value::Binary(_),
                DataType::Binary { .. } | DataType::VarBinary { .. }
            )
    );
    let fixed_width_ok = match (value, data_type) {
        // A char(n) value carries its padding: exactly n characters.
        (Value::String(s), DataType::Char { len, .. } | DataType::NChar { len, .. }) => {
            s.chars().count() == *len as usize
        }
        _ => true,
    };
    variant && fixed_width_ok && data_type.encode(value, &mut Vec::new()).is_ok()
}

fn check_shape(db: &SqlDatabase, label: &str) -> usize {
    let mut rows_seen = 0;
    for view in VIEWS {
        let columns = (view.columns)();
        let names: HashSet<&str> = columns.iter().map(|c| c.name).collect();
        assert_eq!(
            names.len(),
            columns.len(),
            "{}: duplicate column",
            view.name
        );
        for column in &columns {
            column.data_type.validate().unwrap();
        }
        let rows = (view.rows)(db).unwrap();
        rows_seen += rows.len();
        for row in &rows {
            assert_eq!(
                row.len(),
                columns.len(),
                "{label} {}.{}",
                view.schema,
                view.name
            );
            for (value, column) in row.iter().zip(&columns) {
                if value.is_null() {
                    assert!(
                        column.nullable,
                        "{label} {}.{}.{} is NOT NULL",
                        view.schema, view.name, column.name
                    );
                } else {
                    assert!(
                        fits(value, &column.data_type),
                        "{label} {}.{}.{}: {value:?} is not {}",
                        view.schema,
                        view.name,
                        column.name,
                        column.data_type.sql_name()
                    );
                }
            }
        }
    }
    rows_seen
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hekla-system-views-{name}-{}-{}",
        std::process::id(),
        hekla_sql::catalog::store::now_ms()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn every_row_fits_its_view_in_memory_and_on_disk() {
    let db = sample();
    let session = sessions::register(db.engine(), None).unwrap();
    session.begin_request("SELECT");
    assert!(check_shape(&db, "in memory") > 2048);

    let dir = scratch_dir("shape");
    {
        let db =
            SqlDatabase::open(&dir, DatabaseConfig::default(), StorageConfig::small()).unwrap();
        run(&db, SCHEMA);
        run(
            &db,
            "INSERT INTO Sales.Orders (OrderID, LineID, Qty, Price) VALUES (1, 1, 5, 2.50)",
        );
        db.engine().checkpoint().unwrap();
        check_shape(&db, "on disk");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_view_is_found_by_its_name_in_its_databases() {
    for view in VIEWS {
        let upper = view.name.to_ascii_uppercase();
        let found = |database| lookup(database, view.schema, &upper).map(|v| v.name);
        match view.scope {
            Scope::Database => {
                assert_eq!(found(None), Some(view.name));
                assert_eq!(found(Some("HEKLA")), Some(view.name));
                assert_eq!(found(Some("master")), None, "{}", view.name);
            }
            Scope::Server => {
                assert_eq!(found(None), Some(view.name));
                assert_eq!(found(Some("master")), Some(view.name));
            }
            Scope::Master => {
                assert_eq!(found(Some("MASTER")), Some(view.name));
                assert_eq!(found(None), None);
            }
        }
        assert_eq!(found(Some("tempdb")), None, "{}", view.name);
    }
    assert_eq!(
        lookup(Some("master"), "dbo", "spt_values").unwrap().name,
        "spt_values"
    );
    assert!(lookup(None, "sys", "no_such_view").is_none());
    assert!(lookup(None, "dbo", "tables").is_none());
}

#[test]
fn spt_values_numbers_0_to_2047() {
    let db = SqlDatabase::in_memory().unwrap();
    let values = Rows::read(&db, "dbo", "spt_values");
    let p_rows = values.filter("type", &s("P  "));
    assert_eq!(p_rows.len(), 2048);
    let numbers: Vec<Value> = p_rows
        .iter()
        .map(|&r| values.at(r, "number").clone())
        .collect();
    let expected: Vec<Value> = (0..=2047).map(Value::Int).collect();
    assert_eq!(numbers, expected);
    // Bit 10 is the third bit of the second byte.
    assert_eq!(values.at(10, "low"), &Value::Int(2));
    assert_eq!(values.at(10, "high"), &Value::Int(4));
    assert_eq!(values.at(10, "name"), &Value::Null);
}

#[test]
fn tables_objects_and_schemas_are_the_catalogs() {
    let db = sample();
    let orders = object_id(&db, "Sales", "Orders");
    let scratch = object_id(&db, "dbo", "Scratch");
    let sales_schema = Value::Int(db.catalog().schema_id("Sales").unwrap() as i32);

    let tables = Rows::read(&db, "sys", "tables");
    assert_eq!(tables.len(), 2);
    let row = tables.filter("object_id", &Value::Int(orders))[0];
    assert_eq!(tables.at(row, "name"), &s("Orders"));
    assert_eq!(tables.at(row, "schema_id"), &sales_schema);
    assert_eq!(tables.at(row, "type"), &s("U "));
    assert_eq!(tables.at(row, "type_desc"), &s("USER_TABLE"));
    assert_eq!(tables.at(row, "is_memory_optimized"), &Value::Bit(true));
    assert_eq!(tables.at(row, "durability"), &Value::TinyInt(0));
    assert_eq!(tables.at(row, "durability_desc"), &s("SCHEMA_AND_DATA"));
    assert_eq!(tables.at(row, "max_column_id_used"), &Value::Int(5));
    assert_eq!(tables.at(row, "lob_data_space_id"), &Value::Int(0));
    let row = tables.filter("object_id", &Value::Int(scratch))[0];
    assert_eq!(tables.at(row, "durability"), &Value::TinyInt(1));
    assert_eq!(tables.at(row, "durability_desc"), &s("SCHEMA_ONLY"));
    // varchar(max) is large-object data.
    assert_eq!(tables.at(row, "lob_data_space_id"), &Value::Int(1));

    let objects = Rows::read(&db, "sys", "objects");
    let ids: Vec<&Value> = (0..objects.len())
        .map(|r| objects.at(r, "object_id"))
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&&Value::Int(orders)) && ids.contains(&&Value::Int(scratch)));

    let schemas = Rows::read(&db, "sys", "schemas");
    let sales = schemas.filter("name", &s("Sales"));
    assert_eq!(schemas.at(sales[0], "schema_id"), &sales_schema);
    assert_eq!(schemas.filter("name", &s("dbo")).len(), 1);
}

#[test]
fn columns_and_types_describe_each_column() {
    let db = sample();
    let orders = object_id(&db, "Sales", "Orders");
    let columns = Rows::read(&db, "sys", "columns");
    let mine = columns.filter("object_id", &Value::Int(orders));
    let names: Vec<&Value> = mine.iter().map(|&r| columns.at(r, "name")).collect();
    assert_eq!(
        names,
        [
            &s("OrderID"),
            &s("LineID"),
            &s("Note"),
            &s("Qty"),
            &s("Price")
        ]
    );
    let note = mine[2];
    assert_eq!(columns.at(note, "column_id"), &Value::Int(3));
    assert_eq!(columns.at(note, "system_type_id"), &Value::TinyInt(231));
    assert_eq!(columns.at(note, "max_length"), &Value::SmallInt(50));
    assert_eq!(columns.at(note, "is_nullable"), &Value::Bit(true));
    assert_eq!(
        columns.at(note, "collation_name"),
        &s("SQL_Latin1_General_CP1_CI_AS")
    );
    // A column with a default has a default object SQL Server would
    // number; hekla has none to give.
    assert_eq!(columns.at(note, "default_object_id"), &Value::Null);
    let price = mine[4];
    assert_eq!(columns.at(price, "system_type_id"), &Value::TinyInt(60));
    assert_eq!(columns.at(price, "precision"), &Value::TinyInt(19));
    assert_eq!(columns.at(price, "scale"), &Value::TinyInt(4));
    assert_eq!(columns.at(price, "default_object_id"), &Value::Int(0));
    // Primary key columns are NOT NULL.
    assert_eq!(columns.at(mine[0], "is_nullable"), &Value::Bit(false));

    let types = Rows::read(&db, "sys", "types");
    let int = types.filter("name", &s("int"))[0];
    assert_eq!(types.at(int, "system_type_id"), &Value::TinyInt(56));
    assert_eq!(types.at(int, "user_type_id"), &Value::Int(56));
    let sysname = types.filter("name", &s("sysname"))[0];
    assert_eq!(types.at(sysname, "user_type_id"), &Value::Int(256));
    // Every column's user_type_id is a type sys.types lists.
    let listed: Vec<&Value> = (0..types.len())
        .map(|r| types.at(r, "user_type_id"))
        .collect();
    for row in 0..columns.len() {
        assert!(listed.contains(&columns.at(row, "user_type_id")));
    }
}

#[test]
fn indexes_hash_buckets_and_keys_are_the_tables() {
    let db = sample();
    let orders = object_id(&db, "Sales", "Orders");
    let scratch = object_id(&db, "dbo", "Scratch");

    let indexes = Rows::read(&db, "sys", "indexes");
    let mine = indexes.filter("object_id", &Value::Int(orders));
    let shape: Vec<(Value, Value, Value, Value)> = mine
        .iter()
        .map(|&r| {
            (
                indexes.at(r, "index_id").clone(),
                indexes.at(r, "type").clone(),
                indexes.at(r, "type_desc").clone(),
                indexes.at(r, "is_primary_key").clone(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        vec![
            (
                Value::Int(0),
                Value::TinyInt(0),
                s("HEAP"),
                Value::Bit(false)
            ),
            (
                Value::Int(2),
                Value::TinyInt(7),
                s("NONCLUSTERED HASH"),
                Value::Bit(true)
            ),
            (
                Value::Int(3),
                Value::TinyInt(2),
                s("NONCLUSTERED"),
                Value::Bit(false)
            ),
        ]
    );
    assert_eq!(indexes.at(mine[0], "name"), &Value::Null);
    assert_eq!(indexes.at(mine[2], "name"), &s("ix_qty"));

    // BUCKET_COUNT = 1000 becomes the next power of two.
    let hash = Rows::read(&db, "sys", "hash_indexes");
    assert_eq!(hash.len(), 1);
    assert_eq!(hash.at(0, "object_id"), &Value::Int(orders));
    assert_eq!(hash.at(0, "index_id"), &Value::Int(2));
    assert_eq!(hash.at(0, "bucket_count"), &Value::Int(1024));

    let keys = Rows::read(&db, "sys", "index_columns");
    let pk = keys.filter("index_id", &Value::Int(2));
    let pk: Vec<usize> = pk
        .into_iter()
        .filter(|&r| keys.at(r, "object_id") == &Value::Int(orders))
        .collect();
    let pk_columns: Vec<(&Value, &Value)> = pk
        .iter()
        .map(|&r| (keys.at(r, "column_id"), keys.at(r, "key_ordinal")))
        .collect();
    assert_eq!(
        pk_columns,
        [
            (&Value::Int(1), &Value::TinyInt(1)),
            (&Value::Int(2), &Value::TinyInt(2))
        ]
    );
    let qty = keys.filter("index_id", &Value::Int(3));
    let qty = qty
        .into_iter()
        .find(|&r| keys.at(r, "object_id") == &Value::Int(orders))
        .unwrap();
    assert_eq!(keys.at(qty, "column_id"), &Value::Int(4));
    assert_eq!(keys.at(qty, "is_descending_key"), &Value::Bit(true));

    let constraints = Rows::read(&db, "sys", "key_constraints");
    assert_eq!(constraints.len(), 2);
    let pk = constraints.filter("type", &s("PK"))[0];
    assert_eq!(constraints.at(pk, "parent_object_id"), &Value::Int(orders));
    assert_eq!(constraints.at(pk, "unique_index_id"), &Value::Int(2));
    assert_eq!(constraints.at(pk, "is_system_named"), &Value::Bit(true));
    assert_eq!(constraints.at(pk, "object_id"), &Value::Null);
    let uq = constraints.filter("type", &s("UQ"))[0];
    assert_eq!(constraints.at(uq, "name"), &s("uq_scratch"));
    assert_eq!(constraints.at(uq, "parent_object_id"), &Value::Int(scratch));
    assert_eq!(constraints.at(uq, "is_system_named"), &Value::Bit(false));
    assert_eq!(constraints.at(uq, "type_desc"), &s("UNIQUE_CONSTRAINT"));
}

#[test]
fn hash_index_stats_walk_the_buckets() {
    let db = sample();
    let orders = object_id(&db, "Sales", "Orders");
    let stats = Rows::read(&db, "sys", "dm_db_xtp_hash_index_stats");
    assert_eq!(stats.len(), 1);
    assert_eq!(stats.at(0, "object_id"), &Value::Int(orders));
    assert_eq!(stats.at(0, "total_bucket_count"), &Value::BigInt(1024));
    // Three rows in 1024 buckets: 1021 to 1023 buckets stay empty.
    let Value::BigInt(empty) = *stats.at(0, "empty_bucket_count") else {
        panic!()
    };
    assert!((1021..=1023).contains(&empty), "{empty}");
    let Value::BigInt(longest) = *stats.at(0, "max_chain_length") else {
        panic!()
    };
    // Three rows over n non-empty buckets: the longest chain is 4 - n,
    // the average (truncated) 3 / n.
    let used = 1024 - empty;
    assert_eq!(longest, 4 - used);
    assert_eq!(stats.at(0, "avg_chain_length"), &Value::BigInt(3 / used));
}

#[test]
fn memory_views_add_up_to_the_engines_figures() {
    let db = sample();
    let orders = object_id(&db, "Sales", "Orders");
    let consumers = Rows::read(&db, "sys", "dm_db_xtp_memory_consumers");
    let mine = consumers.filter("object_id", &Value::BigInt(i64::from(orders)));
    let descs: Vec<&Value> = mine
        .iter()
        .map(|&r| consumers.at(r, "memory_consumer_desc"))
        .collect();
    assert_eq!(
        descs,
        [&s("Table heap"), &s("Hash index"), &s("Range index heap")]
    );
    // 1024 buckets of 8 bytes.
    let hash = mine[1];
    assert_eq!(consumers.at(hash, "index_id"), &Value::Int(2));
    assert_eq!(consumers.at(hash, "allocated_bytes"), &Value::BigInt(8192));
    assert_eq!(consumers.at(hash, "memory_consumer_type_desc"), &s("HASH"));
    // The heap holds the three rows.
    let heap = mine[0];
    assert_eq!(consumers.at(heap, "index_id"), &Value::Null);
    let Value::BigInt(heap_bytes) = *consumers.at(heap, "allocated_bytes") else {
        panic!()
    };
    assert!(heap_bytes > 0);

    let tables = Rows::read(&db, "sys", "dm_db_xtp_table_memory_stats");
    let row = tables.filter("object_id", &Value::Int(orders))[0];
    assert_eq!(
        tables.at(row, "memory_allocated_for_table_kb"),
        &Value::BigInt(heap_bytes / 1024)
    );
    // hekla's own catalog tables (object definitions, IDENTITY and
    // sequence counters, principals, role members, server role members,
    // permissions) are listed as system tables, without object ids.
    assert_eq!(tables.filter("object_id", &Value::Null).len(), 6);

    let clerks = Rows::read(&db, "sys", "dm_os_memory_clerks");
    assert_eq!(clerks.len(), 1);
    assert_eq!(clerks.at(0, "type"), &s("MEMORYCLERK_XTP"));
    assert_eq!(clerks.at(0, "name"), &s("DB_ID_5"));
    let allocated: i64 = (0..consumers.len())
        .map(|r| match consumers.at(r, "allocated_bytes") {
            Value::BigInt(n) => *n,
            _ => panic!(),
        })
        .sum();
    assert_eq!(clerks.at(0, "pages_kb"), &Value::BigInt(allocated / 1024));
}

#[test]
fn transaction_views_follow_the_engine() {
    let db = sample();
    let count = |db: &SqlDatabase| match Rows::read(db, "sys", "dm_xtp_transaction_stats")
        .at(0, "total_count")
    {
        Value::BigInt(n) => *n,
        _ => panic!(),
    };
    let before = count(&db);
    run(
        &db,
        "INSERT INTO Sales.Orders (OrderID, LineID, Qty, Price) VALUES (3, 1, 1, 1)",
    );
    assert_eq!(count(&db), before + 1);
    let stats = Rows::read(&db, "sys", "dm_xtp_transaction_stats");
    // In memory only: nothing written to a log.
    assert_eq!(stats.at(0, "log_bytes_written"), &Value::BigInt(0));

    let tx = db.engine().begin(IsolationLevel::Snapshot).unwrap();
    let active = Rows::read(&db, "sys", "dm_db_xtp_transactions");
    let begin = Value::BigInt(db.engine().current_timestamp() as i64);
    let mine = active.filter("begin_tsn", &begin);
    assert!(!mine.is_empty());
    assert_eq!(active.at(mine[0], "state_desc"), &s("ACTIVE"));
    assert_eq!(active.at(mine[0], "end_tsn"), &Value::Null);
    drop(tx);
}

#[test]
fn sessions_and_requests_are_the_registered_ones() {
    let db = SqlDatabase::in_memory().unwrap();
    let idle = sessions::register(db.engine(), None).unwrap();
    let busy = sessions::register(db.engine(), None).unwrap();
    busy.begin_request("SELECT");
    let sessions = Rows::read(&db, "sys", "dm_exec_sessions");
    assert_eq!(sessions.len(), 2);
    let idle_row = sessions.filter("session_id", &Value::SmallInt(idle.session_id()))[0];
    assert_eq!(sessions.at(idle_row, "status"), &s("sleeping"));
    let busy_row = sessions.filter("session_id", &Value::SmallInt(busy.session_id()))[0];
    assert_eq!(sessions.at(busy_row, "status"), &s("running"));
    assert_eq!(sessions.at(busy_row, "database_id"), &Value::SmallInt(5));

    let requests = Rows::read(&db, "sys", "dm_exec_requests");
    assert_eq!(requests.len(), 1);
    assert_eq!(
        requests.at(0, "session_id"),
        &Value::SmallInt(busy.session_id())
    );
    assert_eq!(requests.at(0, "command"), &s("SELECT"));
    busy.end_request(0);
    assert_eq!(Rows::read(&db, "sys", "dm_exec_requests").len(), 0);
    drop((idle, busy));
    assert_eq!(Rows::read(&db, "sys", "dm_exec_sessions").len(), 0);
}

/// A database whose session registry is a fixed list: the views read
/// sessions through [`SystemContext`], not from the process's registry.
struct FixedSessions<'a> {
    db: &'a SqlDatabase,
    sessions: Vec<sessions::SessionInfo>,
}

impl SystemContext for FixedSessions<'_> {
    fn catalog(&self) -> std::sync::RwLockReadGuard<'_, hekla_sql::catalog::Catalog> {
        SystemContext::catalog(self.db)
    }

    fn engine(&self) -> &hekla_engine::Database {
        SystemContext::engine(self.db)
    }

    fn principals(&self) -> std::sync::RwLockReadGuard<'_, hekla_sql::security::Principals> {
        SystemContext::principals(self.db)
    }

    fn cached_plans(&self) -> Vec<Arc<hekla_sql::plan_cache::ProcedurePlan>> {
        self.db.cached_plans()
    }

    fn sessions(&self) -> Vec<sessions::SessionInfo> {
        self.sessions.clone()
    }

    fn native_modules(&self) -> Vec<Arc<hekla_sql::native_code::CompiledModule>> {
        self.db.native_modules().list()
    }
}

#[test]
fn session_views_read_the_registry_the_context_gives() {
    let db = SqlDatabase::in_memory().unwrap();
    let registered = sessions::register(db.engine(), None).unwrap();
    let elsewhere = SqlDatabase::in_memory().unwrap();
    let handle = sessions::register(elsewhere.engine(), Some("sa")).unwrap();
    handle.begin_request("INSERT");
    let context = FixedSessions {
        db: &db,
        sessions: sessions::sessions_of(elsewhere.engine()),
    };
    let shown = Rows::read_from(&context, "sys", "dm_exec_sessions");
    assert_eq!(shown.len(), 1);
    assert_eq!(
        shown.at(0, "session_id"),
        &Value::SmallInt(handle.session_id())
    );
    assert_eq!(shown.at(0, "login_name"), &s("sa"));
    let requests = Rows::read_from(&context, "sys", "dm_exec_requests");
    assert_eq!(requests.len(), 1);
    assert_eq!(requests.at(0, "command"), &s("INSERT"));
    drop((registered, handle));
}

#[test]
fn files_filegroups_and_checkpoint_files_are_on_disk() {
    let in_memory = SqlDatabase::in_memory().unwrap();
    assert_eq!(Rows::read(&in_memory, "sys", "database_files").len(), 0);
    assert_eq!(
        Rows::read(&in_memory, "sys", "dm_db_xtp_checkpoint_files").len(),
        0
    );

    let dir = scratch_dir("files");
    {
        let db =
            SqlDatabase::open(&dir, DatabaseConfig::default(), StorageConfig::small()).unwrap();
        run(&db, SCHEMA);
        run(
            &db,
            "INSERT INTO Sales.Orders (OrderID, LineID, Qty, Price) VALUES (1, 1, 5, 2.50)",
        );
        db.engine().checkpoint().unwrap();

        let filegroups = Rows::read(&db, "sys", "filegroups");
        assert_eq!(filegroups.len(), 1);
        assert_eq!(filegroups.at(0, "type"), &s("FX"));
        assert_eq!(
            filegroups.at(0, "type_desc"),
            &s("MEMORY_OPTIMIZED_DATA_FILEGROUP")
        );

        let engine_files = db.engine().checkpoint_files();
        assert!(!engine_files.is_empty());
        let files = Rows::read(&db, "sys", "dm_db_xtp_checkpoint_files");
        assert_eq!(files.len(), engine_files.len());
        for (row, file) in engine_files.iter().enumerate() {
            assert_eq!(files.at(row, "state_desc"), &s(file.state.name()));
            assert_eq!(files.at(row, "file_type_desc"), &s(file.file_type.name()));
            assert_eq!(
                files.at(row, "file_size_in_bytes"),
                &Value::BigInt(file.file_size_bytes as i64)
            );
        }

        // The container is as big as the checkpoint files, in 8 KB pages.
        let database_files = Rows::read(&db, "sys", "database_files");
        let container =
            database_files.filter("data_space_id", filegroups.at(0, "data_space_id"))[0];
        let total: u64 = engine_files.iter().map(|f| f.file_size_bytes).sum();
        assert_eq!(
            database_files.at(container, "size"),
            &Value::Int(total.div_ceil(8192) as i32)
        );
        let log = database_files.filter("type_desc", &s("LOG"))[0];
        let Value::Int(log_pages) = *database_files.at(log, "size") else {
            panic!()
        };
        assert!(log_pages > 0);

        let databases = Rows::read(&db, "sys", "databases");
        let me = databases.filter("name", &s(DATABASE_NAME))[0];
        assert_eq!(databases.at(me, "database_id"), &Value::Int(DATABASE_ID));
        assert_eq!(databases.at(me, "recovery_model_desc"), &s("SIMPLE"));
        assert_eq!(databases.at(me, "delayed_durability_desc"), &s("DISABLED"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn information_schema_lists_tables_and_columns() {
    let db = sample();
    let tables = Rows::read(&db, "INFORMATION_SCHEMA", "TABLES");
    let orders = tables.filter("TABLE_NAME", &s("Orders"))[0];
    assert_eq!(tables.at(orders, "TABLE_SCHEMA"), &s("Sales"));
    assert_eq!(tables.at(orders, "TABLE_CATALOG"), &s("hekla"));
    assert_eq!(tables.at(orders, "TABLE_TYPE"), &s("BASE TABLE"));

    let columns = Rows::read(&db, "INFORMATION_SCHEMA", "COLUMNS");
    let note = columns.filter("COLUMN_NAME", &s("Note"))[0];
    assert_eq!(columns.at(note, "ORDINAL_POSITION"), &Value::Int(3));
    assert_eq!(columns.at(note, "COLUMN_DEFAULT"), &s("(N'none')"));
    assert_eq!(columns.at(note, "IS_NULLABLE"), &s("YES"));
    assert_eq!(columns.at(note, "DATA_TYPE"), &s("nvarchar"));
    assert_eq!(
        columns.at(note, "CHARACTER_MAXIMUM_LENGTH"),
        &Value::Int(25)
    );
    assert_eq!(columns.at(note, "CHARACTER_OCTET_LENGTH"), &Value::Int(50));
    assert_eq!(columns.at(note, "CHARACTER_SET_NAME"), &s("UNICODE"));
    let v = columns.filter("COLUMN_NAME", &s("v"))[0];
    assert_eq!(columns.at(v, "CHARACTER_MAXIMUM_LENGTH"), &Value::Int(-1));
    let d = columns.filter("COLUMN_NAME", &s("d"))[0];
    assert_eq!(columns.at(d, "NUMERIC_PRECISION"), &Value::TinyInt(18));
    assert_eq!(columns.at(d, "NUMERIC_SCALE"), &Value::Int(2));
    assert_eq!(
        columns.at(d, "NUMERIC_PRECISION_RADIX"),
        &Value::SmallInt(10)
    );
    let at = columns.filter("COLUMN_NAME", &s("at"))[0];
    assert_eq!(columns.at(at, "DATETIME_PRECISION"), &Value::SmallInt(3));
    assert_eq!(columns.at(at, "NUMERIC_PRECISION"), &Value::Null);
    let qty = columns.filter("COLUMN_NAME", &s("Qty"))[0];
    assert_eq!(columns.at(qty, "IS_NULLABLE"), &s("NO"));
    assert_eq!(columns.at(qty, "COLUMN_DEFAULT"), &Value::Null);
}

/// The column types the reference articles' queries rely on.
#[test]
fn seed_query_columns_exist_with_their_types() {
    let expect = |schema: &str, view: &str, wanted: &[(&str, DataType)]| {
        let database = (schema == "dbo").then_some(MASTER_NAME);
        let columns = (lookup(database, schema, view).unwrap().columns)();
        for (name, data_type) in wanted {
            let column = columns
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(name))
                .unwrap_or_else(|| panic!("{view}.{name}"));
            assert_eq!(&column.data_type, data_type, "{view}.{name}");
        }
    };
    let nvarchar = |n| DataType::NVarChar {
        len: Length::Bounded(n),
        collation: hekla_types::Collation::default(),
    };
    let char2 = DataType::Char {
        len: 2,
        collation: hekla_types::Collation::default(),
    };
    expect(
        "sys",
        "dm_os_memory_clerks",
        &[
            ("type", nvarchar(60)),
            ("name", nvarchar(256)),
            ("pages_kb", DataType::BigInt),
        ],
    );
    expect(
        "sys",
        "dm_db_xtp_table_memory_stats",
        &[
            ("object_id", DataType::Int),
            ("memory_allocated_for_table_kb", DataType::BigInt),
            ("memory_allocated_for_indexes_kb", DataType::BigInt),
        ],
    );
    expect(
        "sys",
        "tables",
        &[("object_id", DataType::Int), ("type", char2)],
    );
    expect(
        "sys",
        "filegroups",
        &[("data_space_id", DataType::Int), ("type", char2)],
    );
    expect(
        "sys",
        "database_files",
        &[("data_space_id", DataType::Int), ("size", DataType::Int)],
    );
    expect(
        "sys",
        "dm_db_xtp_checkpoint_files",
        &[
            ("state", DataType::SmallInt),
            ("state_desc", nvarchar(60)),
            ("file_type", DataType::SmallInt),
            ("file_type_desc", nvarchar(60)),
            ("file_size_in_bytes", DataType::BigInt),
        ],
    );
    expect(
        "sys",
        "dm_db_xtp_memory_consumers",
        &[
            ("object_id", DataType::BigInt),
            ("index_id", DataType::Int),
            ("memory_consumer_desc", nvarchar(64)),
            ("allocated_bytes", DataType::BigInt),
            ("used_bytes", DataType::BigInt),
            ("allocation_count", DataType::Int),
        ],
    );
    expect(
        "sys",
        "objects",
        &[("object_id", DataType::Int), ("name", nvarchar(128))],
    );
    expect(
        "sys",
        "indexes",
        &[
            ("object_id", DataType::Int),
            ("index_id", DataType::Int),
            ("type_desc", nvarchar(60)),
        ],
    );
    expect(
        "sys",
        "dm_os_buffer_descriptors",
        &[
            ("database_id", DataType::Int),
            ("allocation_unit_id", DataType::BigInt),
            ("page_type", nvarchar(60)),
            ("row_count", DataType::Int),
            ("free_space_in_bytes", DataType::Int),
            ("read_microsec", DataType::BigInt),
            ("is_modified", DataType::Bit),
            ("file_id", DataType::Int),
            ("page_id", DataType::Int),
            ("page_level", DataType::Int),
        ],
    );
    expect(
        "sys",
        "allocation_units",
        &[
            ("allocation_unit_id", DataType::BigInt),
            ("container_id", DataType::BigInt),
            ("type", DataType::TinyInt),
        ],
    );
    expect(
        "sys",
        "partitions",
        &[
            ("object_id", DataType::Int),
            ("index_id", DataType::Int),
            ("hobt_id", DataType::BigInt),
            ("partition_id", DataType::BigInt),
        ],
    );
}
