// Package server runs `hekla serve` as a child process for the reliability
// tests: on a free loopback port, with a given data directory and sa
// password, killed with SIGKILL and restarted on the same data directory and
// port, its output kept in a log file for failure reports.
//
//	s, err := server.Start(server.Options{DataDir: dir})
//	defer s.Stop()
//	db, _ := sql.Open("sqlserver", s.DSN("hekla"))
//	s.Kill()      // SIGKILL, waits for the process to be gone
//	s.Restart()   // same data dir, same port; returns once a login works
//
// The binary is HEKLA_BIN, or else `cargo build -p hekla` is run at the
// repository root and target/debug/hekla used (what CI does).
package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	_ "github.com/microsoft/go-mssqldb" // registers the "sqlserver" driver
)

// Options say how to start the server. Only DataDir is required.
type Options struct {
	// DataDir is the database directory; created by hekla if missing.
	DataDir string
	// Password for the sa login, set at the data directory's first start
	// (HEKLA_SA_PASSWORD). Empty: a random one.
	Password string
	// LogPath receives the server's standard output and error, appended
	// across restarts. Empty: DataDir + ".log".
	LogPath string
	// Binary is the hekla executable. Empty: Binary().
	Binary string
	// ExtraArgs are added to `hekla serve` (e.g. --max-connections 500).
	ExtraArgs []string
	// ReadyTimeout bounds each start, from exec to a working login
	// (recovery included). Zero: 60 s.
	ReadyTimeout time.Duration
}

// Server is one `hekla serve` child process, restartable.
type Server struct {
	opts Options
	port int

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has been waited for
	log  *os.File
}

// Start starts the server and returns once the sa login succeeds.
func Start(opts Options) (*Server, error) {
	if opts.DataDir == "" {
		return nil, errors.New("server: Options.DataDir is required")
	}
	if opts.Password == "" {
		opts.Password = randomPassword()
	}
	if opts.LogPath == "" {
		opts.LogPath = filepath.Clean(opts.DataDir) + ".log"
	}
	if opts.ReadyTimeout == 0 {
		opts.ReadyTimeout = 60 * time.Second
	}
	if opts.Binary == "" {
		bin, err := Binary()
		if err != nil {
			return nil, err
		}
		opts.Binary = bin
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, port: port}
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

// Binary returns HEKLA_BIN, or builds hekla with `cargo build -p hekla` at
// the repository root (found from the working directory upwards) and
// returns target/debug/hekla.
func Binary() (string, error) {
	if bin := os.Getenv("HEKLA_BIN"); bin != "" {
		return bin, nil
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	build := exec.Command("cargo", "build", "--quiet", "-p", "hekla")
	build.Dir = root
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("server: cargo build -p hekla in %s: %w", root, err)
	}
	return filepath.Join(root, "target", "debug", "hekla"), nil
}

// RepoRoot is the nearest directory at or above the working directory that
// holds the workspace's Cargo.toml and the reliability module.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isFile(filepath.Join(dir, "Cargo.toml")) && isFile(filepath.Join(dir, "reliability", "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("server: no repository root (Cargo.toml next to reliability/) above the working directory")
		}
		dir = parent
	}
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// Password is the sa login's password.
func (s *Server) Password() string { return s.opts.Password }

// LogPath is the file holding the server's output.
func (s *Server) LogPath() string { return s.opts.LogPath }

// DataDir is the server's data directory.
func (s *Server) DataDir() string { return s.opts.DataDir }

// DSN is a go-mssqldb connection string logging in as sa to database
// (hekla accepts "" and "hekla"), unencrypted, with short dial timeouts so
// a client notices a killed server quickly.
func (s *Server) DSN(database string) string {
	query := url.Values{}
	if database != "" {
		query.Set("database", database)
	}
	query.Set("encrypt", "disable")
	query.Set("dial timeout", "5")
	query.Set("connection timeout", "30")
	u := &url.URL{
		Scheme:   "sqlserver",
		User:     url.UserPassword("sa", s.opts.Password),
		Host:     s.Addr(),
		RawQuery: query.Encode(),
	}
	return u.String()
}

// PID is the running process's id, or 0 when it is not running.
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil || s.exited() {
		return 0
	}
	return s.cmd.Process.Pid
}

// Running reports whether the process is alive (not exited on its own or killed).
func (s *Server) Running() bool { return s.PID() != 0 }

func (s *Server) exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Kill sends SIGKILL and waits until the process is gone.
func (s *Server) Kill() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.killLocked()
}

func (s *Server) killLocked() error {
	if s.cmd == nil {
		return nil
	}
	if !s.exited() {
		if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil && !errors.Is(err, os.ErrProcessDone) {
			return fmt.Errorf("server: SIGKILL %d: %w", s.cmd.Process.Pid, err)
		}
	}
	<-s.done
	s.cmd = nil
	return nil
}

// Restart kills the process if it still runs, then starts it again on the
// same data directory and port, returning once a login works.
func (s *Server) Restart() error {
	if err := s.Kill(); err != nil {
		return err
	}
	return s.start()
}

// Stop ends the server with SIGTERM (a clean shutdown), falling back to
// SIGKILL after 15 s, and closes the log. Safe to call more than once.
func (s *Server) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.cmd != nil && !s.exited() {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			err = errors.New("server: no exit within 15 s of SIGTERM; killed")
		}
	}
	if killErr := s.killLocked(); err == nil {
		err = killErr
	}
	if s.log != nil {
		s.log.Close()
		s.log = nil
	}
	return err
}

// ExitError reports how the process ended when it exited on its own (a
// crash), or nil while it runs or after Kill.
func (s *Server) ExitError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil || !s.exited() {
		return nil
	}
	return fmt.Errorf("server: hekla serve (pid %d) exited: %s", s.cmd.Process.Pid, s.cmd.ProcessState)
}

func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log == nil {
		log, err := os.OpenFile(s.opts.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("server: log file: %w", err)
		}
		s.log = log
	}
	fmt.Fprintf(s.log, "==== server: starting %s at %s\n", s.opts.Binary, time.Now().UTC().Format(time.RFC3339Nano))
	args := append([]string{"serve", "--data-dir", s.opts.DataDir, "--listen", s.Addr()}, s.opts.ExtraArgs...)
	cmd := exec.Command(s.opts.Binary, args...)
	cmd.Env = append(os.Environ(), "HEKLA_SA_PASSWORD="+s.opts.Password)
	cmd.Stdout, cmd.Stderr = s.log, s.log
	// Its own process group: a Ctrl-C of the test does not hit the server
	// before Stop does, and a kill here never reaches the test.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("server: start %s: %w", s.opts.Binary, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	s.cmd, s.done = cmd, done
	if err := s.waitReady(); err != nil {
		_ = s.killLocked()
		return fmt.Errorf("%w (server log: %s)", err, s.opts.LogPath)
	}
	return nil
}

// waitReady polls a login with SELECT 1 until it works, the process exits,
// or ReadyTimeout passes.
func (s *Server) waitReady() error {
	deadline := time.Now().Add(s.opts.ReadyTimeout)
	var last error
	for time.Now().Before(deadline) {
		if s.exited() {
			return fmt.Errorf("server: hekla serve exited during start: %s", s.cmd.ProcessState)
		}
		if last = s.ping(); last == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("server: no login within %v: %v", s.opts.ReadyTimeout, last)
}

func (s *Server) ping() error {
	db, err := sql.Open("sqlserver", s.DSN("hekla"))
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var one int
	if err := db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return err
	}
	if one != 1 {
		return fmt.Errorf("SELECT 1 returned %d", one)
	}
	return nil
}

// freePort asks the kernel for a free loopback port. The port is released
// before hekla binds it; another process could take it in between, which
// the start then reports.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("server: free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomPassword() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "Rel#" + hex.EncodeToString(b)
}
