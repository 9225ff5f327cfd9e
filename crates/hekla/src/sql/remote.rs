//! `hekla sql -S host[,port]`: batches run on a server over TDS, and its
//! reply is replayed into the same [`ResultSink`] an embedded session
//! writes to, so the output is the same either way.

use super::batches::Runner;
use hekla_sql::result::{ErrorEvent, ResultColumn, ResultSink};
use hekla_tds::client::{Client, ClientOptions, Item, ServerMessage};
use hekla_tds::prelogin::Encryption;
use hekla_types::SqlError;

/// sqlcmd's login flags, shared by every command that can connect to a
/// server.
#[derive(clap::Args)]
pub struct LoginArgs {
    /// A server to connect to: `host`, `host,port` or `tcp:host,port` (port 1433 by default).
    #[arg(short = 'S', long = "server", requires_all = ["user", "password"])]
    pub server: Option<String>,
    /// The login name (with -S).
    #[arg(short = 'U', long = "user", requires = "server")]
    pub user: Option<String>,
    /// The login's password (with -S).
    #[arg(short = 'P', long = "password", requires = "server")]
    pub password: Option<String>,
}

impl LoginArgs {
    pub fn user(&self) -> &str {
        self.user.as_deref().unwrap_or_default()
    }

    pub fn password(&self) -> &str {
        self.password.as_deref().unwrap_or_default()
    }
}

/// The login flags and sqlcmd's other connection flags (`-d`, `-N`,
/// `-C`), for the commands that run batches on a server.
#[derive(clap::Args)]
pub struct ConnectionArgs {
    #[command(flatten)]
    pub login: LoginArgs,
    /// The database to use (with -S).
    #[arg(short = 'd', long = "database", requires = "server")]
    pub database: Option<String>,
    /// Encrypt the connection (with -S).
    #[arg(short = 'N', long = "encrypt", requires = "server")]
    pub encrypt: bool,
    /// Trust the server's certificate without validating it (with -S).
    #[arg(short = 'C', long = "trust-server-certificate", requires = "server")]
    pub trust_server_certificate: bool,
}

impl ConnectionArgs {
    /// The server -S names, with everything needed to log in to it; None
    /// without -S.
    pub fn target<'a>(
        &'a self,
        app_name: &'a str,
        host_name: Option<&'a str>,
    ) -> Option<Target<'a>> {
        Some(Target {
            server: self.login.server.as_deref()?,
            user: self.login.user(),
            password: self.login.password(),
            database: self.database.as_deref(),
            encrypt: self.encrypt,
            trust_server_certificate: self.trust_server_certificate,
            app_name,
            host_name,
        })
    }
}

/// sqlcmd's connection flags.
pub struct Target<'a> {
    /// `host`, `host,port` or `tcp:host,port` (port 1433 by default).
    pub server: &'a str,
    pub user: &'a str,
    pub password: &'a str,
    pub database: Option<&'a str>,
    /// `-N`: encrypt the whole connection.
    pub encrypt: bool,
    /// `-C`: trust the server's certificate without validating it.
    pub trust_server_certificate: bool,
    /// The program name the server sees (`APP_NAME()`, `program_name`).
    pub app_name: &'a str,
    /// `-H`: the workstation name the server shows; None for `localhost`.
    pub host_name: Option<&'a str>,
}

pub struct RemoteSession {
    runtime: tokio::runtime::Runtime,
    client: Client,
    /// A batch failed for the connection's sake, not the server's.
    lost: bool,
}

impl RemoteSession {
    pub fn connect(target: &Target) -> Result<RemoteSession, String> {
        if target.encrypt && !target.trust_server_certificate {
            // hekla's client has no certificate store to validate against;
            // saying so beats pretending to have checked.
            return Err(
                "certificate validation is not supported: with -N, pass -C to trust \
                        the server's certificate"
                    .to_string(),
            );
        }
        let address = address(target.server)?;
        let mut options = ClientOptions::new(target.user, target.password);
        options.app_name = target.app_name.to_string();
        if let Some(host_name) = target.host_name {
            options.host_name = host_name.to_string();
        }
        options.database = target.database.unwrap_or_default().to_string();
        options.encryption = if target.encrypt {
            Encryption::On
        } else {
            Encryption::Off
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let client = runtime
            .block_on(Client::connect(&address, &options))
            .map_err(|e| format!("cannot connect to {address}: {e}"))?;
        Ok(RemoteSession {
            runtime,
            client,
            lost: false,
        })
    }
}

impl Runner for RemoteSession {
    fn execute(&mut self, batch: &str, sink: &mut dyn ResultSink) {
        match self.runtime.block_on(self.client.batch(batch)) {
            Ok(response) => response.items.iter().for_each(|item| replay(item, sink)),
            // The connection is gone: report it as sqlcmd reports a
            // communication link failure, as an error of the batch.
            Err(error) => {
                self.lost = true;
                sink.error(&ErrorEvent {
                    error: SqlError::new(0, 16, 1, format!("communication link failure: {error}")),
                    line: 1,
                    procedure: None,
                })
            }
        }
    }

    fn connection_lost(&self) -> bool {
        self.lost
    }
}

fn replay(item: &Item, sink: &mut dyn ResultSink) {
    match item {
        Item::Results(results) => {
            let columns: Vec<ResultColumn> = results
                .columns
                .iter()
                .map(|column| ResultColumn {
                    name: column.name.clone(),
                    data_type: column.data_type,
                    nullable: column.nullable,
                })
                .collect();
            sink.columns(&columns);
            for row in &results.rows {
                sink.row(row);
            }
        }
        Item::Done(done) => sink.done(done.count()),
        Item::Error(error) => sink.error(&error_event(error)),
        Item::Info(info) => sink.message(&info.text),
        Item::EnvChange { .. }
        | Item::LoginAck { .. }
        | Item::ReturnStatus(_)
        | Item::ReturnValue { .. } => {}
    }
}

fn error_event(message: &ServerMessage) -> ErrorEvent {
    ErrorEvent {
        error: SqlError::new(
            message.number,
            message.class,
            message.state,
            message.text.clone(),
        ),
        line: message.line,
        procedure: (!message.procedure.is_empty()).then(|| message.procedure.clone()),
    }
}

/// sqlcmd's `-S`: `[tcp:]host[,port]`.
pub(crate) fn address(server: &str) -> Result<String, String> {
    let server = server.strip_prefix("tcp:").unwrap_or(server);
    let (host, port) = match server.split_once(',') {
        Some((host, port)) => {
            let port: u16 = port
                .trim()
                .parse()
                .map_err(|_| format!("-S {server}: the port is not a number"))?;
            (host.trim(), port)
        }
        None => (server.trim(), 1433),
    };
    if host.is_empty() {
        return Err("-S needs a host name".to_string());
    }
    let host = if host == "." || host.eq_ignore_ascii_case("(local)") {
        "127.0.0.1"
    } else {
        host
    };
    Ok(format!("{host}:{port}"))
}

#[cfg(test)]
mod tests {
    use super::address;

    #[test]
    fn server_names_as_sqlcmd_takes_them() {
        assert_eq!(address("localhost").unwrap(), "localhost:1433");
        assert_eq!(address("tcp:127.0.0.1,14330").unwrap(), "127.0.0.1:14330");
        assert_eq!(address(".,1500").unwrap(), "127.0.0.1:1500");
        assert_eq!(address("(local)").unwrap(), "127.0.0.1:1433");
        assert!(address("host,port").is_err());
        assert!(address(",1433").is_err());
    }
}
