//! ALTER TABLE, CREATE INDEX and DROP INDEX on existing tables, loaded or
//! not, as SQL Server does them for memory-optimized tables: offline, by
//! rebuilding the table.
//!
//! # The rebuild
//!
//! A table's stored CREATE TABLE text is what the catalog is rebuilt from
//! at open, so every change is a new CREATE TABLE text:
//!
//! 1. The stored definition is parsed and its tree edited ([`edit`]):
//!    columns, constraints and indexes removed, added or changed. The new
//!    tree is printed back (`print`), so the new text is canonical T-SQL
//!    that `TableDesign::bind` accepts, and it is bound exactly as the next
//!    open will bind it (parsed back from the text).
//! 2. CHECK and FOREIGN KEY constraints keep their object ids: the text
//!    carries them in a hidden table option, `HEKLA_CONSTRAINT_IDS =
//!    '<id> <id> ...'` (in the order the binder meets the constraints), and
//!    new constraints get fresh ids. (CREATE TABLE numbers them after the
//!    table's id; an added constraint cannot, as later objects took those.)
//!    The option exists only in stored text: CREATE TABLE refuses it.
//! 3. A new engine table is created beside the old one (same name: see
//!    `Database::create_replacement`), and every row is copied into it in
//!    one transaction: columns converted for ALTER COLUMN as an assignment
//!    converts (245, 8114, 2628 ...; NULL into NOT NULL is 515 "UPDATE
//!    fails"), added columns filled with their DEFAULT (when NOT NULL or
//!    `WITH VALUES`), their IDENTITY's next values, or NULL (NOT NULL
//!    without a default on a non-empty table: 4901). New keys find
//!    duplicates as the engine inserts (1505), CHECK and FOREIGN KEY
//!    constraints are tested per row (547, "The ALTER TABLE statement
//!    conflicted ...").
//! 4. The same transaction replaces the stored definition (same object
//!    id, same name, the new engine table) and commits: that commit is the
//!    switch. Then the catalog entry is replaced, tables whose foreign keys
//!    reference this one are bound again (their keys point at its column
//!    and index positions), and the old engine table is dropped.
//!
//! Any failure before the commit drops the new engine table and leaves
//! the table as it was. IDENTITY counters are per object id and survive:
//! the new table's counter resumes where the old one stopped.
//!
//! # Crash safety
//!
//! Engine catalog changes are logged before they happen; the copy and the
//! definition commit together. A crash before that commit leaves the old
//! definition naming the old engine table, and the new engine table (with
//! or without rows) named by no definition; a crash after it leaves the
//! new definition naming the new table, and the old one named by none.
//! `Catalog::load` drops engine tables no definition names, so the next
//! open finds the table wholly before or wholly after the ALTER. Recovery
//! restores both engine tables despite their shared name.
//!
//! # Concurrency
//!
//! Statements hold the database's schema lock shared while they run
//! ([`gate`]); a rebuild holds it exclusively from before it reads the
//! definition until after the swap, as SQL Server's Sch-M lock makes ALTER
//! TABLE on a memory-optimized table offline. So the rows copied are all
//! the rows: no statement can still be writing to the old table (its
//! commit came before the copy's snapshot, or it waits and then sees the
//! new table). The lock is database-wide, not per table.

mod edit;
pub mod gate;
pub(crate) mod messages;
mod rebuild;

pub use gate::SchemaLock;
pub use rebuild::{stop_rebuilds_at, Stop};

use crate::ddl::DdlDatabase;
use edit::{DropIndex, Editor};
use hekla_parser::ast::{self, AlterDropKind, AlterTableAction, StatementKind};
use hekla_plan::catalog::constraint_ids;
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::catalog::Catalog;
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::names::DATABASE_NAME;
use hekla_plan::result::{ErrorEvent, ResultSink};
use hekla_types::SqlError;
use messages as msg;
use std::sync::Arc;

/// How a rebuild failed: SQL Server reports some failures as more than
/// one message (1505 then 1750, the 5074s then 4922); `data` says the
/// failure came from the rows (the statement was terminated).
#[derive(Debug)]
pub struct Failure {
    pub before: Vec<SqlError>,
    pub last: SqlError,
    pub data: bool,
}

impl Failure {
    /// A constraint or index could not be created: `error`, then 1750.
    fn creating(error: SqlError) -> Failure {
        Failure {
            before: vec![error],
            last: msg::could_not_create(),
            data: false,
        }
    }
}

impl From<SqlError> for Failure {
    fn from(last: SqlError) -> Failure {
        Failure {
            before: Vec::new(),
            last,
            data: false,
        }
    }
}

type Outcome<T> = Result<T, Failure>;

/// Why ALTER TABLE, CREATE INDEX or DROP INDEX failed.
pub struct Rejected {
    pub error: SqlError,
    /// It failed on a row of the table (copying it), so SQL Server
    /// follows the error with "The statement has been terminated.".
    pub on_rows: bool,
}

/// Whether `kind` is a statement [`run`] runs (and that therefore must not
/// hold the schema lock shared).
pub fn rebuilds(kind: &StatementKind) -> bool {
    matches!(
        kind,
        StatementKind::AlterTable(_)
            | StatementKind::CreateIndex(_)
            | StatementKind::Drop {
                object_type: ast::DropType::Index,
                ..
            }
    )
}

/// The schema lock a statement of `kind` holds while it runs: shared, but
/// none for a rebuild (which takes it alone itself).
pub fn stability<'a>(db: &'a dyn DdlDatabase, kind: &StatementKind) -> Option<gate::Stability<'a>> {
    (!rebuilds(kind)).then(|| db.schema_lock().stability())
}

/// Runs ALTER TABLE, CREATE INDEX or DROP INDEX; `inside_statement` when
/// it runs inside another statement (a procedure's), which holds the
/// schema lock shared. Messages that precede the statement's error go to
/// `sink` here; the error itself is returned.
pub fn run(
    db: &dyn DdlDatabase,
    statement: &ast::Statement,
    sink: &mut dyn ResultSink,
    inside_statement: bool,
) -> Result<Option<u64>, Rejected> {
    let outcome = match &statement.kind {
        StatementKind::AlterTable(alter) => alter_table(db, inside_statement, alter),
        StatementKind::CreateIndex(create) => create_index(db, inside_statement, create),
        StatementKind::Drop {
            object_type: ast::DropType::Index,
            if_exists,
            names,
            on_table,
        } => drop_indexes(db, inside_statement, names, on_table.as_ref(), *if_exists),
        other => Err(not_supported_yet(Refused::Statement, other.keywords()).into()),
    };
    match outcome {
        Ok(()) => Ok(None),
        Err(failure) => {
            for error in failure.before {
                sink.error(&ErrorEvent {
                    error,
                    line: statement.span.line,
                    procedure: None,
                });
            }
            Err(Rejected {
                error: failure.last,
                on_rows: failure.data,
            })
        }
    }
}

/// The table `name` (schema dbo unless written).
fn find_table(catalog: &Catalog, name: &ast::ObjectName) -> Option<Arc<TableMeta>> {
    if name.other_database(DATABASE_NAME).is_some() {
        return None;
    }
    let schema = name.schema().map_or("dbo", |s| s.value.as_str());
    catalog
        .schema_id(schema)
        .and_then(|id| catalog.table(id, &name.name().value))
        .cloned()
}

/// Edits table `name` with `edit` (false: nothing to change) and rebuilds
/// it; `missing` decides what a missing table is.
fn with_table(
    db: &dyn DdlDatabase,
    inside_statement: bool,
    name: &ast::ObjectName,
    missing: impl FnOnce() -> Outcome<()>,
    edit: impl FnOnce(&mut Editor) -> Outcome<bool>,
) -> Outcome<()> {
    let _offline = db.schema_lock().modification(inside_statement)?;
    let (table, plan) = {
        let catalog = db.catalog();
        let Some(table) = find_table(&catalog, name) else {
            return missing();
        };
        let create = stored_create(&table)?;
        let mut editor = Editor::new(&table, &catalog, create)?;
        if !edit(&mut editor)? {
            return Ok(());
        }
        (Arc::clone(&table), editor.finish())
    };
    rebuild::run(db, &table, plan)
}

fn alter_table(
    db: &dyn DdlDatabase,
    inside_statement: bool,
    alter: &ast::AlterTable,
) -> Outcome<()> {
    let written = hekla_plan::catalog::sequence::written(&alter.table);
    let missing = || Err(hekla_plan::error::no_table(4902, &written).into());
    with_table(
        db,
        inside_statement,
        &alter.table,
        missing,
        |editor| match &alter.action {
            AlterTableAction::Add(elements) => editor.add(elements).map(|()| true),
            AlterTableAction::Drop {
                what,
                if_exists,
                names,
            } => {
                let mut changed = false;
                for name in names {
                    let name = name.value.as_str();
                    let dropped = match what {
                        AlterDropKind::Column => editor.drop_column(name)?,
                        AlterDropKind::Constraint => editor.drop_constraint(name)?,
                        AlterDropKind::Index => editor.drop_index(name, DropIndex::AlterTable)?,
                    };
                    if dropped {
                        changed = true;
                    } else if !*if_exists {
                        let table = &editor.table.name;
                        return Err(match what {
                            AlterDropKind::Column => {
                                msg::no_column("DROP COLUMN", name, table).into()
                            }
                            AlterDropKind::Constraint => Failure {
                                before: vec![msg::not_a_constraint(name)],
                                last: msg::could_not_drop_constraint(),
                                data: false,
                            },
                            AlterDropKind::Index => msg::no_index_to_drop(name, 16).into(),
                        });
                    }
                }
                Ok(changed)
            }
            AlterTableAction::AlterColumn {
                name,
                data_type,
                collation,
                nullable,
            } => editor
                .alter_column(&name.value, data_type, collation.as_ref(), *nullable)
                .map(|()| true),
            AlterTableAction::RebuildIndex { index, options } => {
                editor.rebuild_index(&index.value, options).map(|()| true)
            }
            AlterTableAction::Set(_) => {
                Err(not_supported_yet(Refused::Statement, "ALTER TABLE SET").into())
            }
        },
    )
}

fn create_index(
    db: &dyn DdlDatabase,
    inside_statement: bool,
    create: &ast::CreateIndex,
) -> Outcome<()> {
    let written = hekla_plan::catalog::sequence::written(&create.table);
    let missing = || Err(hekla_plan::error::no_table(1088, &written).into());
    with_table(db, inside_statement, &create.table, missing, |editor| {
        editor.create_index(&create.index).map(|()| true)
    })
}

/// `DROP INDEX [IF EXISTS] ix ON t` and `DROP INDEX t.ix, ...`: one
/// rebuild per index.
fn drop_indexes(
    db: &dyn DdlDatabase,
    inside_statement: bool,
    names: &[ast::ObjectName],
    on_table: Option<&ast::ObjectName>,
    if_exists: bool,
) -> Outcome<()> {
    for name in names {
        let (table, index) = match on_table {
            Some(table) => (table.clone(), name.name().value.clone()),
            None if name.parts.len() >= 2 => {
                let table = ast::ObjectName {
                    parts: name.parts[..name.parts.len() - 1].to_vec(),
                    span: name.span,
                };
                (table, name.name().value.clone())
            }
            None => {
                return Err(SqlError::new(
                    159,
                    15,
                    1,
                    "Must specify the table name and index name for the DROP INDEX statement.",
                )
                .into())
            }
        };
        let shown = format!("{}.{index}", hekla_plan::catalog::sequence::written(&table));
        let missing = || {
            if if_exists {
                Ok(())
            } else {
                Err(msg::no_index_to_drop(&shown, 11).into())
            }
        };
        with_table(db, inside_statement, &table, missing, |editor| {
            let dropped = editor.drop_index(&index, DropIndex::Statement)?;
            if !dropped && !if_exists {
                return Err(msg::no_index_to_drop(&shown, 11).into());
            }
            Ok(dropped)
        })?;
    }
    Ok(())
}

/// The stored CREATE TABLE of `table`, without the hidden id list.
fn stored_create(table: &TableMeta) -> Outcome<ast::CreateTable> {
    let batch =
        hekla_parser::parse_batch(&table.definition).map_err(|_| msg::damaged(table.object_id))?;
    match batch.statements.into_iter().next().map(|s| s.kind) {
        Some(StatementKind::CreateTable(create)) => {
            let (create, _) = constraint_ids::split_stored(&create)?;
            Ok(create.into_owned())
        }
        _ => Err(msg::damaged(table.object_id).into()),
    }
}

/// Whether a CREATE TABLE says `MEMORY_OPTIMIZED = ON`.
fn is_memory_optimized(create: &ast::CreateTable) -> bool {
    create.options.iter().any(|option| {
        let named = option.name.len() == 1
            && option.name[0]
                .value
                .eq_ignore_ascii_case("MEMORY_OPTIMIZED");
        let on = matches!(&option.value,
            Some(ast::OptionValue::Words(words))
                if words.len() == 1 && words[0].value.eq_ignore_ascii_case("ON"));
        named && on
    })
}
