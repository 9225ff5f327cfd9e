package server

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartKillRestart writes a durable row, SIGKILLs the server, restarts it
// on the same data directory and reads the row back.
func TestStartKillRestart(t *testing.T) {
	dir := t.TempDir()
	s, err := Start(Options{DataDir: filepath.Join(dir, "data"), LogPath: filepath.Join(dir, "server.log")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Stop() })
	firstPID := s.PID()
	if firstPID == 0 {
		t.Fatal("PID is 0 after Start")
	}

	db, err := sql.Open("sqlserver", s.DSN("hekla"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE dbo.kept (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int NOT NULL)
		WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO dbo.kept VALUES (1, 42)"); err != nil {
		t.Fatal(err)
	}

	if err := s.Kill(); err != nil {
		t.Fatal(err)
	}
	if s.Running() || s.PID() != 0 {
		t.Fatal("still running after Kill")
	}
	if err := db.Ping(); err == nil {
		// The pool may hand out a connection that has not noticed yet; a
		// query on it must fail.
		if _, err := db.Exec("SELECT 1"); err == nil {
			t.Fatal("a query succeeded with the server killed")
		}
	}

	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if s.PID() == 0 || s.PID() == firstPID {
		t.Fatalf("PID after restart %d (before %d)", s.PID(), firstPID)
	}
	var v int
	// database/sql retries a dead pooled connection (driver.ErrBadConn) on a new one.
	if err := db.QueryRow("SELECT v FROM dbo.kept WHERE id = 1").Scan(&v); err != nil {
		t.Fatalf("after restart: %v", err)
	}
	if v != 42 {
		t.Fatalf("after restart v = %d, want 42", v)
	}

	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(s.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "==== server: starting"); n != 2 {
		t.Fatalf("log has %d starts, want 2:\n%s", n, log)
	}
	if s.ExitError() != nil {
		t.Fatalf("ExitError after Stop: %v", s.ExitError())
	}
}

// TestDSNAndRepoRoot checks the connection string's parts and that the
// repository root is found from this package's directory.
func TestDSNAndRepoRoot(t *testing.T) {
	s := &Server{opts: Options{Password: "p@ss word"}, port: 4321}
	dsn := s.DSN("hekla")
	for _, part := range []string{"sqlserver://sa:p%40ss%20word@127.0.0.1:4321", "database=hekla", "encrypt=disable"} {
		if !strings.Contains(dsn, part) {
			t.Errorf("DSN %q lacks %q", dsn, part)
		}
	}
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if !isFile(filepath.Join(root, "workloads", "sales_orders.sql")) {
		t.Fatalf("RepoRoot %s has no workloads/sales_orders.sql", root)
	}
}
