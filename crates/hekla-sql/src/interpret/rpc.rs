//! A client's RPC request: an EXEC whose arguments are already values.
//! Each parameter becomes a variable of the batch-level frame, of the type
//! the client declared (a table-valued parameter a READONLY table variable
//! of its table type, filled with the client's rows), and the procedure
//! runs through the same EXEC path as `EXEC proc @p1, @x = @p2 OUTPUT`
//! (see [`super::call`]), so every rule of EXEC applies. Then, once the
//! session's transaction has no unresolved commit dependency, the return
//! status and the OUTPUT parameters' values go to the sink.

use super::failure::Failure;
use super::{Flow, Frame, Interpreter};
use crate::ddl::temp::VariableShape;
use crate::rpc::{RpcParameter, RpcValue};
use hekla_parser::ast::{self, ExprKind};
use hekla_parser::span::Span;
use hekla_plan::bind::variables::Variables;
use hekla_plan::type_names::TypeContext;
use hekla_types::{DataType, Length, SqlError, SqlResult, Value};
use std::sync::Arc;

/// The variable holding the procedure's return status.
const STATUS: &str = "return status";

impl Interpreter<'_> {
    /// Runs `procedure` with `parameters`, reporting as a batch does.
    pub fn run_rpc(&mut self, procedure: &str, mut parameters: Vec<RpcParameter>) {
        let mut frame = Frame {
            // The parameters and the return status.
            variables: Variables::with_room(self.session.state.spid, parameters.len() + 1),
            level: 0,
            procedure: None,
            source: "",
            return_status: None,
            native: false,
            plan: None,
        };
        let outcome = self.rpc(procedure, &mut parameters, &mut frame);
        let outcome = match outcome {
            Err(failure) => self.unwind(failure).map(|()| Flow::Next),
            Ok(()) => {
                self.report_outputs(&parameters, &frame);
                Ok(Flow::Next)
            }
        };
        self.end_batch(outcome, &mut frame);
    }

    /// Binds the parameters and runs the EXEC; Err if it failed. A
    /// table-valued parameter's rows are moved into its table variable.
    fn rpc(
        &mut self,
        procedure: &str,
        parameters: &mut [RpcParameter],
        frame: &mut Frame,
    ) -> Result<(), Failure> {
        // Line 0, as SQL Server reports an RPC's own errors.
        let mut statement = ast::Statement {
            kind: ast::StatementKind::Break,
            span: Span::default(),
        };
        match self.bind_rpc(procedure, parameters, frame) {
            Ok(exec) => statement.kind = ast::StatementKind::Exec(Box::new(exec)),
            Err(error) => return Err(self.failure(error, &statement, frame)),
        }
        self.statement(&statement, frame)?;
        // The return status and OUTPUT values may come from speculative
        // reads of the user transaction: not sent before they are settled.
        self.session
            .transaction
            .settle_dependencies()
            .map_err(|error| self.failure(error, &statement, frame))
    }

    /// The EXEC statement the call stands for, its arguments' variables
    /// declared in `frame`.
    fn bind_rpc(
        &mut self,
        procedure: &str,
        parameters: &mut [RpcParameter],
        frame: &mut Frame,
    ) -> SqlResult<ast::Exec> {
        let name = super::call::parse_name(procedure)?;
        let mut args = Vec::with_capacity(parameters.len());
        for (index, parameter) in parameters.iter_mut().enumerate() {
            let variable = passed_variable(parameter, index);
            if frame.variables.slot(&variable).is_some()
                || frame.variables.table(&variable).is_some()
            {
                return Err(SqlError::new(
                    8143,
                    16,
                    1,
                    format!("Parameter '@{variable}' was supplied multiple times."),
                ));
            }
            let passes_null = matches!(parameter.value, RpcValue::UntypedNull) && !parameter.output;
            match &mut parameter.value {
                RpcValue::Scalar(value) => {
                    let value = declared_value(
                        std::mem::replace(value, Value::Null),
                        &parameter.data_type,
                    )?;
                    let slot = frame.variables.declare(&variable, parameter.data_type)?;
                    frame.variables.assign(slot, value);
                }
                RpcValue::UntypedNull if !parameter.output => {}
                RpcValue::UntypedNull => {
                    frame.variables.declare(&variable, DataType::Int)?;
                }
                RpcValue::Table {
                    type_schema,
                    type_name,
                    rows,
                } => self.table_parameter(
                    &variable,
                    (type_schema, type_name),
                    std::mem::take(rows),
                    index,
                    frame,
                )?,
            }
            let kind = if passes_null {
                ExprKind::Literal(ast::Literal::Null)
            } else {
                ExprKind::Variable(variable)
            };
            args.push(ast::ExecArg {
                name: parameter.bare_name().map(str::to_string),
                value: ast::Expr {
                    kind,
                    span: Span::default(),
                },
                output: parameter.output,
                span: Span::default(),
            });
        }
        frame.variables.declare(STATUS, DataType::Int)?;
        Ok(ast::Exec {
            return_status: Some(STATUS.to_string()),
            procedure: ast::ExecTarget::Name(name),
            args,
            options: Vec::new(),
        })
    }

    /// Declares `variable` as a table variable of the table type
    /// `schema.name` (an empty schema is dbo) holding `rows`: Msg 2715
    /// for a type that is not a table type.
    fn table_parameter(
        &mut self,
        variable: &str,
        (schema, name): (&str, &str),
        rows: Vec<Vec<Value>>,
        index: usize,
        frame: &mut Frame,
    ) -> SqlResult<()> {
        let written = type_name(schema, name);
        let db = Arc::clone(&self.session.db);
        let user_type = {
            let catalog = db.catalog();
            hekla_plan::catalog::user_type::named(&catalog, &written)
                .filter(|user_type| user_type.as_table().is_some())
                .cloned()
        };
        let Some(user_type) = user_type else {
            let ordinal = index + 1;
            return Err(hekla_plan::type_names::cannot_find(
                &written,
                TypeContext::Declaration { ordinal },
            ));
        };
        let shape = VariableShape::of_type(user_type.as_table().expect("filtered above"));
        crate::ddl::temp::declare_table(&*db, &mut frame.variables, variable, &shape)?;
        frame.variables.set_table_type(variable, user_type.id);
        let table = Arc::clone(frame.variables.table(variable).expect("declared above"));
        self.session.in_context(&frame.variables, |context| {
            hekla_exec::insert::insert_values(context, &table, rows)
        })
    }

    /// The return status, then each OUTPUT parameter's value in order.
    fn report_outputs(&mut self, parameters: &[RpcParameter], frame: &Frame) {
        let value = |name: &str| {
            let slot = frame.variables.slot(name).expect("declared by bind_rpc");
            frame.variables.values()[slot].clone()
        };
        let status = value(STATUS).as_i64().unwrap_or(0);
        self.sink
            .return_status(i32::try_from(status).unwrap_or_default());
        for (ordinal, parameter) in parameters.iter().enumerate() {
            let scalar = matches!(parameter.value, RpcValue::Scalar(_) | RpcValue::UntypedNull);
            if parameter.output && scalar {
                let output = value(&passed_variable(parameter, ordinal));
                let name = parameter.bare_name().unwrap_or("");
                self.sink
                    .output_parameter(ordinal, name, &parameter.data_type, &output);
            }
        }
    }
}

/// A client's value as a value of the type it declared: as it came when
/// it already has that type's form (what drivers send), converted
/// otherwise. Text is taken as it came only for nvarchar(max), which
/// holds any text unchanged.
fn declared_value(value: Value, data_type: &DataType) -> SqlResult<Value> {
    let as_it_came = match (&value, data_type) {
        (Value::Null, _)
        | (Value::Bit(_), DataType::Bit)
        | (Value::TinyInt(_), DataType::TinyInt)
        | (Value::SmallInt(_), DataType::SmallInt)
        | (Value::Int(_), DataType::Int)
        | (Value::BigInt(_), DataType::BigInt) => true,
        (Value::String(_), DataType::NVarChar { len, .. }) => *len == Length::Max,
        _ => false,
    };
    if as_it_came {
        Ok(value)
    } else {
        hekla_types::convert::convert(&value, data_type, None)
    }
}

/// The variable the `index`-th parameter is passed in: its own name (a
/// table-valued parameter's errors name it), or for a positional one a
/// name with a space, which no client's name clashes with.
fn passed_variable(parameter: &RpcParameter, index: usize) -> String {
    match parameter.bare_name() {
        Some(name) => name.to_string(),
        // Not format!: its machinery costs more than the rest of the
        // name, for every positional parameter (sp_executesql's @stmt and
        // @params) of every call.
        None => "parameter ".to_string() + &(index + 1).to_string(),
    }
}

/// `schema.name` as a written name; an empty schema is left out (dbo).
fn type_name(schema: &str, name: &str) -> ast::ObjectName {
    let ident = |value: &str| {
        Some(ast::Ident {
            value: value.to_string(),
            span: Span::default(),
        })
    };
    let mut parts = Vec::new();
    if !schema.is_empty() {
        parts.push(ident(schema));
    }
    parts.push(ident(name));
    ast::ObjectName {
        parts,
        span: Span::default(),
    }
}
