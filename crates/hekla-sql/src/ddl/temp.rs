//! The tables of tempdb made and dropped: CREATE TABLE and DROP TABLE of
//! `#temp` and `##global` tables, `DECLARE @t TABLE (...)` and table
//! variables of a table type, and their end with the batch, procedure or
//! session. Their model and lookup are `catalog::temp`'s.

use crate::ddl::DdlDatabase;
use hekla_engine::{Durability, IsolationLevel};
use hekla_parser::ast::{self, ConstraintKind, TableElement};
use hekla_plan::bind::variables::Variables;
use hekla_plan::catalog::table::{TableDesign, TableMeta};
use hekla_plan::catalog::table_type::{elements_text, TableType};
use hekla_plan::catalog::temp::{is_global, strip_foreign_keys, MAX_NAME};
use hekla_plan::catalog::user_type::{self, Resolved};
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::type_names::TypeContext;
use hekla_types::{Collation, SqlError, SqlResult};
use std::sync::Arc;

/// `CREATE TABLE #t (...)` (or `##t`) for session `spid`; SELECT INTO
/// makes its temporary tables here too. Returns the table and the
/// informational messages SQL Server prints (FOREIGN KEY constraints are
/// skipped on temporary tables).
pub fn create(
    db: &dyn DdlDatabase,
    spid: i16,
    create: &ast::CreateTable,
) -> SqlResult<(Arc<TableMeta>, Vec<String>)> {
    let name = create.name.name().value.clone();
    if name.chars().count() > MAX_NAME {
        return Err(SqlError::new(
            193,
            15,
            1,
            format!("The object or column name starting with '{name}' is too long. The maximum length is {MAX_NAME} characters."),
        ));
    }
    if !create.options.is_empty() {
        return Err(not_supported_yet(
            Refused::Statement,
            "CREATE TABLE options on temporary tables",
        ));
    }
    let temp = db.temp_tables();
    if temp.find(spid, &name).is_some() {
        return Err(hekla_engine::errors::object_exists(&name));
    }
    let mut local = create.clone();
    local.name = ast::ObjectName {
        parts: vec![Some(create.name.name().clone())],
        span: create.name.span,
    };
    let skipped = strip_foreign_keys(&mut local.elements);
    let definition = local.to_string();
    let table = match temp.take_spare(&definition) {
        Some(table) => table,
        None => {
            let object_id = temp.allocate_id()?;
            let engine_name = if is_global(&name) {
                name.clone()
            } else {
                // A 12-digit number, as SQL Server's suffix.
                format!("{name:_<MAX_NAME$}{:012X}", -i64::from(object_id))
            };
            make_table(db, &local, object_id, &engine_name, definition)?
        }
    };
    let object_id = table.object_id;
    let messages = skipped
        .into_iter()
        .map(|constraint| {
            let constraint = constraint.unwrap_or_else(|| {
                hekla_plan::catalog::constraint::system_name("FK", &name, None, object_id)
            });
            format!("Skipping FOREIGN KEY constraint '{constraint}' definition for temporary table. FOREIGN KEY constraints are not enforced on local or global temporary tables.")
        })
        .collect();
    if !temp.add(spid, &name, &table) {
        release(db, table);
        return Err(hekla_engine::errors::object_exists(&name));
    }
    Ok((table, messages))
}

/// `DROP TABLE [IF EXISTS] #t` by session `spid` (any session may drop a
/// `##t`); Msg 3701 when there is none.
pub fn drop(
    db: &dyn DdlDatabase,
    spid: i16,
    name: &ast::ObjectName,
    if_exists: bool,
) -> SqlResult<()> {
    let written = &name.name().value;
    match db.temp_tables().take(spid, written) {
        Some(table) => {
            release(db, table);
            Ok(())
        }
        None if if_exists => Ok(()),
        None => Err(hekla_plan::catalog::cannot_drop("table", written)),
    }
}

/// What a table variable is made from: its columns, constraints and
/// indexes, and the same written as T-SQL (the key its emptied tables are
/// kept for reuse under).
pub struct VariableShape<'a> {
    pub elements: &'a [TableElement],
    pub text: std::borrow::Cow<'a, str>,
}

impl<'a> VariableShape<'a> {
    /// `DECLARE @t TABLE (elements)`: written out here.
    pub fn declared(elements: &'a [TableElement]) -> VariableShape<'a> {
        VariableShape {
            elements,
            text: elements_text(elements).into(),
        }
    }

    /// A variable of a table type: written out when the type was made.
    pub fn of_type(table_type: &'a TableType) -> VariableShape<'a> {
        VariableShape {
            elements: &table_type.elements,
            text: table_type.elements_text.as_str().into(),
        }
    }
}

/// `DECLARE @name TABLE (...)`: a table for the batch, kept in its
/// variables.
pub fn declare_table(
    db: &dyn DdlDatabase,
    variables: &mut Variables,
    name: &str,
    shape: &VariableShape<'_>,
) -> SqlResult<()> {
    variables.check_table_name(name)?;
    let foreign_key = |kind: &ConstraintKind| matches!(kind, ConstraintKind::ForeignKey { .. });
    let has_foreign_key = shape.elements.iter().any(|element| match element {
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
    let table = variable_table(db, name, shape)?;
    variables.declare_table(name, table);
    Ok(())
}

/// The table of a table variable `@name` of `shape`, declared nowhere
/// yet: what `DECLARE @name TABLE (...)` makes, and where a table-valued
/// parameter's rows go (`Variables::declare_table_parameter`). Whoever
/// makes one drops it with [`discard`] unless a batch's end does.
pub fn variable_table(
    db: &dyn DdlDatabase,
    name: &str,
    shape: &VariableShape<'_>,
) -> SqlResult<Arc<TableMeta>> {
    // Written out by hand: `format!` costs ten times as much, per call.
    let mut definition = String::with_capacity(name.len() + shape.text.len() + 4);
    for part in ["@", name, " (", &shape.text, ")"] {
        definition.push_str(part);
    }
    if let Some(table) = db.temp_tables().take_spare(&definition) {
        return Ok(table);
    }
    let span = hekla_parser::span::Span::default();
    let create = ast::CreateTable {
        name: ast::ObjectName {
            parts: vec![Some(ast::Ident {
                value: format!("@{name}"),
                span,
            })],
            span,
        },
        elements: shape.elements.to_vec(),
        options: Vec::new(),
        filegroup: None,
    };
    let object_id = db.temp_tables().allocate_id()?;
    let engine_name = format!("#{:08X}", object_id as u32);
    make_table(db, &create, object_id, &engine_name, definition)
}

/// Binds `create` and makes its engine table, schema only, as
/// `engine_name`; `definition` is the key it is kept under once emptied.
fn make_table(
    db: &dyn DdlDatabase,
    create: &ast::CreateTable,
    object_id: i32,
    engine_name: &str,
    definition: String,
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
    Ok(Arc::new(TableMeta::new(
        design,
        object_id,
        engine,
        &definition,
    )))
}

/// The end of a batch: its table variables go.
pub fn end_batch(db: &dyn DdlDatabase, variables: &mut Variables) {
    for table in variables.take_tables() {
        release(db, table);
    }
}

/// The end of a procedure: the `#` tables it made (since `mark`) go, as
/// in SQL Server.
pub fn end_procedure(db: &dyn DdlDatabase, spid: i16, mark: u64) {
    for table in db.temp_tables().take_local_since(spid, mark) {
        release(db, table);
    }
}

/// The end of session `spid`: its `#` and `##` tables go.
pub fn end_session(db: &dyn DdlDatabase, spid: i16) {
    for table in db.temp_tables().take_session(spid) {
        release(db, table);
    }
}

/// A temporary table or table variable no longer used: emptied and kept
/// for the next of the same definition, or dropped. A table with an
/// IDENTITY column is dropped (its next use must start at the seed), and
/// so is a `##table`, whose engine table is named as it is.
pub fn release(db: &dyn DdlDatabase, table: Arc<TableMeta>) {
    let reusable = table.identity.is_none() && !is_global(&table.name) && empty(db, &table).is_ok();
    if !(reusable && db.temp_tables().keep_spare(Arc::clone(&table))) {
        let _ = discard(db, &table);
    }
}

/// Drops a temporary table's engine table, its rows deleted first (the
/// engine frees a dropped table only once no transaction can reach it).
pub fn discard(db: &dyn DdlDatabase, table: &TableMeta) -> SqlResult<()> {
    let emptied = empty(db, table);
    let dropped = db.engine().drop_table(table.engine.id);
    emptied.and(dropped)
}

/// Deletes every row of `table`.
fn empty(db: &dyn DdlDatabase, table: &TableMeta) -> SqlResult<()> {
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    tx.delete_all(&table.engine)?;
    tx.commit().map(|_| ())
}

/// `DECLARE @v type` when `type` is a table type: makes the table
/// variable and returns true; false for any other type (a scalar
/// variable, declared by the caller). A value is refused (Msg 10794).
pub fn declare_variable(
    db: &dyn DdlDatabase,
    variables: &mut Variables,
    declaration: &ast::Declaration,
    ordinal: usize,
) -> SqlResult<bool> {
    let resolved = {
        let catalog = db.catalog();
        user_type::resolve(
            &catalog,
            &declaration.data_type,
            Collation::default(),
            TypeContext::Declaration {
                ordinal: ordinal + 1,
            },
        )?
    };
    let Resolved::Table(user_type) = resolved else {
        return Ok(false);
    };
    let Some(table_type) = user_type.as_table() else {
        return Ok(false);
    };
    if declaration.value.is_some() {
        return Err(not_supported_yet(
            Refused::Statement,
            "DECLARE of a table variable with a value",
        ));
    }
    declare_table(
        db,
        variables,
        &declaration.name,
        &VariableShape::of_type(table_type),
    )?;
    variables.set_table_type(&declaration.name, user_type.id);
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpret::{Frame, Interpreter};
    use crate::session::{Session, SqlDatabase};
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

    /// The elements of `DECLARE @v TABLE (...)` in `declaration`.
    fn declared_elements(declaration: &str) -> Vec<TableElement> {
        let parsed = hekla_parser::parse_batch(declaration).unwrap();
        match &parsed.statements[0].kind {
            ast::StatementKind::DeclareTable { elements, .. } => elements.clone(),
            _ => panic!("not a table variable"),
        }
    }

    #[test]
    fn an_ended_table_variable_is_reused_only_by_one_of_its_name_and_shape() {
        let db = SqlDatabase::in_memory().unwrap();
        let ints = declared_elements("DECLARE @ids TABLE (id int NOT NULL)");
        let bigints = declared_elements("DECLARE @ids TABLE (id bigint NOT NULL)");
        let made = |name: &str, elements: &[TableElement]| {
            variable_table(&*db, name, &VariableShape::declared(elements)).unwrap()
        };
        let first = made("ids", &ints);
        let first_id = first.object_id;
        release(&*db, first);
        let again = made("ids", &ints);
        assert_eq!(again.object_id, first_id, "the emptied table is reused");
        release(&*db, again);
        let renamed = made("other", &ints);
        let reshaped = made("ids", &bigints);
        assert_ne!(renamed.object_id, first_id);
        assert_ne!(reshaped.object_id, first_id);
        assert_eq!(reshaped.columns[0].data_type, hekla_types::DataType::BigInt);
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
        let table = variable_table(&*db, "ids", &VariableShape::declared(elements)).unwrap();
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
        discard(&*db, &table).unwrap();
    }
}
