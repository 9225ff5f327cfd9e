//! INSERT ... VALUES, first slice: constant rows into one table, in one
//! engine transaction so the statement is all or nothing. Values convert
//! to their columns as an assignment does: the engine raises 515 for NULL
//! into NOT NULL, 2628 for a value longer than its column, 2627/2601 for a
//! duplicate key.

use super::eval::Inputs;
use super::{not_yet, resolve_table};
use crate::ast::{self, DmlTarget, ExprKind, InsertSource};
use crate::bind::expr::{assignment_type, implicit, Binder};
use crate::bind::variables::Variables;
use hekla_engine::IsolationLevel;
use hekla_types::{SqlError, SqlResult, Value};

use crate::session::SqlDatabase;

pub fn run(
    db: &SqlDatabase,
    insert: &ast::Insert,
    variables: &Variables,
) -> SqlResult<Option<u64>> {
    if !insert.with.is_empty()
        || insert.top.is_some()
        || !insert.output.is_empty()
        || !insert.hints.is_empty()
    {
        return Err(not_yet("INSERT with WITH, TOP, OUTPUT or OPTION"));
    }
    let DmlTarget::Table { name, hints } = &insert.target else {
        return Err(not_yet("INSERT into a table variable"));
    };
    if !hints.is_empty() {
        return Err(not_yet("table hints"));
    }
    let InsertSource::Values(rows) = &insert.source else {
        return Err(not_yet("INSERT ... SELECT, EXEC and DEFAULT VALUES"));
    };
    let table = resolve_table(db, name)?;
    let targets = target_columns(&table.columns, &insert.columns)?;
    let binder = Binder::new(variables);
    let inputs = Inputs {
        row: &[],
        variables: variables.values(),
    };
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    for row in rows {
        if row.len() != targets.len() {
            return Err(count_mismatch(row.len() > targets.len()));
        }
        let mut given: Vec<Option<Value>> = vec![None; table.columns.len()];
        for (expr, &column) in row.iter().zip(&targets) {
            if matches!(expr.kind, ExprKind::Default) {
                continue;
            }
            let scalar = binder.scalar(expr)?;
            let target = assignment_type(&table.columns[column].data_type);
            given[column] = Some(implicit(scalar, &target)?.eval(&inputs)?);
        }
        // Columns not given, or given DEFAULT, take their default or NULL.
        let values = given
            .into_iter()
            .zip(&table.columns)
            .map(|(value, column)| match (value, &column.default) {
                (Some(value), _) => Ok(value),
                (None, Some(default)) => default.eval(&inputs),
                (None, None) => Ok(Value::Null),
            })
            .collect::<SqlResult<Vec<Value>>>()?;
        tx.insert(&table.engine, &values)?;
    }
    tx.commit()?;
    Ok(Some(rows.len() as u64))
}

/// Column positions in VALUES order: the list given, or every column.
fn target_columns(
    columns: &[crate::catalog::table::ColumnMeta],
    named: &[ast::Ident],
) -> SqlResult<Vec<usize>> {
    if named.is_empty() {
        return Ok((0..columns.len()).collect());
    }
    let mut targets: Vec<usize> = Vec::with_capacity(named.len());
    for ident in named {
        let position = columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(&ident.value))
            .ok_or_else(|| {
                SqlError::new(
                    207,
                    16,
                    1,
                    format!("Invalid column name '{}'.", ident.value),
                )
            })?;
        if targets.contains(&position) {
            return Err(SqlError::new(
                264,
                16,
                1,
                format!(
                    "The column name '{}' is specified more than once in the SET clause or column list of an INSERT. A column cannot be assigned more than one value in the same clause. Modify the clause to make sure that a column is updated only once. If this statement updates or inserts columns into a view, column aliasing can conceal the duplication in your code.",
                    ident.value
                ),
            ));
        }
        targets.push(position);
    }
    Ok(targets)
}

/// Msg 110 (more values than columns) or 109 (fewer).
fn count_mismatch(more_values: bool) -> SqlError {
    if more_values {
        SqlError::new(
            110,
            15,
            1,
            "There are fewer columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.",
        )
    } else {
        SqlError::new(
            109,
            15,
            1,
            "There are more columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.",
        )
    }
}
