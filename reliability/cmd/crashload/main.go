// Command crashload is the crash-under-load test (docs/reliability.md):
// it starts `hekla serve`, drives it with concurrent go-mssqldb clients
// (the sales-order procedure with a TVP, counter updates under the 41302
// retry wrapper, bank transfers, SCHEMA_ONLY inserts), SIGKILLs the server
// at random moments, restarts it and checks every commit a client saw
// acknowledged, the bank's total, that nothing partial or unasked-for
// appeared, that the SCHEMA_ONLY table is empty with its schema, and that
// the clients reconnect. It does so with full durability and under
// DELAYED_DURABILITY = FORCED (where only commits covered by a returned
// sp_flush_log are promised). Exits 1 on any loss or broken invariant.
//
//	go run ./cmd/crashload            # CI size
//	go run ./cmd/crashload -long      # or HEKLA_RELIABILITY_LONG=1
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"hekla/reliability/server"
	"hekla/reliability/workload"
)

type config struct {
	cycles       int
	clients      int
	minRun       time.Duration
	maxRun       time.Duration
	flushEvery   time.Duration
	modes        []string
	seed         uint64
	workDir      string
	keepDataDirs bool
}

func main() {
	var cfg config
	long := flag.Bool("long", os.Getenv("HEKLA_RELIABILITY_LONG") != "", "long mode: 40 cycles per mode, 2-8 s of load each (also HEKLA_RELIABILITY_LONG=1)")
	flag.IntVar(&cfg.cycles, "cycles", 0, "kill/restart cycles per durability mode (default 5, long 40)")
	flag.IntVar(&cfg.clients, "clients", 32, "concurrent client connections")
	flag.DurationVar(&cfg.minRun, "min-run", 0, "least load before a kill (default 1s, long 2s)")
	flag.DurationVar(&cfg.maxRun, "max-run", 0, "most load before a kill (default 3s, long 8s)")
	flag.DurationVar(&cfg.flushEvery, "flush-every", 100*time.Millisecond, "sp_flush_log period under delayed durability")
	modes := flag.String("modes", "durable,delayed", "durability modes to run, comma-separated (durable, delayed)")
	flag.Uint64Var(&cfg.seed, "seed", uint64(time.Now().UnixNano()), "random seed (printed; pass it to replay the kill moments)")
	flag.StringVar(&cfg.workDir, "work-dir", "", "where data directories and server logs go (default: a temporary directory)")
	flag.BoolVar(&cfg.keepDataDirs, "keep", false, "keep the data directories and logs even when the run passes")
	flag.Parse()
	cfg.modes = strings.Split(*modes, ",")
	defaults := func(d *time.Duration, short, longer time.Duration) {
		if *d == 0 {
			*d = map[bool]time.Duration{false: short, true: longer}[*long]
		}
	}
	defaults(&cfg.minRun, time.Second, 2*time.Second)
	defaults(&cfg.maxRun, 3*time.Second, 8*time.Second)
	if cfg.cycles == 0 {
		cfg.cycles = map[bool]int{false: 5, true: 40}[*long]
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "crashload: FAIL:", err)
		os.Exit(1)
	}
}

func run(cfg config) error {
	salesOrders, err := workload.SalesOrdersScript()
	if err != nil {
		return err
	}
	binary, err := server.Binary()
	if err != nil {
		return err
	}
	workDir, err := workload.WorkDir(cfg.workDir, "hekla-crashload-")
	if err != nil {
		return err
	}
	fmt.Printf("crashload: seed %d, %d clients, %d cycles per mode, load %v-%v before each kill, work dir %s\n",
		cfg.seed, cfg.clients, cfg.cycles, cfg.minRun, cfg.maxRun, workDir)
	var totals summary
	failed := false
	for _, mode := range cfg.modes {
		sum, err := runMode(cfg, mode, binary, salesOrders, workDir)
		totals.add(sum)
		if err != nil {
			fmt.Printf("crashload: %s: FAIL: %v\n", mode, err)
			failed = true
		}
	}
	fmt.Printf("crashload: total: %d cycles, %d acknowledged commits checked (%d promised), %d losses, %d violations, %d unpromised delayed commits lost (allowed), %d indeterminate\n",
		totals.cycles, totals.checked, totals.promised, totals.losses, totals.violations, totals.unpromisedLost, totals.indeterminate)
	if failed {
		return fmt.Errorf("see above; data directories and server logs kept in %s", workDir)
	}
	if !cfg.keepDataDirs && cfg.workDir == "" {
		os.RemoveAll(workDir)
	}
	return nil
}

type summary struct {
	cycles, checked, promised, losses, violations, unpromisedLost, indeterminate int
}

func (s *summary) add(o summary) {
	s.cycles += o.cycles
	s.checked += o.checked
	s.promised += o.promised
	s.losses += o.losses
	s.violations += o.violations
	s.unpromisedLost += o.unpromisedLost
	s.indeterminate += o.indeterminate
}

// reconnectLimit bounds how long every client may take to get a commit
// through after a (re)start.
const reconnectLimit = 60 * time.Second

func runMode(cfg config, mode, binary, salesOrders, workDir string) (summary, error) {
	var sum summary
	delayed := false
	switch mode {
	case "durable":
	case "delayed":
		delayed = true
	default:
		return sum, fmt.Errorf("unknown mode %q (durable, delayed)", mode)
	}
	srv, err := server.Start(server.Options{
		DataDir: filepath.Join(workDir, mode),
		LogPath: filepath.Join(workDir, mode+".log"),
		Binary:  binary,
	})
	if err != nil {
		return sum, err
	}
	defer srv.Stop()
	db, err := sql.Open("sqlserver", srv.DSN("hekla"))
	if err != nil {
		return sum, err
	}
	defer db.Close()
	db.SetMaxOpenConns(cfg.clients + 2)
	db.SetMaxIdleConns(cfg.clients + 2)

	ctx := context.Background()
	sizes := workload.DefaultSizes
	if err := workload.Setup(ctx, db, salesOrders, sizes, delayed); err != nil {
		return sum, fmt.Errorf("setup: %w", err)
	}
	ledger := workload.NewLedger(sizes, delayed)
	stats := workload.NewStats(time.Minute)
	clients := &workload.Clients{DB: db, Sizes: sizes, Mix: workload.DefaultMix, Ledger: ledger, Stats: stats, Seed: cfg.seed}
	rng := rand.New(rand.NewPCG(cfg.seed, uint64(len(mode))))

	for cycle := 1; cycle <= cfg.cycles; cycle++ {
		loadCtx, stopLoad := context.WithCancel(ctx)
		commitsCh := make(chan []int, 1)
		allCommitted := make(chan struct{})
		go func() { commitsCh <- clients.Run(loadCtx, cfg.clients, allCommitted) }()
		flusherDone := make(chan struct{})
		go func() {
			defer close(flusherDone)
			if delayed {
				flushLoop(loadCtx, db, ledger, cfg.flushEvery)
			}
		}()

		// Every client must get through (again, after a restart) before
		// the kill; then the load runs for a random while.
		select {
		case <-allCommitted:
		case <-time.After(reconnectLimit):
		}
		time.Sleep(cfg.minRun + time.Duration(rng.Int64N(int64(cfg.maxRun-cfg.minRun)+1)))
		if err := srv.ExitError(); err != nil {
			stopLoad()
			return sum, fmt.Errorf("cycle %d: the server died on its own under load: %w (log %s)", cycle, err, srv.LogPath())
		}
		if err := srv.Kill(); err != nil {
			stopLoad()
			return sum, err
		}
		stopLoad()
		commits := <-commitsCh
		<-flusherDone

		restartAt := time.Now()
		if err := srv.Restart(); err != nil {
			return sum, fmt.Errorf("cycle %d: restart: %w", cycle, err)
		}
		restartTook := time.Since(restartAt)
		// The pool's connections died with the server: drop them, so the
		// check and the clients start on fresh ones.
		db.SetMaxIdleConns(0)
		db.SetMaxIdleConns(cfg.clients + 2)
		report, err := ledger.Check(ctx, db)
		if err != nil {
			return sum, fmt.Errorf("cycle %d: reading the database after the restart: %w", cycle, err)
		}
		idle := 0
		for _, n := range commits {
			if n == 0 {
				idle++
			}
		}
		total := 0
		for _, n := range commits {
			total += n
		}
		fmt.Printf("crashload: %s cycle %d: %d commits acknowledged by %d clients, restart %v; checked %d (%d promised), %d indeterminate, %d unpromised lost, %d losses, %d violations; %d orders, %d transfers in the database\n",
			mode, cycle, total, cfg.clients-idle, restartTook.Round(time.Millisecond), report.Checked, report.Promised,
			report.Indeterminate, report.UnpromisedLost, len(report.Losses), len(report.Violations), report.OrdersInDB, report.TransfersInDB)
		sum.add(summary{cycles: 1, checked: report.Checked, promised: report.Promised, losses: len(report.Losses),
			violations: len(report.Violations), unpromisedLost: report.UnpromisedLost, indeterminate: report.Indeterminate})
		if report.Failed() {
			for _, line := range append(report.Losses, report.Violations...) {
				fmt.Println("crashload:   ", line)
			}
			return sum, fmt.Errorf("cycle %d: %d losses, %d violations (server log %s)", cycle, len(report.Losses), len(report.Violations), srv.LogPath())
		}
		if idle > 0 {
			return sum, fmt.Errorf("cycle %d: %d of %d clients had no commit acknowledged within %v (did not reconnect?)", cycle, idle, cfg.clients, reconnectLimit)
		}
	}
	counts := stats.Snapshot()
	fmt.Printf("crashload: %s: commits by kind %s; retried %s; %d gave up after %d retries; %d indeterminate; %d unexpected errors\n",
		mode, workload.FormatCounts(counts.Committed), workload.FormatRetries(counts.Retried), counts.GaveUp, workload.MaxRetries,
		counts.Indeterminate, counts.Unexpected)
	if counts.Unexpected > 0 {
		return sum, fmt.Errorf("%d unexpected errors, the first: %s", counts.Unexpected, strings.Join(counts.FirstErrors, "; "))
	}
	return sum, nil
}

// flushLoop calls sp_flush_log every period, promising the delayed commits
// acknowledged before each call began once it returns.
func flushLoop(ctx context.Context, db *sql.DB, ledger *workload.Ledger, period time.Duration) {
	for ctx.Err() == nil {
		mark := ledger.FlushStarting()
		if err := workload.FlushLog(ctx, db); err == nil {
			ledger.Flushed(mark)
		}
		select {
		case <-ctx.Done():
		case <-time.After(period):
		}
	}
}
