//! The server's live connections: a handle on each one's socket, for the
//! attention watcher and for shutdown.
//!
//! A connection's own thread reads its socket between requests, so while
//! it runs a request nobody reads. The watcher (one thread per server)
//! covers that gap for requests that last: every few milliseconds it puts
//! the socket of each request running longer than [`ARM_AFTER`] into its
//! epoll set, so a short request costs no system call here at all (the
//! first version registered every request's socket, which cost 7% of the
//! server's CPU on YCSB's point reads). The watcher never reads. Input
//! during a request is an ATTENTION, a client that went away or one
//! breaking the protocol, and each of them stops the request; the
//! connection reads the input afterwards to tell which. An ATTENTION that
//! arrives during a short request is read as the next message and
//! acknowledged then.

use crate::log;
use hekla_sql::CancelHandle;
use mio::unix::SourceFd;
use mio::{Events, Interest, Poll, Registry, Token, Waker};
use std::collections::HashMap;
use std::io;
use std::net::{Shutdown, TcpStream};
use std::os::fd::{AsFd, AsRawFd};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The token that stops the watcher; connections count from 1.
const STOP: Token = Token(0);
/// A request running this long gets its socket watched.
const ARM_AFTER: Duration = Duration::from_millis(2);
/// How often the watcher looks for such requests.
const SWEEP_EVERY: Duration = Duration::from_millis(5);

/// Every live connection, and the watcher thread.
pub struct LiveConnections {
    shared: Arc<Shared>,
    waker: Waker,
    watcher: Option<JoinHandle<()>>,
}

struct Shared {
    registry: Registry,
    connections: Mutex<HashMap<Token, Arc<ConnectionControl>>>,
    next_token: AtomicUsize,
    /// The server is stopping: no connection is admitted.
    closing: AtomicBool,
}

/// One connection as the server sees it from outside its thread.
pub struct ConnectionControl {
    token: Token,
    /// A second handle on the connection's socket.
    socket: TcpStream,
    cancel: CancelHandle,
    watch: Mutex<WatchState>,
    shared: Arc<Shared>,
}

#[derive(Default)]
struct WatchState {
    /// When the running request started (None between requests).
    running_since: Option<Instant>,
    /// The socket is in the watcher's epoll set.
    registered: bool,
    /// Input arrived while watching (and the request was cancelled).
    input: bool,
    /// The server is draining: closing the socket's read side is ours.
    draining: bool,
    /// The server's grace period is over: the request was cancelled.
    aborted: bool,
}

impl LiveConnections {
    /// Starts the watcher thread.
    pub fn start() -> io::Result<LiveConnections> {
        let poll = Poll::new()?;
        let waker = Waker::new(poll.registry(), STOP)?;
        let shared = Arc::new(Shared {
            registry: poll.registry().try_clone()?,
            connections: Mutex::new(HashMap::new()),
            next_token: AtomicUsize::new(1),
            closing: AtomicBool::new(false),
        });
        let watched = Arc::clone(&shared);
        let watcher = std::thread::Builder::new()
            .name("hekla-attention".into())
            .spawn(move || watch(poll, &watched))?;
        Ok(LiveConnections {
            shared,
            waker,
            watcher: Some(watcher),
        })
    }

    /// Admits a logged-in connection; None once the server is stopping.
    pub fn admit(
        &self,
        socket: &impl AsFd,
        cancel: CancelHandle,
    ) -> io::Result<Option<Arc<ConnectionControl>>> {
        if self.shared.closing.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let socket = TcpStream::from(socket.as_fd().try_clone_to_owned()?);
        let token = Token(self.shared.next_token.fetch_add(1, Ordering::Relaxed));
        let control = Arc::new(ConnectionControl {
            token,
            socket,
            cancel,
            watch: Mutex::new(WatchState::default()),
            shared: Arc::clone(&self.shared),
        });
        self.shared
            .connections()
            .insert(token, Arc::clone(&control));
        // A drain that started meanwhile must see this one too.
        if self.shared.closing.load(Ordering::SeqCst) {
            self.remove(&control);
            return Ok(None);
        }
        Ok(Some(control))
    }

    /// Forgets a connection that has ended.
    pub fn remove(&self, control: &ConnectionControl) {
        self.shared.connections().remove(&control.token);
    }

    /// Stops admitting connections and ends each one after its running
    /// request: its thread's next read sees the end of the stream.
    pub fn drain(&self) {
        self.shared.closing.store(true, Ordering::SeqCst);
        for control in self.shared.connections().values() {
            control.state().draining = true;
            let _ = control.socket.shutdown(Shutdown::Read);
        }
    }

    /// Cancels every running request (the grace period is over).
    pub fn abort(&self) {
        for control in self.shared.connections().values() {
            control.state().aborted = true;
            control.cancel.cancel();
        }
    }
}

impl Drop for LiveConnections {
    fn drop(&mut self) {
        if self.waker.wake().is_ok() {
            if let Some(watcher) = self.watcher.take() {
                let _ = watcher.join();
            }
        }
    }
}

impl Shared {
    fn connections(&self) -> MutexGuard<'_, HashMap<Token, Arc<ConnectionControl>>> {
        // A panic elsewhere while holding the map leaves it usable.
        self.connections
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl ConnectionControl {
    fn state(&self) -> MutexGuard<'_, WatchState> {
        self.watch
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A request starts: input from now on cancels it. `pending` says
    /// input already arrived (read ahead into the connection's buffer).
    pub fn start_request(&self, pending: bool) {
        let mut state = self.state();
        state.running_since = Some(Instant::now());
        state.input = pending;
        if pending {
            self.cancel.cancel();
        }
    }

    /// The request ended: whether input arrived while it ran. Called
    /// before the reply's last packet goes out, so that the client's next
    /// request can never be taken for an ATTENTION.
    pub fn end_request(&self) -> bool {
        let mut state = self.state();
        state.running_since = None;
        if std::mem::take(&mut state.registered) {
            let _ = self
                .shared
                .registry
                .deregister(&mut SourceFd(&self.socket.as_raw_fd()));
        }
        state.input
    }

    /// Puts the socket of a request that has run for a while into the
    /// watcher's set (the watcher's call).
    fn watch_if_long(&self, now: Instant) {
        let mut state = self.state();
        let long = state
            .running_since
            .is_some_and(|since| now.duration_since(since) >= ARM_AFTER);
        if !long || state.registered {
            return;
        }
        let registered = self.shared.registry.register(
            &mut SourceFd(&self.socket.as_raw_fd()),
            self.token,
            Interest::READABLE,
        );
        match registered {
            Ok(()) => state.registered = true,
            // Without the watcher an ATTENTION is only seen when the
            // request ends; the request itself is unaffected.
            Err(error) => log::warn("cannot watch for attention", &[("error", &error)]),
        }
    }

    /// The server's grace period ended while the connection was running.
    pub fn aborted(&self) -> bool {
        self.state().aborted
    }

    /// Input arrived on the socket (the watcher's call).
    fn input_arrived(&self) {
        let mut state = self.state();
        // Late events of an ended request, and the drain's own shutdown
        // of the read side, cancel nothing.
        if state.running_since.is_some() && !state.draining {
            state.input = true;
            self.cancel.cancel();
        }
    }
}

/// The watcher thread: watches the sockets of requests that run long, and
/// marks the connections whose socket has input.
fn watch(mut poll: Poll, shared: &Shared) {
    let mut events = Events::with_capacity(64);
    loop {
        if let Err(error) = poll.poll(&mut events, Some(SWEEP_EVERY)) {
            if error.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            log::error("attention watcher failed", &[("error", &error)]);
            return;
        }
        for event in events.iter() {
            if event.token() == STOP {
                return;
            }
            let control = shared.connections().get(&event.token()).cloned();
            if let Some(control) = control {
                control.input_arrived();
            }
        }
        // The map's lock, then each connection's (the order drain takes).
        let now = Instant::now();
        for control in shared.connections().values() {
            control.watch_if_long(now);
        }
    }
}
