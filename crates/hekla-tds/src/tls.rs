//! TLS as TDS 7.x carries it: the handshake's records travel inside PRELOGIN
//! packets, then TLS records go directly on the socket (for the LOGIN7
//! message only, or for the whole connection). [`PreloginFramed`] does the
//! wrapping for tokio-rustls on both sides; [`ServerTls`] holds the server's
//! certificate (generated into the data directory unless one is given).

use crate::packet::{kind, Header, DEFAULT_PACKET_SIZE, HEADER_LEN};
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A stream that, while `framing` is on, wraps what is written in PRELOGIN
/// packets and unwraps PRELOGIN packets when reading. Reading switches to
/// plain bytes by itself when the peer's next bytes are not a PRELOGIN
/// packet (a TLS record's first byte is 0x14-0x17, never 0x12): the peer
/// may send its first encrypted record right behind its last handshake
/// packet.
pub struct PreloginFramed<S> {
    inner: S,
    write_framing: bool,
    read_framing: bool,
    /// Payload bytes left in the PRELOGIN packet being read.
    read_remaining: usize,
    header: [u8; HEADER_LEN],
    header_filled: usize,
    /// Header bytes read that turned out to be plain data.
    leftover: Vec<u8>,
    /// Handshake bytes written since the last flush.
    write_buffer: Vec<u8>,
    /// Packets being sent.
    sending: Vec<u8>,
    sent: usize,
}

impl<S> PreloginFramed<S> {
    pub fn new(inner: S) -> PreloginFramed<S> {
        PreloginFramed {
            inner,
            write_framing: true,
            read_framing: true,
            read_remaining: 0,
            header: [0; HEADER_LEN],
            header_filled: 0,
            leftover: Vec::new(),
            write_buffer: Vec::new(),
            sending: Vec::new(),
            sent: 0,
        }
    }

    /// The handshake is over: bytes go through unchanged from now on.
    pub fn stop_framing(&mut self) {
        self.write_framing = false;
        self.read_framing = false;
    }

    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for PreloginFramed<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.leftover.is_empty() {
            let n = this.leftover.len().min(buf.remaining());
            buf.put_slice(&this.leftover[..n]);
            this.leftover.drain(..n);
            return Poll::Ready(Ok(()));
        }
        if !this.read_framing {
            return Pin::new(&mut this.inner).poll_read(cx, buf);
        }
        while this.read_remaining == 0 {
            let mut header = ReadBuf::new(&mut this.header[this.header_filled..]);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut header))?;
            let got = header.filled().len();
            if got == 0 {
                return Poll::Ready(Ok(())); // end of stream
            }
            this.header_filled += got;
            if this.header[0] != kind::PRELOGIN {
                // Not a packet: plain data follows the handshake.
                this.read_framing = false;
                this.leftover = this.header[..this.header_filled].to_vec();
                this.header_filled = 0;
                return Pin::new(this).poll_read(cx, buf);
            }
            if this.header_filled == HEADER_LEN {
                this.header_filled = 0;
                let header = Header::parse(this.header)
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
                this.read_remaining = header.payload_len();
            }
        }
        let limit = this.read_remaining.min(buf.remaining());
        let mut limited = ReadBuf::new(buf.initialize_unfilled_to(limit));
        ready!(Pin::new(&mut this.inner).poll_read(cx, &mut limited))?;
        let n = limited.filled().len();
        if n == 0 {
            return Poll::Ready(Err(io::ErrorKind::UnexpectedEof.into()));
        }
        buf.advance(n);
        this.read_remaining -= n;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for PreloginFramed<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if !this.write_framing && this.sending.is_empty() {
            return Pin::new(&mut this.inner).poll_write(cx, data);
        }
        if !this.write_framing {
            ready!(this.poll_send(cx))?;
            return Pin::new(&mut this.inner).poll_write(cx, data);
        }
        this.write_buffer.extend_from_slice(data);
        Poll::Ready(Ok(data.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.write_buffer.is_empty() {
            let packets = crate::packet::packetize(
                kind::PRELOGIN,
                0,
                DEFAULT_PACKET_SIZE,
                &this.write_buffer,
            );
            this.write_buffer.clear();
            this.sending.extend_from_slice(&packets);
        }
        ready!(this.poll_send(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(Pin::new(&mut *this).poll_flush(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

impl<S: AsyncWrite + Unpin> PreloginFramed<S> {
    /// Writes out the packets queued by a flush.
    fn poll_send(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.sending.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.sending[self.sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        self.sending.clear();
        self.sent = 0;
        Poll::Ready(Ok(()))
    }
}

/// The server's TLS configuration.
#[derive(Clone)]
pub struct ServerTls {
    pub config: Arc<rustls::ServerConfig>,
}

/// Where a generated certificate lives in the data directory.
pub fn generated_paths(data_dir: &Path) -> (PathBuf, PathBuf) {
    let dir = data_dir.join("tls");
    (dir.join("server.crt"), dir.join("server.key"))
}

impl ServerTls {
    /// From PEM files.
    pub fn from_files(cert: &Path, key: &Path) -> io::Result<ServerTls> {
        let certs = rustls_pemfile::certs(&mut io::BufReader::new(std::fs::File::open(cert)?))
            .collect::<Result<Vec<_>, _>>()?;
        if certs.is_empty() {
            return Err(invalid(format!("{}: no certificate", cert.display())));
        }
        let key = rustls_pemfile::private_key(&mut io::BufReader::new(std::fs::File::open(key)?))?
            .ok_or_else(|| invalid(format!("{}: no private key", key.display())))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        // TLS 1.2, as SQL Server speaks it inside TDS 7.x (1.3 only comes
        // with TDS 8): with 1.3 the client's first encrypted record can
        // overtake its PRELOGIN-wrapped Finished (FreeTDS does so).
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_protocol_versions(&[&rustls::version::TLS12])
            .map_err(invalid)?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(invalid)?;
        Ok(ServerTls {
            config: Arc::new(config),
        })
    }

    /// The data directory's certificate, generated (self-signed, for
    /// `localhost` and the machine's name) the first time.
    pub fn generated(data_dir: &Path) -> io::Result<ServerTls> {
        let (cert, key) = generated_paths(data_dir);
        if !cert.exists() || !key.exists() {
            generate(&cert, &key)?;
        }
        ServerTls::from_files(&cert, &key)
    }
}

fn generate(cert_path: &Path, key_path: &Path) -> io::Result<()> {
    let mut names = vec!["localhost".to_string()];
    if let Ok(host) = std::fs::read_to_string("/etc/hostname") {
        let host = host.trim();
        if !host.is_empty() && host != "localhost" {
            names.push(host.to_string());
        }
    }
    let certified = rcgen::generate_simple_self_signed(names).map_err(invalid)?;
    if let Some(dir) = cert_path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    write_private(key_path, certified.key_pair.serialize_pem().as_bytes())?;
    std::fs::write(cert_path, certified.cert.pem())
}

/// Writes a file only its owner can read.
fn write_private(path: &Path, contents: &[u8]) -> io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}

fn invalid(error: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, error.to_string())
}

/// A connection's byte stream: plain TCP or TLS over it.
pub enum Transport<P, T> {
    Plain(P),
    Tls(Box<T>),
}

impl<P: AsyncRead + Unpin, T: AsyncRead + Unpin> AsyncRead for Transport<P, T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Transport::Plain(p) => Pin::new(p).poll_read(cx, buf),
            Transport::Tls(t) => Pin::new(t.as_mut()).poll_read(cx, buf),
        }
    }
}

impl<P: AsyncWrite + Unpin, T: AsyncWrite + Unpin> AsyncWrite for Transport<P, T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Transport::Plain(p) => Pin::new(p).poll_write(cx, data),
            Transport::Tls(t) => Pin::new(t.as_mut()).poll_write(cx, data),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Transport::Plain(p) => Pin::new(p).poll_flush(cx),
            Transport::Tls(t) => Pin::new(t.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Transport::Plain(p) => Pin::new(p).poll_shutdown(cx),
            Transport::Tls(t) => Pin::new(t.as_mut()).poll_shutdown(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn framed_writes_become_prelogin_packets_and_reads_unwrap_them() {
        let (a, b) = tokio::io::duplex(1 << 16);
        let mut writer = PreloginFramed::new(a);
        writer.write_all(b"hello ").await.unwrap();
        writer.write_all(b"world").await.unwrap();
        writer.flush().await.unwrap();
        // Then plain bytes after the handshake.
        writer.stop_framing();
        writer.write_all(&[0x17, 1, 2]).await.unwrap();
        writer.flush().await.unwrap();
        drop(writer);
        let mut reader = PreloginFramed::new(b);
        let mut all = Vec::new();
        reader.read_to_end(&mut all).await.unwrap();
        assert_eq!(all, b"hello world\x17\x01\x02");
    }

    #[tokio::test]
    async fn generated_certificate_is_kept_in_the_data_directory() {
        let dir = std::env::temp_dir().join(format!("hekla-tds-tls-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        ServerTls::generated(&dir).unwrap();
        let (cert, key) = generated_paths(&dir);
        let first = std::fs::read(&cert).unwrap();
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&key).unwrap().permissions().mode() & 0o777,
            0o600
        );
        ServerTls::generated(&dir).unwrap();
        assert_eq!(
            std::fs::read(&cert).unwrap(),
            first,
            "kept, not regenerated"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
