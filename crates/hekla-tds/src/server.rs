//! The listener: accepts connections up to the limit, logs each in on a
//! task and then serves it on a thread of its own, and shuts down
//! gracefully (stop accepting, let running requests finish within a grace
//! period, then cancel them).

use crate::connection::Connection;
use crate::context::ServerContext;
use crate::live::LiveConnections;
use crate::log;
use crate::login::{login, ServerTransport};
use crate::stream::ConnectionStream;
use crate::tls::ServerTls;
use crate::tls::Transport;
use hekla_sql::SqlDatabase;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinSet;

/// Settings of a running server.
#[derive(Clone)]
pub struct ServerOptions {
    pub tls: Option<ServerTls>,
    pub require_encryption: bool,
    pub max_connections: usize,
    /// From accepting a connection to the end of its login.
    pub login_timeout: Duration,
    /// How long running requests get to finish at shutdown.
    pub shutdown_grace: Duration,
    /// Largest request message (a batch's text, an RPC with its values).
    pub max_message_size: usize,
    /// The name in ERROR and INFO tokens.
    pub server_name: String,
}

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            tls: None,
            require_encryption: false,
            max_connections: 1000,
            login_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(10),
            max_message_size: 32 * 1024 * 1024,
            server_name: "hekla".to_string(),
        }
    }
}

/// Connections beyond the limit are still answered (17809) up to this
/// many more; past that they are closed at once.
const REFUSAL_HEADROOM: usize = 64;

/// Serves `listener` until `stop` completes, then shuts down.
pub async fn serve(
    db: Arc<SqlDatabase>,
    listener: TcpListener,
    options: ServerOptions,
    stop: impl Future<Output = ()>,
) {
    let live = match LiveConnections::start() {
        Ok(live) => live,
        Err(error) => {
            log::error("cannot start the attention watcher", &[("error", &error)]);
            return;
        }
    };
    let context = Arc::new(ServerContext {
        db,
        tls: options.tls.clone(),
        require_encryption: options.require_encryption,
        max_connections: options.max_connections,
        max_message_size: options.max_message_size,
        server_name: options.server_name.clone(),
        live,
    });
    let open = Arc::new(AtomicUsize::new(0));
    let mut connections = JoinSet::new();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok((socket, peer)) => {
                    let count = open.fetch_add(1, Ordering::SeqCst) + 1;
                    if count > options.max_connections + REFUSAL_HEADROOM {
                        open.fetch_sub(1, Ordering::SeqCst);
                        log::warn("connection refused", &[("peer", &peer), ("reason", &"connection limit")]);
                        continue;
                    }
                    let admitted = count <= options.max_connections;
                    let guard = OpenConnection(Arc::clone(&open));
                    let context = Arc::clone(&context);
                    let login_timeout = options.login_timeout;
                    connections.spawn(async move {
                        let _guard = guard;
                        connection(socket, peer.to_string(), context, admitted, login_timeout).await;
                    });
                }
                Err(error) => {
                    // Out of file descriptors and the like: pause, retry.
                    log::error("accept failed", &[("error", &error)]);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    log::info(
        "shutting down",
        &[
            ("connections", &open.load(Ordering::SeqCst)),
            ("grace_s", &options.shutdown_grace.as_secs()),
        ],
    );
    context.live.drain();
    if !all_closed(&mut connections, options.shutdown_grace).await {
        log::warn(
            "requests still running after the grace period; cancelling them",
            &[("connections", &connections.len())],
        );
        context.live.abort();
        // Cancelled requests stop within a statement or a few thousand
        // rows; a thread stuck past that is not waited for.
        if !all_closed(&mut connections, CANCEL_WAIT).await {
            connections.abort_all();
            while connections.join_next().await.is_some() {}
        }
    }
}

/// Waits up to `wait` for every connection to end; whether they did.
async fn all_closed(connections: &mut JoinSet<()>, wait: Duration) -> bool {
    tokio::time::timeout(wait, async {
        while connections.join_next().await.is_some() {}
    })
    .await
    .is_ok()
}

/// How long cancelled requests get to stop at shutdown.
const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// Counts a connection as open until dropped.
struct OpenConnection(Arc<AtomicUsize>);

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn connection(
    socket: TcpStream,
    peer: String,
    context: Arc<ServerContext>,
    admitted: bool,
    login_timeout: Duration,
) {
    let _ = socket.set_nodelay(true);
    let logged_in = tokio::time::timeout(login_timeout, login(socket, &context, admitted)).await;
    let logged_in = match logged_in {
        Ok(Ok(logged_in)) => logged_in,
        Ok(Err(failure)) => {
            let user = failure.user.unwrap_or_default();
            log::info(
                "login failed",
                &[
                    ("peer", &peer),
                    ("user", &user),
                    ("reason", &failure.reason),
                ],
            );
            return;
        }
        Err(_) => {
            log::info("login timed out", &[("peer", &peer)]);
            return;
        }
    };
    log::info(
        "login",
        &[
            ("peer", &peer),
            ("user", &logged_in.user),
            ("spid", &logged_in.session.session_id()),
        ],
    );
    let spid = logged_in.session.session_id();
    let cancel = logged_in.session.cancel_handle();
    let control = match context.live.admit(socket_of(&logged_in.transport), cancel) {
        Ok(Some(control)) => control,
        Ok(None) => return,
        Err(error) => {
            log::error("connection dropped", &[("peer", &peer), ("error", &error)]);
            return;
        }
    };
    let stream = match ConnectionStream::new(logged_in.transport) {
        Ok(stream) => stream,
        Err(error) => {
            context.live.remove(&control);
            log::error("connection dropped", &[("peer", &peer), ("error", &error)]);
            return;
        }
    };
    let (ended, end) = oneshot::channel();
    let thread = {
        let context = Arc::clone(&context);
        let control = Arc::clone(&control);
        let peer = peer.clone();
        let session = logged_in.session;
        let packet_size = logged_in.packet_size;
        std::thread::Builder::new()
            .name(format!("hekla-spid-{spid}"))
            .spawn(move || {
                Connection::serve(stream, session, packet_size, &context, control, peer);
                let _ = ended.send(());
            })
    };
    match thread {
        Ok(_) => {
            if end.await.is_err() {
                log::error(
                    "connection thread failed",
                    &[("peer", &peer), ("spid", &spid)],
                );
            }
        }
        Err(error) => log::error(
            "cannot start a connection thread",
            &[("peer", &peer), ("error", &error)],
        ),
    }
    context.live.remove(&control);
    log::info("disconnected", &[("peer", &peer), ("spid", &spid)]);
}

/// The TCP socket under a logged-in transport.
fn socket_of(transport: &ServerTransport) -> &TcpStream {
    match transport {
        Transport::Plain(socket) => socket,
        Transport::Tls(stream) => stream.get_ref().0.get_ref(),
    }
}
