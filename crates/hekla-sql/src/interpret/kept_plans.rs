//! Statements' bound plans, kept in the plan cache's entry of their batch
//! or procedure (`plan_cache::CachedPlan::keep_bound_plan`) so that the
//! next run executes them without binding and planning again. Besides
//! queries and DML, `SET @v = ...` and a DECLARE of one variable keep
//! their bound value (and type) this way.
//!
//! A kept plan is reused only while everything its planning read besides
//! the statement's text is unchanged:
//! - the catalog's schema version (any DDL moves it: a table, index, view
//!   or function the plan depends on may have changed; a table dropped is
//!   then Msg 208 when the statement is planned again, as SQL Server's
//!   deferred name resolution reports it at run time);
//! - the session's SET options;
//! - the layout of the variables (their slots and types: a DECLARE in a
//!   branch not taken shifts the later ones);
//! - the table each table variable or table-valued parameter holds, which
//!   is new on every call: the plan keeps the object id of the one it was
//!   planned against and reads the one the variable holds now
//!   (`Context::with_table_variables`).
//!
//! - the database user whose permissions planning checked (none for
//!   `dbo`, a `sysadmin` or inside a procedure's ownership chain): a plan
//!   checked for one user is not another's, and GRANT, DENY, REVOKE and
//!   every change of users, roles and logins move the schema version, so
//!   a plan never outlives the permissions it was checked against.
//!
//! Plans are not kept when a TOP,
//! OFFSET or FETCH count came from a variable, when they read a temporary
//! table (SQL Server recompiles those), or when they write a temporary
//! table or a table variable (`BindState::not_reusable`,
//! `InsertPlan::writes_temporary`). Runtime constants (GETDATE(),
//! SYSDATETIME(), RAND()), NEWID(), sequences and IDENTITY are evaluated
//! by the executor, so a kept plan computes them anew on every run.

use crate::plan_cache::BoundPlan;
use hekla_plan::bind::variables::{Layout, Variables};
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::permission::Access;
use hekla_plan::session_options::SetOptions;
use std::any::Any;
use std::sync::Arc;

/// The table variables a reused plan reads, mapped from the object id
/// each had when the plan was made to the table each holds now.
pub type TableVariables = Vec<(i32, Arc<TableMeta>)>;

/// A plan with what it was made under.
pub struct Kept {
    schema_version: u64,
    access: Option<Access>,
    options: SetOptions,
    layout: Layout,
    /// Each table variable's name and the object id of its table when the
    /// plan was made. Reuse needs every one of them to exist again (a
    /// table variable the plan could not have named does not matter).
    table_variables: Vec<(String, i32)>,
    plan: Arc<dyn Any + Send + Sync>,
}

impl Kept {
    /// `plan`, made at `schema_version` with `access`'s checks under
    /// `options` over `variables`, as the plan cache keeps it.
    pub fn bound<P: Any + Send + Sync>(
        plan: Arc<P>,
        schema_version: u64,
        access: Option<Access>,
        options: &SetOptions,
        variables: &Variables,
    ) -> BoundPlan {
        Arc::new(Kept {
            schema_version,
            access,
            options: options.clone(),
            layout: variables.layout(),
            table_variables: variables
                .tables()
                .map(|(name, table)| (name.to_string(), table.object_id))
                .collect(),
            plan,
        })
    }

    /// The plan in `kept` if it fits the schema, the checks `access`
    /// needs, `options` and `variables` as they are now; with the tables
    /// its table variables hold now.
    pub fn reuse<P: Any + Send + Sync>(
        kept: BoundPlan,
        schema_version: u64,
        access: &Option<Access>,
        options: &SetOptions,
        variables: &Variables,
    ) -> Option<(Arc<P>, TableVariables)> {
        let kept = kept.downcast::<Kept>().ok()?;
        if kept.schema_version != schema_version
            || kept.access != *access
            || kept.options != *options
            || !variables.has_layout(&kept.layout)
        {
            return None;
        }
        let plan = Arc::clone(&kept.plan).downcast::<P>().ok()?;
        let tables = kept
            .table_variables
            .iter()
            .map(|(name, planned)| Some((*planned, Arc::clone(variables.table(name)?))))
            .collect::<Option<TableVariables>>()?;
        Some((plan, tables))
    }
}

#[cfg(test)]
mod tests {
    use super::Kept;
    use crate::plan_cache::{CachedPlan, PlanKind};
    use crate::session::{Session, SqlDatabase};
    use crate::text_output::{TextOptions, TextSink};
    use hekla_plan::catalog::procedure::ProcedureMeta;
    use hekla_plan::plan::QueryPlan;
    use std::sync::Arc;

    fn run(session: &mut Session, sql: &str) -> String {
        let mut sink = TextSink::new(Vec::new(), TextOptions::default());
        session.execute(sql, &mut sink);
        let (out, _) = sink.finish();
        String::from_utf8(out).expect("text output is UTF-8")
    }

    /// Runs each of `batches`, which must raise no error.
    fn run_all(session: &mut Session, batches: &[&str]) {
        for batch in batches {
            let out = run(session, batch);
            assert!(!out.contains("Msg"), "{out}");
        }
    }

    /// The cached plan of the (one) procedure.
    fn procedure_plan(db: &SqlDatabase) -> Arc<CachedPlan<ProcedureMeta>> {
        db.plan_cache()
            .plans()
            .into_iter()
            .find(|plan| plan.kind == PlanKind::Proc)
            .expect("the procedure's cached plan")
    }

    /// The query plan kept for the one statement of the cached procedure,
    /// as Debug text, and its address (the same address: the same plan).
    fn kept_query(db: &SqlDatabase) -> (String, usize) {
        let procedure = procedure_plan(db);
        let kept = procedure.bound_plan(0).expect("a bound plan is kept");
        let kept = kept.downcast::<Kept>().expect("kept by kept_plans");
        let plan = Arc::clone(&kept.plan)
            .downcast::<QueryPlan>()
            .expect("a query plan");
        (format!("{plan:?}"), Arc::as_ptr(&plan) as usize)
    }

    #[test]
    fn a_procedure_reuses_its_plan_until_an_index_is_added() {
        let db = SqlDatabase::in_memory().expect("database");
        let mut session = db.session().expect("session");
        run_all(
            &mut session,
            &[
                "CREATE TABLE dbo.t (Id int NOT NULL PRIMARY KEY NONCLUSTERED, V int NOT NULL) \
             WITH (MEMORY_OPTIMIZED = ON)
             INSERT INTO dbo.t VALUES (1, 10), (2, 20)",
                "CREATE PROCEDURE dbo.p @v int AS SELECT Id FROM dbo.t WHERE V = @v",
            ],
        );
        assert!(run(&mut session, "EXEC dbo.p 10").contains("          1"));
        let (first, address) = kept_query(&db);
        assert!(!first.contains("Seek"), "no index on V yet: {first}");
        assert!(run(&mut session, "EXEC dbo.p 20").contains("          2"));
        assert_eq!(kept_query(&db).1, address, "the kept plan ran again");

        run(
            &mut session,
            "ALTER TABLE dbo.t ADD INDEX ix_v HASH (V) WITH (BUCKET_COUNT = 8)",
        );
        assert!(run(&mut session, "EXEC dbo.p 20").contains("          2"));
        let (second, _) = kept_query(&db);
        assert!(second.contains("Seek"), "the new index is used: {second}");
    }

    #[test]
    fn a_plan_checked_for_a_user_is_kept_for_that_user_until_permissions_change() {
        let db = SqlDatabase::in_memory().expect("database");
        let mut session = db.session().expect("session");
        run_all(
            &mut session,
            &[
                "CREATE TABLE dbo.t (Id int NOT NULL PRIMARY KEY NONCLUSTERED)",
                "CREATE LOGIN reader WITH PASSWORD = 'Reader-Passw0rd'",
                "CREATE USER reader FOR LOGIN reader",
                "GRANT SELECT ON dbo.t TO reader",
            ],
        );
        let reader = db
            .authenticate("reader", "Reader-Passw0rd")
            .expect("reader logs in");
        let mut reading = db.session_for(&reader).expect("reader's session");
        let query = "SELECT Id FROM dbo.t";
        // The kept plan's address (the same address: the same plan); None
        // when the batch has none, or no cached entry at all.
        let kept_address = || {
            let plans = db.plan_cache().plans();
            let batch = plans
                .iter()
                .find(|plan| plan.kind == PlanKind::Adhoc && plan.module.definition == query)?;
            batch
                .bound_plan(0)
                .map(|kept| Arc::as_ptr(&kept) as *const () as usize)
        };
        // (An ad hoc batch's plan is cached from its second run.)
        run_all(&mut reading, &[query, query]);
        let first = kept_address().expect("kept for the reader");
        run_all(&mut reading, &[query]);
        assert_eq!(kept_address(), Some(first), "the reader's plan ran again");
        // dbo does not take the reader's plan: it plans (and keeps) its own.
        run_all(&mut session, &[query]);
        assert_ne!(kept_address(), Some(first), "dbo planned anew");
        run_all(&mut reading, &[query]);
        // A REVOKE lets every kept plan go: the next run checks again.
        run_all(&mut session, &["REVOKE SELECT ON dbo.t FROM reader"]);
        assert_eq!(kept_address(), None, "REVOKE released the kept plans");
        let out = run(&mut reading, query);
        assert!(out.contains("Msg 229"), "{out}");
        run_all(&mut session, &["GRANT SELECT ON dbo.t TO reader"]);
        run_all(&mut reading, &[query]);
        run_all(&mut session, &["DENY SELECT ON dbo.t TO reader"]);
        let out = run(&mut reading, query);
        assert!(out.contains("Msg 229"), "{out}");
    }

    #[test]
    fn plans_that_depend_on_a_run_are_not_kept() {
        let db = SqlDatabase::in_memory().expect("database");
        let mut session = db.session().expect("session");
        run_all(
            &mut session,
            &[
                "CREATE TABLE dbo.t (Id int NOT NULL PRIMARY KEY NONCLUSTERED)",
                "CREATE PROCEDURE dbo.p @n int AS
             BEGIN
                 SELECT TOP (@n) Id FROM dbo.t
                 SELECT Id FROM dbo.t OPTION (RECOMPILE)
                 CREATE TABLE #s (Id int)
                 SELECT Id FROM #s
                 DECLARE @v TABLE (Id int)
                 INSERT INTO @v SELECT Id FROM dbo.t
                 SELECT TOP (1) Id FROM @v
             END",
                "EXEC dbo.p 1",
            ],
        );
        let procedure = procedure_plan(&db);
        let kept: Vec<bool> = (0..7)
            .map(|slot| procedure.bound_plan(slot).is_some())
            .collect();
        // TOP (@n), RECOMPILE, CREATE TABLE, #temp read, DECLARE, INSERT
        // into a table variable: not kept; TOP (1) from it: kept.
        assert_eq!(kept, [false, false, false, false, false, false, true]);
    }

    #[test]
    fn set_and_declare_keep_their_bindings_and_read_each_calls_table() {
        let db = SqlDatabase::in_memory().expect("database");
        let mut session = db.session().expect("session");
        run_all(
            &mut session,
            &[
                "CREATE TYPE dbo.ids AS TABLE (Id int NOT NULL)",
                "CREATE PROCEDURE dbo.p @ids dbo.ids READONLY AS
             BEGIN
                 DECLARE @n int = (SELECT COUNT(*) FROM @ids)
                 SET @n += (SELECT SUM(Id) FROM @ids)
                 SELECT @n
             END",
            ],
        );
        let call = |session: &mut Session, values: &str| {
            run(
                session,
                &format!("DECLARE @t dbo.ids INSERT INTO @t VALUES {values} EXEC dbo.p @t"),
            )
        };
        // Each call passes a new table: the kept bindings read it.
        assert!(call(&mut session, "(1), (2)").contains("          5"));
        assert!(call(&mut session, "(10), (20), (30)").contains("         63"));
        let procedure = procedure_plan(&db);
        let kept: Vec<bool> = (0..2)
            .map(|slot| procedure.bound_plan(slot).is_some())
            .collect();
        assert_eq!(kept, [true, true], "DECLARE and SET keep their bindings");
    }

    #[test]
    fn statements_inside_begin_atomic_keep_their_plans() {
        let db = SqlDatabase::in_memory().expect("database");
        let mut session = db.session().expect("session");
        run_all(
            &mut session,
            &[
                "CREATE TABLE dbo.t (Id int NOT NULL PRIMARY KEY NONCLUSTERED) \
             WITH (MEMORY_OPTIMIZED = ON)",
                "CREATE PROCEDURE dbo.p @id int
             WITH NATIVE_COMPILATION, SCHEMABINDING
             AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
                 INSERT INTO dbo.t VALUES (@id)
             END",
                "EXEC dbo.p 1",
            ],
        );
        let procedure = procedure_plan(&db);
        assert!(
            procedure.bound_plan(0).is_some(),
            "the INSERT's plan is kept"
        );
    }
}
