//! What a client's remote procedure call (a TDS RPC request) carries: a
//! procedure's name and parameter values already decoded, with the types
//! the client declared. [`crate::session::Session::call`] runs one.

use hekla_types::{DataType, Value};

/// One parameter of an RPC.
#[derive(Clone, Debug, PartialEq)]
pub struct RpcParameter {
    /// `x` for `@x` (a leading `@` is ignored), or None for a positional
    /// parameter.
    pub name: Option<String>,
    /// The type the client declared (from TDS TYPE_INFO). An OUTPUT value
    /// comes back in it; a table-valued parameter's is not read.
    pub data_type: DataType,
    pub value: RpcValue,
    /// An OUTPUT parameter (TDS fByRefValue).
    pub output: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RpcValue {
    Scalar(Value),
    /// A NULL without a type (TDS NULLTYPE, what drivers send for an
    /// untyped nil/None): passed as the literal NULL, so it converts to
    /// whatever the parameter is (an OUTPUT one is an int variable).
    UntypedNull,
    /// A table-valued parameter: the table type's name as the client gave
    /// it (an empty schema means dbo) and its rows, one value per column
    /// of the type.
    Table {
        type_schema: String,
        type_name: String,
        rows: Vec<Vec<Value>>,
    },
}

impl RpcParameter {
    /// The parameter's name without a leading `@`.
    pub fn bare_name(&self) -> Option<&str> {
        self.name
            .as_deref()
            .map(|name| name.strip_prefix('@').unwrap_or(name))
    }
}
