//! Modules whose query is being bound: a view's, or an inline
//! table-valued function's. Binding one pushes a frame on the statement's
//! [`Modules`] stack (which its planner carries, see
//! [`crate::plan::query::BindState`]), which
//! - catches a module that reaches itself (Msg 4429, possible only through
//!   ALTER, which refuses it) and nesting beyond 32 levels (Msg 217);
//! - collects what the module references, for SCHEMABINDING
//!   ([`super::dependency`]), which also requires two-part names (4512)
//!   and schema-bound modules (4513);
//! - tells `NEXT VALUE FOR` it is in a view or function (Msg 11719) and
//!   refuses temporary tables (4508).

use hekla_parser::ast;
use hekla_types::{SqlError, SqlResult};
use std::cell::RefCell;

/// How deep views and functions may nest in one another (SQL Server's
/// nesting limit).
pub const MAX_NESTING: usize = 32;

/// What kind of module a frame binds, as SQL Server's messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleKind {
    View,
    Function,
}

impl ModuleKind {
    fn word(self) -> &'static str {
        match self {
            ModuleKind::View => "view",
            ModuleKind::Function => "function",
        }
    }
}

/// A module query being bound on this thread.
pub struct Frame {
    /// The module's object id; None while a new one is created.
    pub object: Option<i32>,
    pub kind: ModuleKind,
    /// Its name, for messages.
    pub name: String,
    /// Bound for CREATE or ALTER ... WITH SCHEMABINDING: references must
    /// be two-part names of schema-bound objects.
    pub schemabinding: bool,
    /// The tables, views and functions the query names.
    pub references: Vec<i32>,
}

impl Frame {
    pub fn new(kind: ModuleKind, object: Option<i32>, name: &str, schemabinding: bool) -> Frame {
        Frame {
            object,
            kind,
            name: name.to_string(),
            schemabinding,
            references: Vec::new(),
        }
    }
}

/// The frames of the modules being bound, innermost last: one stack per
/// statement being planned, shared by the planners of the modules it
/// expands.
#[derive(Default)]
pub struct Modules {
    frames: RefCell<Vec<Frame>>,
}

/// Pops the frame it was made for, even on an early return.
struct Pushed<'a>(&'a Modules);

impl Drop for Pushed<'_> {
    fn drop(&mut self) {
        self.0.frames.borrow_mut().pop();
    }
}

impl Modules {
    /// Runs `body` inside `frame`; its result and the references it
    /// recorded.
    pub fn in_frame<T>(
        &self,
        frame: Frame,
        body: impl FnOnce() -> SqlResult<T>,
    ) -> SqlResult<(T, Vec<i32>)> {
        self.frames.borrow_mut().push(frame);
        let pushed = Pushed(self);
        let result = body();
        let references = self
            .frames
            .borrow_mut()
            .last_mut()
            .map(|frame| std::mem::take(&mut frame.references))
            .unwrap_or_default();
        std::mem::drop(pushed);
        result.map(|value| (value, references))
    }

    /// Whether a view's or function's query is being bound (`NEXT VALUE
    /// FOR` is not allowed there, Msg 11719; nor are temporary tables,
    /// 4508).
    pub fn binding(&self) -> bool {
        !self.frames.borrow().is_empty()
    }

    /// Records that the query being bound names the user table
    /// `object_id` as `name` (called by the FROM clause for every table it
    /// resolves). Msg 4508 for a temporary table in a view or function.
    pub fn note_table(&self, name: &ast::ObjectName, object_id: i32) -> SqlResult<()> {
        let mut frames = self.frames.borrow_mut();
        let Some(frame) = frames.last_mut() else {
            return Ok(());
        };
        if name.name().value.starts_with('#') {
            return Err(temporary_table());
        }
        if frame.schemabinding && !two_part(name) {
            return Err(not_two_part(frame, name));
        }
        frame.references.push(object_id);
        Ok(())
    }

    /// The module the query being bound names as `name`: a view or a
    /// function with `object_id`, schema-bound or not. For a schema-bound
    /// module being created, Msg 4512 when the name is not two-part or is
    /// its own, 4513 when the module named is not schema-bound; the
    /// reference is recorded.
    pub fn note_module(
        &self,
        name: &ast::ObjectName,
        object_id: i32,
        schemabound: bool,
    ) -> SqlResult<()> {
        let mut frames = self.frames.borrow_mut();
        let Some(top) = frames.last_mut() else {
            return Ok(());
        };
        if top.schemabinding {
            if !two_part(name) || top.object == Some(object_id) {
                return Err(not_two_part(top, name));
            }
            if !schemabound {
                return Err(SqlError::new(
                    4513,
                    16,
                    2,
                    format!(
                        "Cannot schema bind {} '{}'. '{}' is not schema bound.",
                        top.kind.word(),
                        top.name,
                        super::sequence::written(name)
                    ),
                ));
            }
        }
        top.references.push(object_id);
        Ok(())
    }

    /// Binds the view or inline function `object_id` (called
    /// `module_name`, of `kind`) that the query being bound names as
    /// `name`: the reference is noted, the module entered (Msgs 4429,
    /// 217) and `body` run in its frame; an error inside is reported as
    /// SQL Server reports a module that no longer binds (Msg 4413).
    pub fn expand<T>(
        &self,
        name: &ast::ObjectName,
        kind: ModuleKind,
        object_id: i32,
        module_name: &str,
        schemabound: bool,
        body: impl FnOnce() -> SqlResult<T>,
    ) -> SqlResult<T> {
        self.note_module(name, object_id, schemabound)?;
        self.enter(object_id, module_name)
            .and_then(|()| {
                let frame = Frame::new(kind, Some(object_id), module_name, false);
                self.in_frame(frame, body)
            })
            .map(|(value, _)| value)
            .map_err(|error| binding_error(error, &super::sequence::written(name)))
    }

    /// Checks that the module `object_id` (called `name`) may be expanded
    /// inside the frames on the stack: Msg 4429 for a module reaching
    /// itself, 217 for nesting too deep.
    pub fn enter(&self, object_id: i32, name: &str) -> SqlResult<()> {
        let frames = self.frames.borrow();
        if frames.iter().any(|f| f.object == Some(object_id)) {
            return Err(SqlError::new(
                4429,
                16,
                1,
                format!(
                    "View or function '{name}' contains a self-reference. Views or functions cannot reference themselves directly or indirectly."
                ),
            ));
        }
        if frames.len() >= MAX_NESTING {
            return Err(nesting_exceeded());
        }
        Ok(())
    }
}

/// Msg 4508.
pub fn temporary_table() -> SqlError {
    SqlError::new(
        4508,
        16,
        1,
        "Views or functions are not allowed on temporary tables. Table names that begin with '#' denote temporary tables.",
    )
}

fn two_part(name: &ast::ObjectName) -> bool {
    name.parts.len() == 2 && name.schema().is_some()
}

/// Msg 4512.
fn not_two_part(frame: &Frame, name: &ast::ObjectName) -> SqlError {
    SqlError::new(
        4512,
        16,
        3,
        format!(
            "Cannot schema bind {} '{}' because name '{}' is invalid for schema binding. Names must be in two-part format and an object cannot reference itself.",
            frame.kind.word(),
            frame.name,
            super::sequence::written(name)
        ),
    )
}

/// Msg 217.
pub fn nesting_exceeded() -> SqlError {
    SqlError::new(
        217,
        16,
        1,
        format!("Maximum stored procedure, function, trigger, or view nesting level exceeded (limit {MAX_NESTING})."),
    )
}

/// Msg 4413 for a view or function that does not bind (`written` as its
/// user wrote its name), with the error behind it. An error that is
/// already a 4413 (a module inside the module) goes up as it is: it names
/// the module that is broken.
pub fn binding_error(error: SqlError, written: &str) -> SqlError {
    if error.number == 4413 {
        return error;
    }
    SqlError::new(
        4413,
        16,
        1,
        format!(
            "Could not use view or function '{written}' because of binding errors. (Msg {}: {})",
            error.number, error.message
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_pop_on_errors() {
        let modules = Modules::default();
        let frame = || Frame::new(ModuleKind::View, Some(1), "v", false);
        let failed: SqlResult<((), Vec<i32>)> =
            modules.in_frame(frame(), || Err(SqlError::new(1, 16, 1, "x")));
        assert!(failed.is_err());
        assert!(!modules.binding());
        let (inside, references) = modules
            .in_frame(frame(), || {
                let name = ast::ObjectName {
                    parts: vec![Some(ast::Ident {
                        value: "t".to_string(),
                        span: Default::default(),
                    })],
                    span: Default::default(),
                };
                modules.note_table(&name, 7)?;
                Ok(modules.binding())
            })
            .unwrap();
        assert!(inside);
        assert_eq!(references, [7]);
        assert!(!modules.binding());
    }
}
