//! A `hekla serve` process for the tests that need a server: started on
//! a free port, its first-start `sa` password read, stopped by SIGTERM.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A `hekla serve` process listening on a free port of 127.0.0.1.
pub struct Server {
    child: Child,
    /// `127.0.0.1:port`.
    pub address: String,
    pub stdout: mpsc::Receiver<String>,
    stderr: mpsc::Receiver<String>,
}

/// Forwards a pipe's lines to a channel.
fn lines(pipe: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// Starts `hekla serve` on `dir` and waits for its listening line.
pub fn start(dir: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .args(["serve", "--data-dir"])
        .arg(dir)
        .args(["--listen", "127.0.0.1:0"])
        .env_remove("HEKLA_SA_PASSWORD")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hekla serve starts");
    let stdout = lines(child.stdout.take().unwrap());
    let stderr = lines(child.stderr.take().unwrap());
    let address = loop {
        let line = stderr
            .recv_timeout(Duration::from_secs(60))
            .expect("a listening line");
        if let Some(rest) = line.split(" listening addr=").nth(1) {
            break rest.split(' ').next().unwrap().to_string();
        }
    };
    Server {
        child,
        address,
        stdout,
        stderr,
    }
}

impl Server {
    /// Waits (up to a minute) until `count` log lines contain `text`.
    // Each test file compiles this module on its own; not all of them wait.
    #[allow(dead_code)]
    pub fn wait_for_log(&self, text: &str, count: usize) {
        let mut seen = 0;
        while seen < count {
            let line = self
                .stderr
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("{count} log lines with {text:?}"));
            seen += usize::from(line.contains(text));
        }
    }

    /// SIGTERM, then the exit status and the rest of stderr.
    pub fn terminate(mut self) -> (bool, Vec<String>) {
        // SAFETY: kill(2) on our own child's pid has no memory effects.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let status = self.child.wait().unwrap();
        // Every line: the forwarding thread ends at the pipe's end of file,
        // which may come after the exit status.
        let rest: Vec<String> = self.stderr.iter().collect();
        (status.success(), rest)
    }
}

/// The `sa` password a first start prints once.
pub fn generated_password(server: &Server) -> String {
    let line = server
        .stdout
        .recv_timeout(Duration::from_secs(10))
        .expect("the generated password is printed");
    line.strip_prefix("hekla: the sa login's password is ")
        .expect("password line")
        .to_string()
}
