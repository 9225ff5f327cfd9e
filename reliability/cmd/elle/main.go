// Command elle records transaction histories against a real `hekla serve`
// and checks them for isolation anomalies (package elle): for each isolation
// level hekla offers memory-optimized tables (SNAPSHOT, REPEATABLE READ,
// SERIALIZABLE, by table hint in explicit transactions) and each model
// (list-append, read-write register), concurrent clients run random short
// transactions against a few keys (with -native, each one call of a
// natively compiled procedure's ATOMIC block instead). With -kill-every the
// server is SIGKILLed and restarted at random moments meanwhile; a COMMIT
// left unanswered is an indeterminate (:info) outcome.
//
// It prints the transactions checked, their outcomes and the anomalies per
// history, and exits 1 if an anomaly the level forbids was found, 2 if the
// run itself failed.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/microsoft/go-mssqldb"

	"hekla/reliability/elle"
	"hekla/reliability/server"
)

type options struct {
	bin       string
	levels    []elle.Level
	models    []elle.Model
	clients   int
	keys      int
	mops      int
	maxPerKey int
	duration  time.Duration
	killEvery time.Duration
	seed      int64
	show      int
	hint      elle.Level // self-test: every history's table hints ask for this level
	native    bool
}

func parseOptions() (options, error) {
	var o options
	var levels, models string
	long := flag.Bool("long", false, "long mode: 60 s per history instead of -duration")
	flag.StringVar(&o.bin, "hekla", os.Getenv("HEKLA_BIN"), "the hekla binary (default $HEKLA_BIN, else target/debug/hekla)")
	flag.StringVar(&levels, "levels", "snapshot,repeatableread,serializable", "isolation levels, comma-separated")
	flag.StringVar(&models, "models", "list-append,register", "models, comma-separated")
	flag.IntVar(&o.clients, "clients", 8, "concurrent clients")
	flag.IntVar(&o.keys, "keys", 3, "keys active at once (few keys: many conflicts)")
	flag.IntVar(&o.mops, "mops", 4, "most micro-operations per transaction")
	flag.IntVar(&o.maxPerKey, "max-per-key", 100, "list-append: appends to a key before a fresh key replaces it")
	flag.DurationVar(&o.duration, "duration", 4*time.Second, "how long clients run per history")
	flag.DurationVar(&o.killEvery, "kill-every", 0, "SIGKILL and restart the server about this often (0: never)")
	flag.Int64Var(&o.seed, "seed", time.Now().UnixNano(), "random seed")
	flag.IntVar(&o.show, "show", 3, "forbidden anomalies printed in full per kind and history")
	hint := flag.String("hint", "", "self-test: run every level's histories with this level's table hint "+
		"(-levels serializable -hint snapshot must find write skew and exit 1)")
	flag.BoolVar(&o.native, "native", false,
		"run each transaction as one call of a natively compiled procedure (an ATOMIC block at the level)")
	flag.Parse()
	if *hint != "" {
		level, err := elle.ParseLevel(*hint)
		if err != nil {
			return o, err
		}
		o.hint = level
	}
	if *long {
		o.duration = time.Minute
	}
	if o.bin == "" {
		o.bin = "target/debug/hekla"
	}
	for _, name := range strings.Split(levels, ",") {
		level, err := elle.ParseLevel(name)
		if err != nil {
			return o, err
		}
		o.levels = append(o.levels, level)
	}
	for _, name := range strings.Split(models, ",") {
		switch strings.TrimSpace(name) {
		case "list-append":
			o.models = append(o.models, elle.ListAppend)
		case "register":
			o.models = append(o.models, elle.Register)
		default:
			return o, fmt.Errorf("unknown model %q (list-append, register)", name)
		}
	}
	if o.native && o.mops > nativeMops {
		return o, fmt.Errorf("-native takes at most %d micro-operations per transaction (-mops)", nativeMops)
	}
	if o.clients < 1 || o.keys < 1 || o.mops < 1 || o.maxPerKey < 1 {
		return o, errors.New("-clients, -keys, -mops and -max-per-key must be positive")
	}
	return o, nil
}

func main() {
	o, err := parseOptions()
	if err != nil {
		fmt.Fprintln(os.Stderr, "elle:", err)
		os.Exit(2)
	}
	os.Exit(run(o))
}

func run(o options) int {
	workDir, err := os.MkdirTemp("", "hekla-elle.")
	if err != nil {
		fmt.Fprintln(os.Stderr, "elle:", err)
		return 2
	}
	srv, err := server.Start(server.Options{DataDir: filepath.Join(workDir, "db"), Binary: o.bin})
	if err != nil {
		fmt.Fprintln(os.Stderr, "elle:", err)
		return 2
	}
	defer func() {
		_ = srv.Stop()
		os.RemoveAll(workDir)
	}()
	db, err := sql.Open("sqlserver", srv.DSN("hekla"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "elle:", err)
		return 2
	}
	defer db.Close()
	db.SetMaxOpenConns(o.clients + 1)
	db.SetMaxIdleConns(o.clients + 1)
	fmt.Printf("elle: %s serve on %s, %d clients, %d active keys, %v per history, kills every ~%v, seed %d\n",
		o.bin, srv.Addr(), o.clients, o.keys, o.duration, o.killEvery, o.seed)

	status := 0
	var checked, forbidden int
	rng := rand.New(rand.NewSource(o.seed))
	for _, level := range o.levels {
		for _, model := range o.models {
			hint := level
			if o.hint != "" {
				hint = o.hint
			}
			w := &workload{model: model, level: level, hint: hint, keys: o.keys, rows: 4000, maxPerKey: o.maxPerKey,
				mopsPerTxn: o.mops, native: o.native, db: db,
				table: fmt.Sprintf("elle_%s_%s", strings.ReplaceAll(model.String(), "-", "_"),
					strings.ToLower(strings.ReplaceAll(string(level), " ", "")))}
			if o.native {
				w.table += "_native"
			}
			r, kills, err := history(o, srv, w, rng.Int63())
			if err != nil {
				fmt.Printf("%-15s %-11s FAIL: %v\n", level, model, err)
				status = 2
				continue
			}
			checked += r.OK + r.Failed + r.Indeterminate
			bad := r.ForbiddenAt(level)
			forbidden += len(bad)
			label := string(level)
			if hint != level {
				label += " (hint " + string(hint) + ")"
			}
			if o.native {
				label += " native"
			}
			fmt.Printf("%-15s %-11s %6d transactions: %d ok, %d failed, %d info (%s); %d kills; anomalies: %s\n",
				label, model, r.OK+r.Failed+r.Indeterminate, r.OK, r.Failed, r.Indeterminate, reasons(w.reasons),
				kills, describe(r, level))
			printForbidden(bad, o.show)
			if len(bad) > 0 && status == 0 {
				status = 1
			}
		}
	}
	fmt.Printf("elle: %d transactions checked, %d anomalies the levels forbid\n", checked, forbidden)
	return status
}

// history records one workload's history and checks it.
func history(o options, srv *server.Server, w *workload, seed int64) (*elle.Result, int, error) {
	setupCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := w.setup(setupCtx); err != nil {
		return nil, 0, err
	}
	var processes atomic.Int64
	nextProcess := func() int { return int(processes.Add(1)) }

	ctx, stop := context.WithTimeout(context.Background(), o.duration)
	defer stop()
	var kills int
	killed := make(chan error, 1)
	go func() { killed <- killer(ctx, srv, o.killEvery, seed, &kills) }()

	var wg sync.WaitGroup
	errs := make(chan error, o.clients)
	for i := 0; i < o.clients; i++ {
		wg.Add(1)
		go func(rng *rand.Rand) {
			defer wg.Done()
			if err := w.client(ctx, rng, nextProcess); err != nil {
				errs <- err
				stop()
			}
		}(rand.New(rand.NewSource(seed + int64(i) + 1)))
	}
	wg.Wait()
	stop()
	if err := <-killed; err != nil {
		return nil, kills, err
	}
	close(errs)
	if err := <-errs; err != nil {
		return nil, kills, err
	}
	finalCtx, cancelFinal := context.WithTimeout(context.Background(), time.Minute)
	defer cancelFinal()
	if err := w.finalRead(finalCtx, nextProcess); err != nil {
		return nil, kills, err
	}
	r, err := elle.Check(w.model, w.history)
	if err != nil {
		return nil, kills, fmt.Errorf("malformed history: %w", err)
	}
	if r.OK < 20 {
		return nil, kills, fmt.Errorf("only %d transactions committed: too few to check anything", r.OK)
	}
	return r, kills, nil
}

// killer SIGKILLs and restarts the server about every `every` (uniformly
// between half and one and a half times it) until ctx ends; the server is
// up when it returns.
func killer(ctx context.Context, srv *server.Server, every time.Duration, seed int64, kills *int) error {
	if every <= 0 {
		return nil
	}
	rng := rand.New(rand.NewSource(seed))
	for {
		wait := every/2 + time.Duration(rng.Int63n(int64(every)))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		if err := srv.ExitError(); err != nil {
			return fmt.Errorf("the server died before kill %d: %w (its log: %s)", *kills+1, err, srv.LogPath())
		}
		if err := srv.Kill(); err != nil {
			return err
		}
		*kills++
		if err := srv.Restart(); err != nil {
			return fmt.Errorf("restart after kill %d: %w", *kills, err)
		}
	}
}

// reasons lists why transactions did not commit, most frequent first.
func reasons(counts map[string]int) string {
	var names []string
	for name := range counts {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s %d", name, counts[name])
	}
	return strings.Join(parts, ", ")
}

// describe lists the anomaly counts, each marked allowed at the level or not.
func describe(r *elle.Result, level elle.Level) string {
	counts := r.Counts()
	if len(counts) == 0 {
		return "none"
	}
	var kinds []string
	for k := range counts {
		kinds = append(kinds, string(k))
	}
	sort.Strings(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		verdict := "FORBIDDEN"
		if !level.Forbids(elle.Kind(k)) {
			verdict = "allowed"
		}
		parts[i] = fmt.Sprintf("%s %d (%s)", k, counts[elle.Kind(k)], verdict)
	}
	return strings.Join(parts, ", ")
}

func printForbidden(anomalies []elle.Anomaly, perKind int) {
	shown := map[elle.Kind]int{}
	for _, a := range anomalies {
		if shown[a.Kind] < perKind {
			shown[a.Kind]++
			fmt.Println("  " + strings.ReplaceAll(a.String(), "\n", "\n  "))
		}
	}
}
