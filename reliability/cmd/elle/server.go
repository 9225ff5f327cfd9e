package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// server is a `hekla serve` on a loopback port and a data directory of its
// own, which the run can SIGKILL and restart on the same directory.
type server struct {
	bin, dataDir, addr, password string
	logPath                      string
	cmd                          *exec.Cmd
	exited                       chan error // receives when cmd ends
}

func newServer(bin string) (*server, error) {
	dataDir, err := os.MkdirTemp("", "hekla-elle.")
	if err != nil {
		return nil, err
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := listener.Addr().String()
	listener.Close()
	secret := make([]byte, 8)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	s := &server{bin: bin, dataDir: dataDir, addr: addr, password: "Elle#" + hex.EncodeToString(secret),
		logPath: filepath.Join(dataDir, "..", filepath.Base(dataDir)+".log")}
	return s, s.start()
}

// start launches the server and waits until it accepts connections
// (recovery included).
func (s *server) start() error {
	log, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	s.cmd = exec.Command(s.bin, "serve", "--data-dir", filepath.Join(s.dataDir, "db"), "--listen", s.addr)
	s.cmd.Env = append(os.Environ(), "HEKLA_SA_PASSWORD="+s.password)
	s.cmd.Stdout, s.cmd.Stderr = log, log
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", s.bin, err)
	}
	exited := make(chan error, 1)
	s.exited = exited
	go func(cmd *exec.Cmd) { exited <- cmd.Wait() }(s.cmd)
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("hekla serve exited (%v); its log: %s", err, s.logPath)
		default:
		}
		if conn, err := net.DialTimeout("tcp", s.addr, time.Second); err == nil {
			conn.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("hekla serve did not listen on %s within 60 s; its log: %s", s.addr, s.logPath)
}

// kill SIGKILLs the server and waits until it is gone.
func (s *server) kill() error {
	select {
	case err := <-s.exited:
		s.exited <- err
		return fmt.Errorf("hekla serve had already exited (%v); its log: %s", err, s.logPath)
	default:
	}
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return err
	}
	select {
	case err := <-s.exited:
		s.exited <- err
		return nil
	case <-time.After(10 * time.Second):
		return fmt.Errorf("hekla serve (pid %d) outlived SIGKILL by 10 s", s.cmd.Process.Pid)
	}
}

// stop ends the server and removes its data directory.
func (s *server) stop() {
	_ = s.kill()
	os.RemoveAll(s.dataDir)
}

func (s *server) dsn() string {
	query := url.Values{}
	query.Set("database", "hekla")
	query.Set("encrypt", "disable")
	query.Set("dial timeout", "5")
	u := &url.URL{Scheme: "sqlserver", User: url.UserPassword("sa", s.password), Host: s.addr, RawQuery: query.Encode()}
	return u.String()
}
