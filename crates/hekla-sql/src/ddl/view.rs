//! CREATE, ALTER and CREATE OR ALTER VIEW, and DROP VIEW. The view's
//! model is `catalog::view`.

use crate::ddl::DdlDatabase;
use hekla_engine::SchemaId;
use hekla_parser::ast::{self, SelectItem, TableRefKind};
use hekla_plan::catalog::binding::{Frame, ModuleKind};
use hekla_plan::catalog::store::ObjectType;
use hekla_plan::catalog::view::{names_view, Options, ViewMeta};
use hekla_plan::catalog::{dependency, Catalog};
use hekla_plan::plan::query::BindState;
use hekla_plan::plan::view::{module_columns, plan_query};
use hekla_plan::plan::view_change as change;
use hekla_types::{SqlError, SqlResult};
use std::rc::Rc;
use std::sync::Arc;

/// CREATE VIEW, ALTER VIEW and CREATE OR ALTER VIEW: binds the query,
/// stores the definition (an altered view keeps its object id and creation
/// date) and puts the view in the catalog.
pub fn create(db: &dyn DdlDatabase, create: &ast::CreateView, text: &str) -> SqlResult<()> {
    let statement = if create.alter {
        "ALTER VIEW"
    } else {
        "CREATE VIEW"
    };
    if create.name.written_database().is_some() {
        return Err(SqlError::new(
            166,
            15,
            1,
            format!("'{statement}' does not allow specifying the database name as a prefix to the object name."),
        ));
    }
    let options = Options::of(&create.options)?;
    if create.check_option {
        change::refuse_check_option(&create.query)?;
    }
    let name = create.name.name().value.clone();
    let (schema_id, existing) = {
        let catalog = db.catalog();
        let schema_id = catalog.schema_of(&create.name)?;
        (schema_id, target(&catalog, create, schema_id)?)
    };
    if options.schemabinding {
        refuse_wildcard(&create.query)?;
    }
    let frame = Frame::new(
        ModuleKind::View,
        existing.as_ref().map(|view| view.object_id),
        &name,
        options.schemabinding,
    );
    let declared: Vec<String> = create.columns.iter().map(|c| c.value.clone()).collect();
    let state = Rc::<BindState>::default();
    let (plan, references) = state
        .modules
        .in_frame(frame, || plan_query(db.planning(), &state, &create.query))?;
    let columns = module_columns(&plan, &declared, &name, false, ModuleKind::View)?;

    let mut catalog = db.catalog_mut();
    // The catalog may have changed while the query was bound.
    let existing = target(&catalog, create, schema_id)?;
    if options.schemabinding {
        let gone = references.iter().any(|&id| {
            catalog.table_by_id(id).is_none()
                && catalog.views.by_id(id).is_none()
                && catalog.functions.by_id(id).is_none()
        });
        if gone {
            return Err(SqlError::new(
                208,
                16,
                1,
                format!("An object that view '{name}' references was dropped while the view was being created."),
            ));
        }
    }
    let definition = stored_text(text, create.alter, create.or_alter);
    let name = existing.as_ref().map_or(name, |view| view.name.clone());
    let object = super::store_module(
        db,
        &mut catalog,
        existing
            .as_ref()
            .map(|view| (view.object_id, view.created_ms)),
        schema_id,
        &name,
        ObjectType::View,
        &definition,
    )?;
    let (object_id, created_ms) = (object.object_id, object.created_ms);
    catalog.bindings.set(
        object_id,
        if options.schemabinding {
            references
        } else {
            Vec::new()
        },
    );
    catalog.views.insert(ViewMeta {
        object_id,
        schema_id,
        name,
        declared,
        columns,
        definition,
        created_ms,
        modified_ms: object.modified_ms,
        schemabinding: options.schemabinding,
        view_metadata: options.view_metadata,
    });
    Ok(())
}

/// The view a CREATE / ALTER replaces, if any: Msg 2714 when CREATE finds
/// the name taken, 208 when ALTER finds no view, 3729 when a schema-bound
/// object depends on the view ALTER would change.
fn target(
    catalog: &Catalog,
    create: &ast::CreateView,
    schema_id: SchemaId,
) -> SqlResult<Option<Arc<ViewMeta>>> {
    let name = &create.name.name().value;
    let existing = catalog.views.get(schema_id, name).cloned();
    match &existing {
        Some(view) if create.alter || create.or_alter => {
            if let Some(referencing) = catalog.bindings.first_referencing(view.object_id) {
                return Err(dependency::still_referenced(
                    "ALTER",
                    &hekla_plan::catalog::sequence::written(&create.name),
                    &catalog.object_name(referencing),
                ));
            }
        }
        Some(_) => return Err(object_exists(name)),
        None if create.alter => {
            return Err(hekla_plan::error::invalid_object_name(
                &hekla_plan::catalog::sequence::written(&create.name),
                6,
            ))
        }
        None if catalog.object_exists(schema_id, name) => return Err(object_exists(name)),
        None => {}
    }
    Ok(existing)
}

/// The definition SQL Server keeps: the statement as written, except that
/// ALTER becomes CREATE and CREATE OR ALTER loses its OR ALTER.
pub fn stored_text(text: &str, alter: bool, or_alter: bool) -> String {
    if !alter && !or_alter {
        return text.to_string();
    }
    let Ok(tokens) = hekla_parser::lexer::tokenize(text) else {
        return text.to_string();
    };
    let range = |index: usize| {
        tokens
            .get(index)
            .map(|t| t.span.start as usize..t.span.end as usize)
    };
    if alter {
        if let Some(first) = range(0) {
            return format!("CREATE{}", &text[first.end..]);
        }
    } else if let (Some(first), Some(or), Some(alter)) = (range(0), range(1), range(2)) {
        return format!(
            "{}{}{}{}",
            &text[..first.end],
            &text[first.end..or.start],
            &text[or.end..alter.start],
            &text[alter.end..]
        );
    }
    text.to_string()
}

/// Whether a select list of the query (outside expressions) has `*`.
fn has_wildcard(query: &ast::Query) -> bool {
    fn body(query_body: &ast::QueryBody) -> bool {
        match query_body {
            ast::QueryBody::Select(select) => {
                select
                    .items
                    .iter()
                    .any(|item| matches!(item, SelectItem::Wildcard { .. }))
                    || select.from.iter().any(table)
            }
            ast::QueryBody::SetOp { left, right, .. } => body(left) || body(right),
            ast::QueryBody::Nested(query) => has_wildcard(query),
        }
    }
    fn table(item: &ast::TableRef) -> bool {
        match &item.kind {
            TableRefKind::Derived { query, .. } => has_wildcard(query),
            TableRefKind::Join { left, right, .. } => table(left) || table(right),
            _ => false,
        }
    }
    query.with.iter().any(|cte| has_wildcard(&cte.query)) || body(&query.body)
}

/// DROP VIEW: each name in turn (Msg 3701 for a missing one unless IF
/// EXISTS, 3705 for a table, 3729 for one a schema-bound object uses).
pub fn drop(db: &dyn DdlDatabase, names: &[ast::ObjectName], if_exists: bool) -> SqlResult<()> {
    for name in names {
        let mut catalog = db.catalog_mut();
        let schema_id = catalog.named_schema(name);
        let found = schema_id.and_then(|id| catalog.views.get(id, &name.name().value).cloned());
        let Some(view) = found else {
            let is_table =
                schema_id.is_some_and(|id| catalog.table(id, &name.name().value).is_some());
            if is_table && !if_exists {
                return Err(wrong_drop(&name.name().value, "VIEW", "table", "TABLE"));
            }
            if if_exists {
                continue;
            }
            return Err(hekla_plan::catalog::cannot_drop("view", &name.name().value));
        };
        refuse_if_bound(&catalog, view.object_id, "DROP VIEW", name)?;
        super::unstore_object(db, view.object_id)?;
        catalog.views.remove(view.object_id);
        catalog.bindings.remove(view.object_id);
    }
    Ok(())
}

/// Msg 3705: DROP `used` of an object that is a `kind`.
fn wrong_drop(name: &str, used: &str, kind: &str, instead: &str) -> SqlError {
    SqlError::new(
        3705,
        16,
        1,
        format!("Cannot use DROP {used} with '{name}' because '{name}' is a {kind}. Use DROP {instead}."),
    )
}

/// Msg 2714 as CREATE VIEW and CREATE FUNCTION report it (state 3;
/// CREATE TABLE's is 6).
pub fn object_exists(name: &str) -> SqlError {
    let mut error = hekla_engine::errors::object_exists(name);
    error.state = 3;
    error
}

/// Msg 1054 for a schema-bound view's or function's query with `*` in a
/// select list.
pub fn refuse_wildcard(query: &ast::Query) -> SqlResult<()> {
    if has_wildcard(query) {
        return Err(SqlError::new(
            1054,
            15,
            1,
            "Syntax '*' is not allowed in schema-bound objects.",
        ));
    }
    Ok(())
}

/// For DROP TABLE of a name that is no table: Msg 3705 if it is a view.
pub fn refuse_drop_table(catalog: &Catalog, name: &ast::ObjectName) -> SqlResult<()> {
    if names_view(catalog, name) {
        return Err(wrong_drop(&name.name().value, "TABLE", "view", "VIEW"));
    }
    Ok(())
}

/// Msg 3729 when an object created WITH SCHEMABINDING references
/// `object_id`, which `action` (`DROP TABLE`, `DROP VIEW`, `DROP FUNCTION`,
/// `DROP PROCEDURE`) would remove.
pub fn refuse_if_bound(
    catalog: &Catalog,
    object_id: i32,
    action: &str,
    name: &ast::ObjectName,
) -> SqlResult<()> {
    match catalog.bindings.first_referencing(object_id) {
        Some(referencing) => Err(dependency::still_referenced(
            action,
            &hekla_plan::catalog::sequence::written(name),
            &catalog.object_name(referencing),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create_view(text: &str) -> ast::CreateView {
        match hekla_parser::parse_batch(text)
            .unwrap()
            .statements
            .into_iter()
            .next()
            .map(|s| s.kind)
        {
            Some(ast::StatementKind::CreateView(create)) => *create,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn alter_is_stored_as_create() {
        let text = "alter /*a*/ VIEW dbo.v AS SELECT 1 AS a";
        assert_eq!(
            {
                let create = create_view(text);
                stored_text(text, create.alter, create.or_alter)
            },
            "CREATE /*a*/ VIEW dbo.v AS SELECT 1 AS a"
        );
        let text = "CrEaTe or/*y*/ALTer VIEW v AS SELECT 1 AS a";
        assert_eq!(
            {
                let create = create_view(text);
                stored_text(text, create.alter, create.or_alter)
            },
            "CrEaTe /*y*/ VIEW v AS SELECT 1 AS a"
        );
        let text = "CREATE VIEW v AS SELECT 1 AS a -- note";
        assert_eq!(
            {
                let create = create_view(text);
                stored_text(text, create.alter, create.or_alter)
            },
            text
        );
    }

    #[test]
    fn wildcards_are_found_in_select_lists_only() {
        let found = |text: &str| has_wildcard(&create_view(text).query);
        assert!(found("CREATE VIEW v AS SELECT * FROM t"));
        assert!(found(
            "CREATE VIEW v AS SELECT a FROM t UNION SELECT t.* FROM t"
        ));
        assert!(found(
            "CREATE VIEW v AS SELECT a FROM (SELECT * FROM t) AS d"
        ));
        assert!(found(
            "CREATE VIEW v AS WITH c AS (SELECT * FROM t) SELECT a FROM c"
        ));
        assert!(!found("CREATE VIEW v AS SELECT COUNT(*) AS n FROM t"));
    }
}
