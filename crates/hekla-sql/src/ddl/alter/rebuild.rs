//! The rebuild itself: bind the new definition, create the new engine
//! table, copy the rows, commit the copy with the new definition, swap the
//! catalog entry, drop the old engine table. The order and why it is safe
//! are in the module above.

use super::edit::{Plan, Source};
use super::messages as msg;
use super::{Failure, Outcome};
use crate::ddl::DdlDatabase;
use hekla_engine::IsolationLevel;
use hekla_exec::constraints::{Statement, StatementChecks};
use hekla_exec::context::Context;
use hekla_exec::eval::Evaluate;
use hekla_exec::eval::Inputs;
use hekla_plan::bind::expr::{assignment_type, implicit, Scalar, ScalarKind};
use hekla_plan::catalog::constraint_ids;
use hekla_plan::catalog::store::{ObjectType, StoredObject};
use hekla_plan::catalog::table::{TableDesign, TableMeta};
use hekla_plan::catalog::{stored_object, Catalog};
use hekla_types::{SqlError, SqlResult, Value};
use std::ops::ControlFlow;
use std::sync::Arc;

/// Errors of binding an added constraint or index that SQL Server follows
/// with Msg 1750.
const CONSTRAINT_ERRORS: &[u32] = &[
    1753, 1754, 1757, 1767, 1769, 1770, 1773, 1776, 1778, 1911, 2714, 8110, 8111, 8139,
];

/// Points where a test stands in for a crash: the rebuild stops there,
/// leaving in place what it did so far (what a crash would leave durable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// After the copy, before the commit that switches definitions (the
    /// copy's transaction rolls back, as a crash would lose it).
    BeforeSwitch,
    /// After that commit, before the old engine table is dropped.
    BeforeDrop,
}

thread_local! {
    /// Where this thread's rebuilds stop; None (run to the end) but in a
    /// test that set it with [`stop_rebuilds_at`].
    static STOP: std::cell::Cell<Option<Stop>> = const { std::cell::Cell::new(None) };
}

/// A test hook, for tests of what a crash in a rebuild leaves: makes the
/// rebuilds this thread runs stop at `point` (None: run to the end), as
/// a crash there would. Nothing but tests sets it.
pub fn stop_rebuilds_at(point: Option<Stop>) {
    STOP.with(|stop| stop.set(point));
}

fn stop_at(point: Stop) -> bool {
    STOP.with(|stop| stop.get() == Some(point))
}

pub fn run(db: &dyn DdlDatabase, old: &Arc<TableMeta>, plan: Plan) -> Outcome<()> {
    let creates = plan.creates;
    let (design, definition) = bind(db, old, plan.create, &plan.ids).map_err(|error| {
        if creates && CONSTRAINT_ERRORS.contains(&error.number) {
            Failure::creating(error)
        } else {
            error.into()
        }
    })?;
    let engine = db
        .engine()
        .create_replacement(old.engine.id, design.engine_def())?;
    let mut meta = TableMeta::new(design, old.object_id, Arc::clone(&engine), &definition);
    meta.created_ms = old.created_ms;
    if let (Some(new), Some(old)) = (&meta.identity, &old.identity) {
        new.counter.take_over(&old.counter);
    }
    let meta = Arc::new(meta);
    let context = Context::new(db, &[]);
    let copied = copy(db, old, &meta, &plan.sources, creates, &context);
    if copied.is_ok() && stop_at(Stop::BeforeSwitch) {
        return Ok(());
    }
    let switched = copied.and_then(|()| switch(db, old, meta, &context));
    if switched.is_err() {
        drop(context);
        // Nothing names it: if this fails too, the next open drops it.
        let _ = db.engine().drop_table(engine.id);
    }
    switched
}

/// Allocates ids for new constraints, prints the definition and binds it
/// as the next open will: parsed back from the text.
fn bind(
    db: &dyn DdlDatabase,
    old: &TableMeta,
    mut create: hekla_parser::ast::CreateTable,
    ids: &[Option<i32>],
) -> SqlResult<(TableDesign, String)> {
    let mut catalog = db.catalog_mut();
    let ids = ids
        .iter()
        .map(|id| id.map_or_else(|| catalog.allocate_object_id(), Ok))
        .collect::<SqlResult<Vec<i32>>>()?;
    constraint_ids::set_constraint_ids(&mut create, &ids);
    let definition = create.to_string();
    // The table's own names are not taken by another object: out of the
    // catalog while its new definition binds.
    let current = catalog.remove_table(old.object_id);
    let design = bind_text(&catalog, &definition, old.object_id);
    if let Some(current) = current {
        catalog.replace_table(current);
    }
    Ok((design?, definition))
}

/// Binds a stored CREATE TABLE text (as `TableMeta::restore` does).
fn bind_text(catalog: &Catalog, definition: &str, object_id: i32) -> SqlResult<TableDesign> {
    let batch = hekla_parser::parse_batch(definition).map_err(|_| msg::damaged(object_id))?;
    let Some(hekla_parser::ast::StatementKind::CreateTable(create)) =
        batch.statements.first().map(|s| &s.kind)
    else {
        return Err(msg::damaged(object_id));
    };
    let (create, ids) = constraint_ids::split_stored(create)?;
    TableDesign::bind_numbered(&create, catalog, object_id, &ids)
}

/// Copies every row of `old` into `new` within the context's transaction.
fn copy(
    db: &dyn DdlDatabase,
    old: &TableMeta,
    new: &Arc<TableMeta>,
    sources: &[Source],
    creates: bool,
    context: &Context,
) -> Outcome<()> {
    let shown = format!(
        "{}.{}",
        db.catalog().schema_name(new.schema_id).unwrap_or("dbo"),
        new.name
    );
    // ALTER COLUMN converts as an assignment to the new type does.
    let conversions = sources
        .iter()
        .zip(&new.columns)
        .map(|(source, column)| match *source {
            Source::Converted(from) => {
                let read = Scalar {
                    kind: ScalarKind::Column(from),
                    data_type: old.columns[from].data_type,
                };
                implicit(read, &assignment_type(&column.data_type)).map(Some)
            }
            _ => Ok(None),
        })
        .collect::<SqlResult<Vec<Option<Scalar>>>>()?;
    let checks = StatementChecks::new(db.planning(), new, Statement::AlterTable);
    let check_rows = !checks.is_empty();
    let inputs = Inputs::top(context);
    let mut reader = db.engine().begin(IsolationLevel::Snapshot)?;
    let mut failure: Option<Failure> = None;
    reader.scan(&old.engine, |row| {
        let mut values = row.values();
        let filled =
            fill(db, new, sources, &conversions, &inputs, &mut values, &shown).and_then(|row| {
                insert(context, new, &row, &shown, creates)?;
                if check_rows {
                    checks.inserted(context, &row)?;
                }
                Ok(())
            });
        match filled {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                failure = Some(error);
                ControlFlow::Break(())
            }
        }
    })?;
    reader.commit()?;
    if let Some(failure) = failure {
        return Err(failure);
    }
    checks.finish(context)?;
    Ok(())
}

/// The new table's row made from `values`, a row of the old table (whose
/// values it takes).
fn fill(
    db: &dyn DdlDatabase,
    new: &TableMeta,
    sources: &[Source],
    conversions: &[Option<Scalar>],
    inputs: &Inputs,
    values: &mut [Value],
    shown: &str,
) -> Outcome<Vec<Value>> {
    let mut row = Vec::with_capacity(sources.len());
    for (position, (source, column)) in sources.iter().zip(&new.columns).enumerate() {
        let rows_failure = |error: SqlError| Failure {
            before: Vec::new(),
            last: error,
            data: true,
        };
        let value = match *source {
            Source::Kept(from) => std::mem::replace(&mut values[from], Value::Null),
            Source::Converted(_) => {
                let conversion = conversions[position].as_ref().expect("made per source");
                let value = conversion
                    .eval(&inputs.with_row(values))
                    .map_err(rows_failure)?;
                if value.is_null() && !column.nullable {
                    return Err(rows_failure(hekla_engine::errors::null_not_allowed(
                        &column.name,
                        shown,
                        "UPDATE",
                    )));
                }
                value
            }
            Source::Added { with_values } => {
                let identity = new.identity.as_ref().filter(|i| i.column == position);
                let value = match (identity, &column.default) {
                    (Some(identity), _) => identity.next(db.engine()).map_err(rows_failure)?,
                    (None, Some(default)) if with_values || !column.nullable => {
                        default.eval(inputs).map_err(rows_failure)?
                    }
                    _ => Value::Null,
                };
                if value.is_null() && !column.nullable && column.default.is_none() {
                    return Err(msg::not_null_column(&column.name, &new.name).into());
                }
                value
            }
        };
        row.push(value);
    }
    Ok(row)
}

/// Inserts `row` into the new table; a duplicate key is Msg 1505 (then
/// 1750 for ALTER TABLE ADD).
fn insert(
    context: &Context,
    new: &TableMeta,
    row: &[Value],
    shown: &str,
    creates: bool,
) -> Outcome<()> {
    let inserted = context
        .transaction()
        .and_then(|mut tx| tx.insert(&new.engine, row).map(|_| ()));
    let error = match inserted {
        Ok(()) => return Ok(()),
        Err(error) => error,
    };
    let error = match error.number {
        2601 | 2627 => duplicate(context, new, row, shown).unwrap_or(error),
        _ => error,
    };
    Err(if error.number == 1505 && creates {
        Failure {
            before: vec![error],
            last: msg::could_not_create(),
            data: true,
        }
    } else {
        Failure {
            before: Vec::new(),
            last: error,
            data: true,
        }
    })
}

/// Msg 1505 for a row whose insert met a duplicate key: the unique index
/// that already holds its key, and that key as stored.
fn duplicate(
    context: &Context,
    new: &TableMeta,
    row: &[Value],
    shown: &str,
) -> SqlResult<SqlError> {
    let mut tx = context.transaction()?;
    for (position, index) in new.indexes.iter().enumerate() {
        if index.constraint.is_none() {
            continue;
        }
        let key: Vec<Value> = index.columns.iter().map(|&(c, _)| row[c].clone()).collect();
        let found = tx.lookup(&new.engine, position, &key, |held| {
            let text: Vec<String> = index
                .columns
                .iter()
                .map(|&(c, _)| match held.value(c) {
                    Value::Null => "<NULL>".to_string(),
                    value => value.to_string(),
                })
                .collect();
            ControlFlow::Break(text.join(", "))
        })?;
        if let Some(text) = found {
            return Ok(msg::duplicate_key(shown, &index.name, &text));
        }
    }
    Err(SqlError::new(1505, 16, 1, "duplicate key not found"))
}

/// Commits the copy with the new definition, then puts the new table in
/// the catalog (binding the tables that reference it again) and drops the
/// old engine table.
fn switch(
    db: &dyn DdlDatabase,
    old: &Arc<TableMeta>,
    new: Arc<TableMeta>,
    context: &Context,
) -> Outcome<()> {
    let mut catalog = db.catalog_mut();
    let object = StoredObject {
        created_ms: old.created_ms,
        ..stored_object(
            old.object_id,
            old.schema_id,
            &old.name,
            ObjectType::Table,
            Some(new.engine.id),
            &new.definition,
        )
    };
    let previous = catalog.replace_table(Arc::clone(&new));
    // Tables whose foreign keys reference this one hold its column and
    // index positions: bound again, each out of the catalog while it
    // binds (its own names are not taken).
    let mut replaced: Vec<Arc<TableMeta>> = Vec::new();
    let mut rebound = Ok(());
    let children: Vec<Arc<TableMeta>> = {
        let mut seen = vec![old.object_id];
        catalog
            .referencing_keys(old.object_id)
            .into_iter()
            .map(|(child, _)| child)
            .filter(|child| {
                let fresh = !seen.contains(&child.object_id);
                seen.push(child.object_id);
                fresh
            })
            .collect()
    };
    for child in children {
        catalog.remove_table(child.object_id);
        match rebind(db, &catalog, &child) {
            Ok(meta) => {
                catalog.replace_table(Arc::new(meta));
                replaced.push(child);
            }
            Err(error) => {
                catalog.replace_table(child);
                rebound = Err(error);
                break;
            }
        }
    }
    let committed = rebound.and_then(|()| {
        {
            let mut tx = context.transaction()?;
            db.object_store().replace(&mut tx, &object)?;
            if old.identity.is_some() && new.identity.is_none() {
                db.object_store()
                    .counters()
                    .delete(&mut tx, old.object_id)?;
            }
        }
        context.commit()
    });
    if let Err(error) = committed {
        for child in replaced {
            catalog.replace_table(child);
        }
        if let Some(previous) = previous {
            catalog.replace_table(previous);
        }
        return Err(error.into());
    }
    drop(catalog);
    if stop_at(Stop::BeforeDrop) {
        return Ok(());
    }
    // Named by nothing now: if the drop fails, the next open drops it.
    let _ = db.engine().drop_table(old.engine.id);
    Ok(())
}

/// A table bound again from its stored definition, over the same engine
/// table, its IDENTITY continuing.
fn rebind(db: &dyn DdlDatabase, catalog: &Catalog, table: &TableMeta) -> SqlResult<TableMeta> {
    let object = StoredObject {
        created_ms: table.created_ms,
        ..stored_object(
            table.object_id,
            table.schema_id,
            &table.name,
            ObjectType::Table,
            Some(table.engine.id),
            &table.definition,
        )
    };
    let meta = TableMeta::restore(db.engine(), catalog, &object)?;
    if let (Some(new), Some(old)) = (&meta.identity, &table.identity) {
        new.counter.take_over(&old.counter);
    }
    Ok(meta)
}
