//! One YCSB client thread's connection: an embedded session or a TDS
//! client. Every operation is an `sp_executesql` call with typed
//! parameters, as a driver's parameterised statement is, so both paths
//! compile a statement once and find it in the plan cache after.

use crate::bench::counting::Counting;
use hekla_sql::rpc::{RpcParameter, RpcValue};
use hekla_sql::{Session, SqlDatabase};
use hekla_tds::client::{Client, ClientOptions};
use hekla_tds::rpc::{ClientParameter, ClientValue};
use hekla_types::{Collation, DataType, Length, Value};
use std::sync::Arc;

/// Where the clients connect.
#[derive(Clone)]
pub enum Target {
    Embedded(Arc<SqlDatabase>),
    Server {
        address: String,
        user: String,
        password: String,
    },
}

pub enum Connection {
    Embedded(Box<Session>),
    Remote {
        runtime: tokio::runtime::Runtime,
        client: Box<Client>,
    },
}

/// What one call did: the rows it returned, or the first error.
pub struct Outcome {
    pub rows: u64,
    pub error: Option<(u32, String)>,
}

/// A parameter of an operation: its name (with `@`), type and value.
pub struct Parameter<'a> {
    pub name: &'a str,
    pub data_type: DataType,
    pub value: Value,
}

impl Connection {
    pub fn open(target: &Target) -> Result<Connection, String> {
        match target {
            Target::Embedded(db) => Ok(Connection::Embedded(Box::new(
                db.session().map_err(|e| e.message)?,
            ))),
            Target::Server {
                address,
                user,
                password,
            } => {
                let mut options = ClientOptions::new(user, password);
                options.app_name = "hekla bench ycsb".to_string();
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| e.to_string())?;
                let client = runtime
                    .block_on(Client::connect(address, &options))
                    .map_err(|e| format!("cannot connect to {address}: {e}"))?;
                Ok(Connection::Remote {
                    runtime,
                    client: Box::new(client),
                })
            }
        }
    }

    /// Runs a batch (the table's DDL); an error fails it.
    pub fn batch(&mut self, sql: &str) -> Result<(), String> {
        let outcome = match self {
            Connection::Embedded(session) => {
                let mut sink = Counting::default();
                session.execute(sql, &mut sink);
                outcome(sink)
            }
            Connection::Remote { runtime, client } => {
                let response = runtime
                    .block_on(client.batch(sql))
                    .map_err(|e| e.to_string())?;
                Outcome {
                    rows: 0,
                    error: response
                        .errors()
                        .first()
                        .map(|e| (e.number, e.text.clone())),
                }
            }
        };
        match outcome.error {
            Some((number, text)) => Err(format!("Msg {number}: {text}\nin: {sql}")),
            None => Ok(()),
        }
    }

    /// `statement` run by `sp_executesql` with `declarations` (the
    /// parameter list, `@k varchar(255), ...`) and `parameters`. Only a
    /// lost connection is an `Err`; an error of the statement is the
    /// outcome's.
    pub fn call(
        &mut self,
        statement: &str,
        declarations: &str,
        parameters: Vec<Parameter<'_>>,
    ) -> Result<Outcome, String> {
        match self {
            Connection::Embedded(session) => {
                let mut arguments = vec![text_argument(statement), text_argument(declarations)];
                arguments.extend(parameters.into_iter().map(|p| RpcParameter {
                    name: Some(p.name.to_string()),
                    data_type: p.data_type,
                    value: RpcValue::Scalar(p.value),
                    output: false,
                }));
                let mut sink = Counting::default();
                session.call("sp_executesql", arguments, &mut sink);
                Ok(outcome(sink))
            }
            Connection::Remote { runtime, client } => {
                let mut arguments = vec![
                    client_text("@stmt", statement),
                    client_text("@params", declarations),
                ];
                arguments.extend(parameters.into_iter().map(|p| ClientParameter {
                    name: p.name.to_string(),
                    output: false,
                    value: ClientValue::Scalar(p.data_type, p.value),
                }));
                let response = runtime
                    .block_on(client.rpc("sp_executesql", &arguments))
                    .map_err(|e| format!("connection lost: {e}"))?;
                Ok(Outcome {
                    rows: response.rows().len() as u64,
                    error: response
                        .errors()
                        .first()
                        .map(|e| (e.number, e.text.clone())),
                })
            }
        }
    }
}

fn nvarchar_max() -> DataType {
    DataType::NVarChar {
        len: Length::Max,
        collation: Collation::default(),
    }
}

fn text_argument(text: &str) -> RpcParameter {
    RpcParameter {
        name: None,
        data_type: nvarchar_max(),
        value: RpcValue::Scalar(Value::String(text.to_string())),
        output: false,
    }
}

fn client_text(name: &str, text: &str) -> ClientParameter {
    ClientParameter {
        name: name.to_string(),
        output: false,
        value: ClientValue::Scalar(nvarchar_max(), Value::String(text.to_string())),
    }
}

fn outcome(sink: Counting) -> Outcome {
    Outcome {
        rows: sink.rows,
        error: sink
            .error
            .map(|event| (event.error.number, event.error.message)),
    }
}
