//! Temporary tables (`#t`, `##t`) and table variables (`@t`): the tables
//! SQL Server keeps in tempdb. Each is an engine table with
//! `DURABILITY = SCHEMA_ONLY` and no stored definition, so its rows are
//! never logged and a restart drops it (`Catalog::load` drops engine
//! tables nothing describes). They are not in the catalog either: a
//! statement finds them through the database's [`TempTables`] (`#t` of its
//! own session, `##t` of any) or its batch's variables (`@t`), and
//! `sys.tables` does not list them (they would be in `tempdb.sys.tables`).
//!
//! - `#t` is visible to the session that made it only, and dropped with
//!   the session (or by DROP TABLE);
//! - `##t` is visible to every session and dropped when the session that
//!   made it ends;
//! - `@t` lives for the batch that declared it.
//!
//! Engine names cannot collide across sessions: `#t` is stored as SQL
//! Server stores it, the name padded with `_` to 116 characters and a
//! 12-digit hexadecimal suffix; a table variable as `#` and 8 hexadecimal
//! digits. Object ids are negative, as SQL Server's temporary objects'
//! are. SQL Server does not undo writes to a table variable when a
//! transaction rolls back; hekla has no explicit transactions yet, so each
//! statement is all or nothing on table variables as on any table.

use super::table::{TableDesign, TableMeta};
use crate::bind::variables::Variables;
use crate::error::{not_supported_yet, Refused};
use crate::plan::context::PlanContext;
use crate::session::SqlDatabase;
use hekla_engine::{Durability, IsolationLevel};
use hekla_parser::ast::{self, ConstraintKind, TableElement};
use hekla_types::{SqlError, SqlResult};
use std::collections::HashMap;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// SQL Server's limit on a temporary table's name.
pub const MAX_NAME: usize = 116;

/// The database's temporary tables, by session.
pub struct TempTables {
    entries: Mutex<Vec<TempTable>>,
    /// The last object id handed out (they count down from -1).
    last_id: AtomicI32,
    /// Temporary tables made so far (see [`TempTables::mark`]).
    made: AtomicU64,
    /// Emptied tables of ended table variables and dropped temporary
    /// tables, by definition, for the next DECLARE or CREATE of the same:
    /// a batch that declares a table variable (the seeds' `DECLARE @od
    /// ...` per call), or a procedure that makes a `#temp` table, would
    /// otherwise make and drop an engine table each time (a new table's
    /// first row allocates and zeroes a 2 MiB heap chunk).
    spare: Mutex<HashMap<String, Vec<Arc<TableMeta>>>>,
}

/// Most emptied tables kept per table-variable definition.
const SPARE_PER_DEFINITION: usize = 64;

struct TempTable {
    /// The session that made it.
    owner: i16,
    table: Arc<TableMeta>,
    /// When it was made, as a count of the tables made before it.
    made: u64,
}

impl Default for TempTables {
    fn default() -> Self {
        TempTables {
            entries: Mutex::new(Vec::new()),
            last_id: AtomicI32::new(-(1 << 20)),
            made: AtomicU64::new(0),
            spare: Mutex::new(HashMap::new()),
        }
    }
}

impl TempTables {
    /// An emptied table made from `definition` before, if one is spare.
    pub fn take_spare(&self, definition: &str) -> Option<Arc<TableMeta>> {
        self.spare
            .lock()
            .expect("spare tables")
            .get_mut(definition)?
            .pop()
    }

    /// Keeps the emptied `table` for reuse; false if there are enough.
    fn keep_spare(&self, table: Arc<TableMeta>) -> bool {
        let mut spare = self.spare.lock().expect("spare tables");
        let kept = spare.entry(table.definition.clone()).or_default();
        if kept.len() >= SPARE_PER_DEFINITION {
            return false;
        }
        kept.push(table);
        true
    }

    /// A new (negative) object id.
    pub fn allocate_id(&self) -> SqlResult<i32> {
        let id = self.last_id.fetch_sub(1, Ordering::Relaxed);
        if id == i32::MIN {
            return Err(SqlError::new(
                1105,
                17,
                1,
                "The database has run out of object ids for temporary objects.",
            ));
        }
        Ok(id - 1)
    }

    /// `#name` of session `spid`, or `##name` of any session.
    pub fn find(&self, spid: i16, name: &str) -> Option<Arc<TableMeta>> {
        let entries = self.entries.lock().expect("temp tables");
        entries
            .iter()
            .find(|entry| visible(entry, spid, name))
            .map(|entry| Arc::clone(&entry.table))
    }

    /// Removes and returns what `spid` sees as `name`.
    pub fn take(&self, spid: i16, name: &str) -> Option<Arc<TableMeta>> {
        let mut entries = self.entries.lock().expect("temp tables");
        let position = entries
            .iter()
            .position(|entry| visible(entry, spid, name))?;
        Some(entries.remove(position).table)
    }

    /// Registers `table`, which session `spid` made as `name`; false (and
    /// nothing registered) when `spid` already sees a table of that name:
    /// another session may have made the same `##table` meanwhile.
    pub fn add(&self, spid: i16, name: &str, table: &Arc<TableMeta>) -> bool {
        let mut entries = self.entries.lock().expect("temp tables");
        if entries.iter().any(|entry| visible(entry, spid, name)) {
            return false;
        }
        entries.push(TempTable {
            owner: spid,
            table: Arc::clone(table),
            made: self.made.fetch_add(1, Ordering::Relaxed),
        });
        true
    }

    /// A mark to tell the temporary tables made from now on
    /// ([`TempTables::take_local_since`]).
    pub fn mark(&self) -> u64 {
        self.made.load(Ordering::Relaxed)
    }

    /// Removes and returns the local (`#`) tables `spid` made since `mark`.
    fn take_local_since(&self, spid: i16, mark: u64) -> Vec<Arc<TableMeta>> {
        let mut entries = self.entries.lock().expect("temp tables");
        let (gone, kept) = std::mem::take(&mut *entries)
            .into_iter()
            .partition(|entry| {
                entry.owner == spid && entry.made >= mark && !is_global(&entry.table.name)
            });
        *entries = kept;
        gone.into_iter().map(|entry| entry.table).collect()
    }

    /// Removes and returns every table `spid` made.
    fn take_session(&self, spid: i16) -> Vec<Arc<TableMeta>> {
        let mut entries = self.entries.lock().expect("temp tables");
        let (gone, kept) = std::mem::take(&mut *entries)
            .into_iter()
            .partition(|entry| entry.owner == spid);
        *entries = kept;
        gone.into_iter().map(|entry| entry.table).collect()
    }
}

fn visible(entry: &TempTable, spid: i16, name: &str) -> bool {
    entry.table.name.eq_ignore_ascii_case(name) && (is_global(name) || entry.owner == spid)
}

/// `#t` or `##t`, however qualified (`tempdb..#t`, `dbo.#t`).
pub fn is_temp(name: &ast::ObjectName) -> bool {
    name.name().value.starts_with('#')
}

pub fn is_global(name: &str) -> bool {
    name.starts_with("##")
}

/// The table `name` names for a statement of the batch with `variables`:
/// a temporary table of its session (whatever database and schema are
/// written: SQL Server looks for `#` names in tempdb) or a user table.
/// Msg 208 when there is none.
pub fn resolve_table(
    db: &dyn PlanContext,
    variables: &Variables,
    name: &ast::ObjectName,
) -> SqlResult<Arc<TableMeta>> {
    if !is_temp(name) {
        return super::resolve_table(db, name);
    }
    db.temp_table(variables.session(), &name.name().value)
        .ok_or_else(|| crate::error::invalid_object_name(&name.name().value, 1))
}

/// The table variable `@name` (given without the `@`), or Msg 1087.
pub fn resolve_variable(variables: &Variables, name: &str) -> SqlResult<Arc<TableMeta>> {
    variables.table(name).cloned().ok_or_else(|| {
        SqlError::new(
            1087,
            15,
            2,
            format!("Must declare the table variable \"@{name}\"."),
        )
    })
}

/// The table variable `@name` (given without the `@`) as the target of
/// an INSERT, UPDATE, DELETE or OUTPUT INTO: Msg 1087 if there is none,
/// 10700 for a READONLY table-valued parameter.
pub fn writable_variable(variables: &Variables, name: &str) -> SqlResult<Arc<TableMeta>> {
    let table = resolve_variable(variables, name)?;
    if variables.is_readonly(name) {
        return Err(SqlError::new(
            10700,
            16,
            1,
            format!("The table-valued parameter \"@{name}\" is READONLY and cannot be modified."),
        ));
    }
    Ok(table)
}

/// An error as SQL Server words it for a table variable: the engine
/// names the table by its engine name (`dbo.#FFEFFFFE`), SQL Server a key
/// violation's object as `dbo.@t` and a NULL violation's table as `@t`.
pub fn present_error(variables: &Variables, mut error: SqlError) -> SqlError {
    if !matches!(error.number, 515 | 2601 | 2627) {
        return error;
    }
    for (name, table) in variables.tables() {
        let engine = &table.engine.qualified_name;
        if error.message.contains(engine.as_str()) {
            let shown = if error.number == 515 {
                format!("@{name}")
            } else {
                format!("dbo.@{name}")
            };
            error.message = error.message.replace(engine.as_str(), &shown);
        }
    }
    error
}

/// The table an INSERT, UPDATE, DELETE or OUTPUT INTO writes.
pub fn resolve_target(
    db: &dyn PlanContext,
    variables: &Variables,
    target: &ast::DmlTarget,
) -> SqlResult<Arc<TableMeta>> {
    match target {
        ast::DmlTarget::Table { name, .. } => resolve_table(db, variables, name),
        ast::DmlTarget::Variable(name) => writable_variable(variables, name),
    }
}

/// `DECLARE @name TABLE (...)`: a table for the batch, kept in its
/// variables.
pub fn declare_table(
    db: &SqlDatabase,
    variables: &mut Variables,
    name: &str,
    elements: &[TableElement],
) -> SqlResult<()> {
    variables.check_table_name(name)?;
    let foreign_key = |kind: &ConstraintKind| matches!(kind, ConstraintKind::ForeignKey { .. });
    let has_foreign_key = elements.iter().any(|element| match element {
        TableElement::Column(column) => column.constraints.iter().any(|c| foreign_key(&c.kind)),
        TableElement::Constraint(constraint) => foreign_key(&constraint.kind),
        TableElement::Index(_) => false,
    });
    if has_foreign_key {
        return Err(not_supported_yet(
            Refused::Statement,
            "FOREIGN KEY constraints in table variables",
        ));
    }
    let table = variable_table(db, name, elements)?;
    variables.declare_table(name, table);
    Ok(())
}

/// The table of a table variable `@name` with `elements`, declared
/// nowhere yet: what `DECLARE @name TABLE (...)` makes, and where a
/// table-valued parameter's rows go (`Variables::declare_table_parameter`).
/// Whoever makes one drops it with [`discard`] unless a batch's end does.
pub fn variable_table(
    db: &SqlDatabase,
    name: &str,
    elements: &[TableElement],
) -> SqlResult<Arc<TableMeta>> {
    let span = hekla_parser::span::Span::default();
    let create = ast::CreateTable {
        name: ast::ObjectName {
            parts: vec![Some(ast::Ident {
                value: format!("@{name}"),
                span,
            })],
            span,
        },
        elements: elements.to_vec(),
        options: Vec::new(),
        filegroup: None,
    };
    if let Some(table) = db.temp_tables().take_spare(&create.to_string()) {
        return Ok(table);
    }
    let object_id = db.temp_tables().allocate_id()?;
    let engine_name = format!("#{:08X}", object_id as u32);
    make_table(db, &create, object_id, &engine_name)
}

/// Binds `create` and makes its engine table, schema only, as
/// `engine_name`.
pub fn make_table(
    db: &SqlDatabase,
    create: &ast::CreateTable,
    object_id: i32,
    engine_name: &str,
) -> SqlResult<Arc<TableMeta>> {
    let mut design = {
        let catalog = db.catalog();
        TableDesign::bind(create, &catalog, object_id)?
    };
    design.durability = Durability::SchemaOnly;
    // tempdb's tables are disk-based in SQL Server.
    design.memory_optimized = false;
    let mut def = design.engine_def();
    def.name = engine_name.to_string();
    let engine = db.engine().create_table(def)?;
    let definition = create.to_string();
    Ok(Arc::new(TableMeta::new(
        design,
        object_id,
        engine,
        &definition,
    )))
}

/// Removes FOREIGN KEY constraints (SQL Server skips them on temporary
/// tables); their names, None for unnamed ones.
pub fn strip_foreign_keys(elements: &mut Vec<TableElement>) -> Vec<Option<String>> {
    let mut skipped = Vec::new();
    let mut keep = |constraint: &ast::TableConstraint| {
        if matches!(constraint.kind, ConstraintKind::ForeignKey { .. }) {
            skipped.push(constraint.name.as_ref().map(|n| n.value.clone()));
            false
        } else {
            true
        }
    };
    elements.retain_mut(|element| match element {
        TableElement::Column(column) => {
            column.constraints.retain(&mut keep);
            true
        }
        TableElement::Constraint(constraint) => keep(constraint),
        TableElement::Index(_) => true,
    });
    skipped
}

/// The end of a batch: its table variables go.
pub fn end_batch(db: &SqlDatabase, variables: &mut Variables) {
    for table in variables.take_tables() {
        release(db, table);
    }
}

/// The end of a procedure: the `#` tables it made (since `mark`) go, as
/// in SQL Server.
pub fn end_procedure(db: &SqlDatabase, spid: i16, mark: u64) {
    for table in db.temp_tables().take_local_since(spid, mark) {
        release(db, table);
    }
}

/// The end of session `spid`: its `#` and `##` tables go.
pub fn end_session(db: &SqlDatabase, spid: i16) {
    for table in db.temp_tables().take_session(spid) {
        release(db, table);
    }
}

/// A temporary table or table variable no longer used: emptied and kept
/// for the next of the same definition, or dropped. A table with an
/// IDENTITY column is dropped (its next use must start at the seed), and
/// so is a `##table`, whose engine table is named as it is.
pub fn release(db: &SqlDatabase, table: Arc<TableMeta>) {
    let reusable = table.identity.is_none() && !is_global(&table.name) && empty(db, &table).is_ok();
    if !(reusable && db.temp_tables().keep_spare(Arc::clone(&table))) {
        let _ = discard(db, &table);
    }
}

/// Drops a temporary table's engine table, its rows deleted first (the
/// engine frees a dropped table only once no transaction can reach it).
pub fn discard(db: &SqlDatabase, table: &TableMeta) -> SqlResult<()> {
    let emptied = empty(db, table);
    let dropped = db.engine().drop_table(table.engine.id);
    emptied.and(dropped)
}

/// Deletes every row of `table`.
fn empty(db: &SqlDatabase, table: &TableMeta) -> SqlResult<()> {
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    tx.delete_all(&table.engine)?;
    tx.commit().map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpret::{Frame, Interpreter};
    use crate::session::Session;
    use crate::text_output::{TextOptions, TextSink};

    /// Runs `batch` with `variables` as its frame's; what sqlcmd shows.
    fn run_with(session: &mut Session, variables: Variables, batch: &str) -> String {
        let parsed = hekla_parser::parse_batch(batch).expect("parses");
        let mut sink = TextSink::new(Vec::new(), TextOptions::default());
        let mut frame = Frame {
            variables,
            level: 1,
            procedure: Some("p".to_string()),
            source: batch,
            return_status: None,
            native: false,
            plan: None,
        };
        let mut interpreter = Interpreter::new(session, &mut sink);
        let _ = interpreter.block(&parsed.statements, &mut frame);
        interpreter.end_frame(&mut frame);
        String::from_utf8(sink.finish().0).expect("UTF-8")
    }

    #[test]
    fn readonly_table_parameters_are_read_but_never_written() {
        let db = SqlDatabase::in_memory().unwrap();
        let mut session = db.session().unwrap();
        let declared = hekla_parser::parse_batch(
            "DECLARE @ids TABLE (id int NOT NULL PRIMARY KEY NONCLUSTERED)",
        )
        .unwrap();
        let ast::StatementKind::DeclareTable { elements, .. } = &declared.statements[0].kind else {
            panic!("not a table variable");
        };
        let table = variable_table(&db, "ids", elements).unwrap();
        let spid = session.state.spid;
        let parameter = |readonly: bool| {
            let mut variables = Variables::for_session(spid);
            variables
                .declare_table_parameter("ids", Arc::clone(&table), readonly)
                .unwrap();
            variables
        };
        let out = run_with(
            &mut session,
            parameter(false),
            "SET NOCOUNT ON INSERT INTO @ids VALUES (1), (2)",
        );
        assert_eq!(out, "");
        let batch = "SET NOCOUNT ON
INSERT INTO @ids VALUES (3)
UPDATE @ids SET id = 4 WHERE id = 1
DELETE FROM @ids
DELETE i FROM @ids AS i WHERE i.id = 2
DECLARE @copy TABLE (id int)
INSERT INTO @copy OUTPUT inserted.id INTO @ids SELECT id FROM @ids
SELECT COUNT(*) AS n FROM @ids
SELECT COUNT(*) AS copied FROM @copy";
        let out = run_with(&mut session, parameter(true), batch);
        let readonly = "The table-valued parameter \"@ids\" is READONLY and cannot be modified.";
        assert_eq!(
            out.matches("Msg 10700, Level 16, State 1").count(),
            5,
            "{out}"
        );
        assert_eq!(out.matches(readonly).count(), 5, "{out}");
        assert!(
            out.contains("n          \n-----------\n          2\n"),
            "{out}"
        );
        assert!(
            out.contains("copied     \n-----------\n          0\n"),
            "{out}"
        );
        // The frame's end leaves the parameter's table to its maker.
        let out = run_with(
            &mut session,
            parameter(true),
            "SELECT COUNT(*) AS n FROM @ids",
        );
        assert!(out.contains("          2\n"), "{out}");
        let mut variables = parameter(true);
        let taken = variables.declare_table_parameter("IDS", Arc::clone(&table), true);
        assert_eq!(taken.unwrap_err().number, 134);
        assert!(variables.take_tables().is_empty());
        discard(&db, &table).unwrap();
    }
}
