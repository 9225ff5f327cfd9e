//! Reading a table along an access path ([`hekla_plan::plan::access`]): a
//! scan, an index seek, or a range index's key order.

use super::eval::{Evaluate, Inputs};
use hekla_engine::{KeyRange, Row, RowId, Transaction};
use hekla_plan::bind::expr::Reads;
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::plan::access::{AccessPath, RangeBound};
use hekla_plan::plan::TableRead;
use hekla_types::{DataType, SqlResult, Value};
use std::ops::{Bound, ControlFlow};

/// Reads `table`'s rows along `path`; key expressions read `outer` (the
/// columns before the table in a join, and outer queries' rows).
pub fn read_along(
    path: &AccessPath,
    tx: &mut Transaction,
    table: &TableMeta,
    outer: &Inputs<'_>,
    mut visit: impl FnMut(Row<'_>) -> ControlFlow<()>,
) -> SqlResult<()> {
    match path {
        AccessPath::Scan => tx.scan(&table.engine, visit)?,
        // A key of one column (the usual) is read without a vector.
        AccessPath::Seek { index, key } if key.len() == 1 => {
            let value = key[0].eval(outer)?;
            if value.is_null() {
                return Ok(()); // = NULL matches nothing
            }
            tx.lookup(
                &table.engine,
                *index,
                std::slice::from_ref(&value),
                &mut visit,
            )?
        }
        AccessPath::Seek { index, key } => {
            let key = key
                .iter()
                .map(|part| part.eval(outer))
                .collect::<SqlResult<Vec<Value>>>()?;
            if key.iter().any(Value::is_null) {
                return Ok(()); // = NULL matches nothing
            }
            tx.lookup(&table.engine, *index, &key, &mut visit)?
        }
        AccessPath::Ordered { index } => {
            tx.scan_range(&table.engine, *index, &KeyRange::all(), visit)?
        }
        AccessPath::Range {
            index,
            lower,
            upper,
        } => {
            let leading = &table.columns[table.indexes[*index].columns[0].0].data_type;
            let (Some(lower), Some(upper)) =
                (bound(lower, leading, outer)?, bound(upper, leading, outer)?)
            else {
                return Ok(()); // a comparison with NULL matches nothing
            };
            let range = KeyRange::new(lower, upper);
            tx.scan_range(&table.engine, *index, &range, visit)?
        }
    };
    Ok(())
}

/// One end of a range read on a key column of type `key_type`: None when
/// its value is NULL, open when the value is longer than the column holds
/// (a `varchar(8000)` parameter against a `varchar(255)` key). The index
/// cannot take such a bound, and reading a wider range is safe: the filter
/// still tests the comparison on every row.
fn bound(
    end: &Option<Box<RangeBound>>,
    key_type: &DataType,
    outer: &Inputs<'_>,
) -> SqlResult<Option<Bound<Vec<Value>>>> {
    let Some(end) = end else {
        return Ok(Some(Bound::Unbounded));
    };
    let value = end.value.eval(outer)?;
    if value.is_null() {
        return Ok(None);
    }
    if matches!(key_type.encode(&value, &mut Vec::new()), Err(error) if error.number == 2628) {
        return Ok(Some(Bound::Unbounded));
    }
    Ok(Some(if end.inclusive {
        Bound::Included(vec![value])
    } else {
        Bound::Excluded(vec![value])
    }))
}

/// Visits the rows `read` finds along its access path that its filter
/// accepts, with their values, read at the isolation level its hint asks
/// for. `inputs` gives the statement's context and outer rows; the rows
/// are read into memory first, so `visit` may use the transaction.
pub fn for_each_row(
    read: &TableRead,
    inputs: &Inputs<'_>,
    mut visit: impl FnMut(RowId, Vec<Value>) -> SqlResult<ControlFlow<()>>,
) -> SqlResult<()> {
    // In a native module, a filter that compiled tests the stored rows
    // before they are decoded: none is left to test.
    let mut compiled = super::compiled::row_filter(read, inputs)?;
    let filter = read.filter.as_ref().filter(|_| compiled.is_none());
    let width = read.table.columns.len();
    // A filter without subqueries is tested as the rows are read, on just
    // the columns it reads: only the rows it accepts are decoded whole and
    // kept (a DELETE with a selective WHERE no longer copies the table).
    let filter_columns = filter
        .filter(|filter| !filter.has_subquery())
        .map(|filter| filter.columns())
        .filter(|columns| columns.iter().all(|&column| column < width));
    let mut rows = Vec::new();
    {
        let mut outcome = Ok(());
        let mut tested = vec![Value::Null; width];
        let table = inputs.context.table(&read.table);
        let mut tx = inputs.context.reading(table, read.hint)?;
        read_along(&read.path, &mut tx, table, inputs, |row| {
            if let Some(filter) = &mut compiled {
                match filter.passes(row.payload()) {
                    Ok(true) => rows.push((row.id(), row.values())),
                    Ok(false) => {}
                    Err(error) => {
                        outcome = Err(error);
                        return ControlFlow::Break(());
                    }
                }
                return ControlFlow::Continue(());
            }
            let Some(columns) = &filter_columns else {
                rows.push((row.id(), row.values()));
                return ControlFlow::Continue(());
            };
            for &column in columns {
                tested[column] = row.value(column);
            }
            match super::run::holds(filter, &inputs.with_row(&tested)) {
                Ok(true) => rows.push((row.id(), row.values())),
                Ok(false) => {}
                Err(error) => {
                    outcome = Err(error);
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        })?;
        outcome?;
    }
    for (id, values) in rows {
        let accepted =
            filter_columns.is_some() || super::run::holds(filter, &inputs.with_row(&values))?;
        if accepted && visit(id, values)?.is_break() {
            break;
        }
    }
    Ok(())
}
