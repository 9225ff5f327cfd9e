// Command soak is the load-held test (docs/reliability.md): it starts
// `hekla serve` and runs the crash test's mixed workload (sales orders with
// a TVP, counter updates, bank transfers, SCHEMA_ONLY inserts) from many
// go-mssqldb connections for a fixed time, with a cleaner deleting old
// orders, transfers and scratch rows so the data stays the same size. It
// samples the server's resident memory, open files and threads, and
// reports p50/p99 latency per window. It fails on any error other than the
// retried 41302/41305/41325 (and 41301), when the server dies, when the
// bank's total changes, or when after the warm-up memory, open files or
// threads grow faster than the stated bounds.
//
//	go run ./cmd/soak               # CI size: 200 connections, 1 minute, 10 s windows
//	go run ./cmd/soak -long         # or HEKLA_RELIABILITY_LONG=1: 10 minutes, 1 minute windows
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"hekla/reliability/procstat"
	"hekla/reliability/server"
	"hekla/reliability/workload"
)

type config struct {
	clients      int
	duration     time.Duration
	window       time.Duration
	warmup       time.Duration
	sampleEvery  time.Duration
	rssBound     float64 // MiB per minute
	fdBound      float64 // per minute
	threadBound  float64 // per minute
	keepOrders   int
	checkpoint   time.Duration
	workDir      string
	keepDataDirs bool
}

func main() {
	var cfg config
	long := flag.Bool("long", os.Getenv("HEKLA_RELIABILITY_LONG") != "", "long mode: 15 minutes, 1-minute windows, the last 10 fitted after a 5-minute warm-up (also HEKLA_RELIABILITY_LONG=1)")
	flag.IntVar(&cfg.clients, "clients", 200, "concurrent client connections")
	flag.DurationVar(&cfg.duration, "duration", 0, "how long the load runs (default 1m, long 15m)")
	flag.DurationVar(&cfg.window, "window", 0, "latency window (default 10s, long 1m)")
	flag.DurationVar(&cfg.warmup, "warmup", 0, "samples before this are not fitted (default 20s, long 5m)")
	flag.DurationVar(&cfg.sampleEvery, "sample-every", 2*time.Second, "how often the server process is sampled")
	flag.Float64Var(&cfg.rssBound, "rss-slope-mib-per-min", 0, "fail if resident memory grows faster after the warm-up (default 600 in CI size, where memory still ramps up, 8 in long mode)")
	flag.Float64Var(&cfg.fdBound, "fd-slope-per-min", 0, "fail if open files grow faster after the warm-up (default 30 in CI size, where a checkpoint's new files are a step in a short fit, 2 in long mode)")
	flag.Float64Var(&cfg.threadBound, "thread-slope-per-min", 2, "fail if threads grow faster after the warm-up")
	flag.IntVar(&cfg.keepOrders, "keep-rows", 5000, "the cleaner keeps about this many recent orders, transfers and scratch rows")
	flag.DurationVar(&cfg.checkpoint, "checkpoint-every", 0, "run CHECKPOINT this often (default 10s in CI size, 3m in long mode; an interval longer than the run leaves checkpoints to the log's growth)")
	flag.StringVar(&cfg.workDir, "work-dir", "", "where the data directory and server log go (default: a temporary directory)")
	flag.BoolVar(&cfg.keepDataDirs, "keep", false, "keep the data directory and log even when the run passes")
	flag.Parse()
	pick := func(d *time.Duration, short, longer time.Duration) {
		if *d == 0 {
			*d = short
			if *long {
				*d = longer
			}
		}
	}
	// The server's memory reaches its plateau only after the first
	// checkpoints, which raise high-water marks (allocator arenas of 200
	// connection threads, the engine's row heaps while garbage collection
	// waits for the CPU a merge takes): the long run fits ten minutes after
	// a warm-up holding the first checkpoint.
	pick(&cfg.duration, time.Minute, 15*time.Minute)
	pick(&cfg.window, 10*time.Second, time.Minute)
	pick(&cfg.warmup, 20*time.Second, 5*time.Minute)
	if cfg.rssBound == 0 {
		// A minute is inside the server's ramp-up (allocator arenas of 200
		// connection threads, the first checkpoint file pair): the short
		// run's bound only catches a gross leak; the long run's is tight.
		cfg.rssBound = 600
		if *long {
			cfg.rssBound = 8
		}
	}
	if cfg.fdBound == 0 {
		cfg.fdBound = 30
		if *long {
			cfg.fdBound = 2
		}
	}
	// The log's growth starts a checkpoint only after 256 MiB or 1 GiB of
	// it (by the machine's memory), which a slow machine may not write in
	// the run: the soak checkpoints on its own, so that memory held until
	// a checkpoint cannot read as growth and every run holds checkpoints
	// and merges to be flat across.
	pick(&cfg.checkpoint, 10*time.Second, 3*time.Minute)
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "soak: FAIL:", err)
		os.Exit(1)
	}
}

func run(cfg config) error {
	salesOrders, err := workload.SalesOrdersScript()
	if err != nil {
		return err
	}
	workDir, err := workload.WorkDir(cfg.workDir, "hekla-soak-")
	if err != nil {
		return err
	}
	srv, err := server.Start(server.Options{DataDir: filepath.Join(workDir, "data"), LogPath: filepath.Join(workDir, "server.log")})
	if err != nil {
		return err
	}
	defer srv.Stop()
	db, err := sql.Open("sqlserver", srv.DSN("hekla"))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(cfg.clients + 4)
	db.SetMaxIdleConns(cfg.clients + 4)
	ctx := context.Background()
	sizes := workload.DefaultSizes
	if err := workload.Setup(ctx, db, salesOrders, sizes, false); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	fmt.Printf("soak: %d connections for %v, latency per %v, warm-up %v, server pid %d, work dir %s\n",
		cfg.clients, cfg.duration, cfg.window, cfg.warmup, srv.PID(), workDir)

	stats := workload.NewStats(cfg.window)
	clients := &workload.Clients{DB: db, Sizes: sizes, Mix: workload.DefaultMix, Stats: stats, Seed: uint64(time.Now().UnixNano())}
	loadCtx, stop := context.WithTimeout(ctx, cfg.duration)
	defer stop()
	var wg sync.WaitGroup
	var samples []procstat.Sample
	var sampleErr, cleanErr error
	var heaps []heapSample
	wg.Add(3)
	go func() { defer wg.Done(); samples, sampleErr = sample(loadCtx, srv.PID(), cfg.sampleEvery) }()
	go func() { defer wg.Done(); heaps = engineHeaps(loadCtx, db, 5*time.Second) }()
	go func() { defer wg.Done(); cleanErr = clean(loadCtx, db, cfg.keepOrders, cfg.checkpoint) }()
	clients.Run(loadCtx, cfg.clients, nil)
	wg.Wait()

	var failures []string
	fail := func(format string, args ...any) { failures = append(failures, fmt.Sprintf(format, args...)) }
	if err := srv.ExitError(); err != nil {
		fail("the server died under load: %v (log %s)", err, srv.LogPath())
	}
	if sampleErr != nil {
		fail("sampling the server: %v", sampleErr)
	}
	if cleanErr != nil {
		fail("cleaner: %v", cleanErr)
	}

	counts := stats.Snapshot()
	total := 0
	for _, n := range counts.Committed {
		total += n
	}
	fmt.Printf("soak: %d commits (%s), %.0f per second; retried %s; %d gave up after %d retries\n", total,
		workload.FormatCounts(counts.Committed), float64(total)/cfg.duration.Seconds(),
		workload.FormatRetries(counts.Retried), counts.GaveUp, workload.MaxRetries)
	for _, w := range stats.Latency.Windows() {
		if w.Start >= cfg.duration {
			break // requests that ended as the load stopped
		}
		last := lastSampleBefore(samples, w.Start+cfg.window)
		fmt.Printf("soak: window %v-%v: %d commits, p50 %v, p99 %v; server RSS %.1f MiB (engine heaps %.1f MiB), %d open files, %d threads\n",
			w.Start, w.Start+cfg.window, w.Count, w.P50.Round(10*time.Microsecond), w.P99.Round(10*time.Microsecond),
			float64(last.RSSKiB)/1024, lastHeapBefore(heaps, w.Start+cfg.window)/(1<<20), last.OpenFDs, last.Threads)
	}
	if files, err := checkpointFiles(ctx, db); err != nil {
		fail("reading sys.dm_db_xtp_checkpoint_files: %v", err)
	} else {
		fmt.Printf("soak: checkpoint files at the end: %s\n", files)
	}
	if counts.Unexpected > 0 || counts.Indeterminate > 0 {
		fail("%d unexpected errors and %d requests without an answer; the first errors: %s",
			counts.Unexpected, counts.Indeterminate, strings.Join(counts.FirstErrors, "; "))
	}

	var steady []procstat.Sample
	for _, s := range samples {
		if s.At >= cfg.warmup {
			steady = append(steady, s)
		}
	}
	if len(steady) < 3 {
		fail("only %d samples after the warm-up: cannot fit a trend", len(steady))
	} else {
		tr := procstat.Fit(steady)
		fmt.Printf("soak: after the %v warm-up (%d samples): RSS %.1f-%.1f MiB, slope %+.2f MiB/min (bound %.1f); open files %d-%d, slope %+.2f/min (bound %.1f); threads %d-%d, slope %+.2f/min (bound %.1f)\n",
			cfg.warmup, len(steady), tr.RSSMiBMin, tr.RSSMiBMax, tr.RSSMiBPerMin, cfg.rssBound,
			tr.FDsMin, tr.FDsMax, tr.FDsPerMin, cfg.fdBound, tr.ThreadsMin, tr.ThreadsMax, tr.ThreadsPerMin, cfg.threadBound)
		if tr.RSSMiBPerMin > cfg.rssBound {
			fail("resident memory grows %.2f MiB/min after the warm-up (bound %.1f)", tr.RSSMiBPerMin, cfg.rssBound)
		}
		if tr.FDsPerMin > cfg.fdBound {
			fail("open files grow %.2f/min after the warm-up (bound %.1f)", tr.FDsPerMin, cfg.fdBound)
		}
		if tr.ThreadsPerMin > cfg.threadBound {
			fail("threads grow %.2f/min after the warm-up (bound %.1f)", tr.ThreadsPerMin, cfg.threadBound)
		}
	}

	// Transfers move money; none may appear or vanish.
	state, err := workload.ReadState(ctx, db)
	if err != nil {
		fail("reading the database after the load: %v", err)
	} else {
		var money int64
		for _, b := range state.Balances {
			money += b
		}
		if want := int64(sizes.Accounts) * sizes.InitialBalance; money != want {
			fail("the bank holds %d, want %d", money, want)
		}
	}

	if len(failures) > 0 {
		return fmt.Errorf("%s (data and server log kept in %s)", strings.Join(failures, "; "), workDir)
	}
	fmt.Println("soak: passed")
	if !cfg.keepDataDirs && cfg.workDir == "" {
		srv.Stop()
		os.RemoveAll(workDir)
	}
	return nil
}

func lastSampleBefore(samples []procstat.Sample, end time.Duration) procstat.Sample {
	var last procstat.Sample
	for _, s := range samples {
		if s.At < end {
			last = s
		}
	}
	return last
}

// sample reads the server process every period until ctx ends.
func sample(ctx context.Context, pid int, period time.Duration) ([]procstat.Sample, error) {
	start := time.Now()
	var samples []procstat.Sample
	ticker := time.NewTicker(period)
	defer ticker.Stop()
	for {
		s, err := procstat.Read(pid)
		if err != nil {
			return samples, err
		}
		s.At = time.Since(start)
		samples = append(samples, s)
		select {
		case <-ctx.Done():
			return samples, nil
		case <-ticker.C:
		}
	}
}

type heapSample struct {
	at    time.Duration
	bytes float64
}

// engineHeaps samples what the engine's row heaps and indexes have
// allocated (sys.dm_db_xtp_memory_consumers) every period until ctx ends,
// so that the server's resident memory can be told apart from the live
// data in it. A failed query is skipped: the load may be saturating.
func engineHeaps(ctx context.Context, db *sql.DB, period time.Duration) []heapSample {
	start := time.Now()
	var heaps []heapSample
	for {
		var bytes float64
		err := db.QueryRowContext(ctx, "SELECT SUM(allocated_bytes) FROM sys.dm_db_xtp_memory_consumers").Scan(&bytes)
		if err == nil {
			heaps = append(heaps, heapSample{at: time.Since(start), bytes: bytes})
		}
		select {
		case <-ctx.Done():
			return heaps
		case <-time.After(period):
		}
	}
}

func lastHeapBefore(heaps []heapSample, end time.Duration) float64 {
	var last float64
	for _, h := range heaps {
		if h.at < end {
			last = h.bytes
		}
	}
	return last
}

// checkpointFiles sums up sys.dm_db_xtp_checkpoint_files by state: whether
// pairs were sealed and merged during the run (TOMBSTONE files are merged
// sources awaiting deletion).
func checkpointFiles(ctx context.Context, db *sql.DB) (string, error) {
	rows, err := db.QueryContext(ctx, `SELECT state_desc, COUNT(*), SUM(file_size_used_in_bytes)
		FROM sys.dm_db_xtp_checkpoint_files GROUP BY state_desc ORDER BY state_desc`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var parts []string
	for rows.Next() {
		var state string
		var files int
		var used int64
		if err := rows.Scan(&state, &files, &used); err != nil {
			return "", err
		}
		parts = append(parts, fmt.Sprintf("%s %d (%.1f MiB used)", state, files, float64(used)/(1<<20)))
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	return strings.Join(parts, ", "), nil
}

// clean keeps the tables the workload inserts into at about keep rows, once
// a second: the soak measures a steady state, not a growing database. With
// checkpoint > 0 it also runs CHECKPOINT that often.
func clean(ctx context.Context, db *sql.DB, keep int, checkpoint time.Duration) error {
	lastCheckpoint := time.Now()
	deletes := []string{
		"DELETE FROM Sales.SalesOrderDetail_inmem WHERE SalesOrderID < (SELECT MAX(SalesOrderID) FROM Sales.SalesOrderHeader_inmem) - @p1",
		"DELETE FROM Sales.SalesOrderHeader_inmem WHERE SalesOrderID < (SELECT MAX(SalesOrderID) FROM Sales.SalesOrderHeader_inmem) - @p1",
		"DELETE FROM dbo.Transfer WHERE TransferID < (SELECT MAX(TransferID) FROM dbo.Transfer) - @p1",
		"DELETE FROM dbo.Scratch WHERE ScratchID < (SELECT MAX(ScratchID) FROM dbo.Scratch) - @p1",
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
		for _, d := range deletes {
			if _, err := db.ExecContext(ctx, d, keep); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				if outcome, number := workload.Classify(err); outcome == workload.Failed && workload.Retryable(number) {
					continue // a conflict with a client: the next round deletes it
				}
				return fmt.Errorf("%s: %w", d, err)
			}
		}
		if checkpoint > 0 && time.Since(lastCheckpoint) >= checkpoint {
			if _, err := db.ExecContext(ctx, "CHECKPOINT"); err != nil && ctx.Err() == nil {
				return fmt.Errorf("CHECKPOINT: %w", err)
			}
			lastCheckpoint = time.Now()
		}
	}
}
