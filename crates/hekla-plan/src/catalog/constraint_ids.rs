//! The hidden table option that keeps a table's constraint ids in its
//! stored CREATE TABLE text, `HEKLA_CONSTRAINT_IDS = '<id> <id> ...'`
//! (see `ddl::alter`, which writes it when a rebuild keeps constraints'
//! ids). Only stored text carries it: CREATE TABLE refuses it.

use hekla_parser::ast;
use hekla_types::{SqlError, SqlResult};
use std::borrow::Cow;

/// The option's name.
const CONSTRAINT_IDS: &str = "HEKLA_CONSTRAINT_IDS";

/// A stored CREATE TABLE without its hidden list of constraint ids, and
/// the list (empty when there is none: the ids follow the table's id).
pub fn split_stored(create: &ast::CreateTable) -> SqlResult<(Cow<'_, ast::CreateTable>, Vec<i32>)> {
    let is_ids = |option: &ast::OptionItem| {
        option.name.len() == 1 && option.name[0].value.eq_ignore_ascii_case(CONSTRAINT_IDS)
    };
    let Some(option) = create.options.iter().find(|o| is_ids(o)) else {
        return Ok((Cow::Borrowed(create), Vec::new()));
    };
    let text = match &option.value {
        Some(ast::OptionValue::Expr(ast::Expr {
            kind: ast::ExprKind::Literal(ast::Literal::String { value, .. }),
            ..
        })) => value.as_str(),
        _ => "?",
    };
    let ids = text
        .split_whitespace()
        .map(str::parse::<i32>)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| {
            SqlError::new(
                3414,
                21,
                1,
                format!("The stored table definition has a damaged {CONSTRAINT_IDS} option."),
            )
        })?;
    let mut create = create.clone();
    create.options.retain(|o| !is_ids(o));
    Ok((Cow::Owned(create), ids))
}

/// Adds the hidden list of constraint ids to a definition.
pub fn set_constraint_ids(create: &mut ast::CreateTable, ids: &[i32]) {
    if ids.is_empty() {
        return;
    }
    let text: Vec<String> = ids.iter().map(i32::to_string).collect();
    create.options.push(ast::OptionItem {
        name: vec![ast::Ident {
            value: CONSTRAINT_IDS.to_string(),
            span: Default::default(),
        }],
        value: Some(ast::OptionValue::Expr(ast::Expr {
            kind: ast::ExprKind::Literal(ast::Literal::String {
                value: text.join(" "),
                national: false,
            }),
            span: Default::default(),
        })),
        span: Default::default(),
    });
}
