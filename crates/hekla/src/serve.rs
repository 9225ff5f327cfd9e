//! `hekla serve`: opens (recovering) or initialises a data directory and
//! serves it over TDS until SIGTERM or SIGINT.

use crate::memory_trim;
use clap::Args;
use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::SqlDatabase;
use hekla_tds::log;
use hekla_tds::server::{serve, ServerOptions};
use hekla_tds::tls::ServerTls;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(Args)]
pub struct ServeArgs {
    /// The database directory (created and initialised if missing).
    #[arg(long, value_name = "DIR")]
    data_dir: PathBuf,
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:1433")]
    listen: String,
    /// PEM certificate (chain) for TLS; default: a self-signed one
    /// generated into DIR/tls at the first start.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// PEM private key of --tls-cert.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Refuse clients that cannot encrypt, and encrypt every connection fully.
    #[arg(long)]
    require_encryption: bool,
    /// Most connections at once; more are refused with Msg 17809.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: u32,
    /// Seconds a client has from connecting to a completed login.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    login_timeout: u64,
    /// Seconds running requests get to finish at shutdown.
    #[arg(long, default_value_t = 10)]
    shutdown_grace: u64,
    /// The most memory the database may take, in MiB (as `hekla sql`).
    #[arg(long = "memory-limit-mb", value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    memory_limit_mb: Option<u64>,
    /// Seconds between handing freed memory back to the system
    /// (glibc's malloc_trim); 0 never does.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    memory_trim_secs: u64,
}

pub fn run(args: ServeArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let db = open(&args)?;
    if args.memory_trim_secs > 0 {
        memory_trim::start(Duration::from_secs(args.memory_trim_secs))?;
    }
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => ServerTls::from_files(cert, key),
        _ => ServerTls::generated(&args.data_dir),
    }
    .map_err(|e| format!("TLS certificate: {e}"))?;
    let options = ServerOptions {
        tls: Some(tls),
        require_encryption: args.require_encryption,
        max_connections: args.max_connections as usize,
        login_timeout: Duration::from_secs(args.login_timeout),
        shutdown_grace: Duration::from_secs(args.shutdown_grace),
        ..ServerOptions::default()
    };
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        log::info(
            "listening",
            &[
                ("addr", &address),
                (
                    "encryption",
                    &if args.require_encryption {
                        "required"
                    } else {
                        "available"
                    },
                ),
                ("max_connections", &args.max_connections),
            ],
        );
        serve(Arc::clone(&db), listener, options, stop_signal()).await;
        Ok::<(), String>(())
    })?;
    // Every session is gone (a request thread still running after the
    // cancel is not waited for past this): closing the database now is a
    // clean close.
    runtime.shutdown_timeout(Duration::from_secs(5));
    drop(db);
    log::info("stopped", &[]);
    Ok(())
}

/// Opens the database, logging recovery progress, and on first start
/// gives `sa` its password.
fn open(args: &ServeArgs) -> Result<Arc<SqlDatabase>, String> {
    let mut config = DatabaseConfig::default();
    if let Some(mib) = args.memory_limit_mb {
        config.memory_limit_bytes = mib.saturating_mul(1 << 20);
    }
    let storage = StorageConfig {
        progress: Some(Arc::new(|line: &str| {
            log::info("recovery", &[("progress", &line)])
        })),
        ..StorageConfig::default()
    };
    log::info("opening", &[("data_dir", &args.data_dir.display())]);
    let db = SqlDatabase::open(&args.data_dir, config, storage)
        .map_err(|e| format!("cannot open {}: {}", args.data_dir.display(), e.message))?;
    let (password, generated) = match std::env::var("HEKLA_SA_PASSWORD") {
        Ok(password) if !password.is_empty() => (password, false),
        _ => (generate_password()?, true),
    };
    let created = db
        .ensure_sa_login(&password)
        .map_err(|e| format!("cannot create the sa login: {}", e.message))?;
    if created && generated {
        // Printed once, on stdout, never logged.
        println!("hekla: the sa login's password is {password}");
    }
    if created {
        log::info("sa login created", &[("from_environment", &!generated)]);
    }
    Ok(db)
}

/// 20 random characters from /dev/urandom.
fn generate_password() -> Result<String, String> {
    use std::io::Read;
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut bytes = [0u8; 20];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("cannot generate a password: {e}"))?;
    // 256 is not a multiple of the alphabet's size; the bias is tiny and
    // the password is long.
    Ok(bytes
        .iter()
        .map(|&b| char::from(ALPHABET[usize::from(b) % ALPHABET.len()]))
        .collect())
}

async fn stop_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut terminate), Ok(mut interrupt)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        log::error("cannot install signal handlers", &[]);
        return std::future::pending().await;
    };
    let name = tokio::select! {
        _ = terminate.recv() => "SIGTERM",
        _ = interrupt.recv() => "SIGINT",
    };
    log::info("signal", &[("name", &name)]);
}
