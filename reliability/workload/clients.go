package workload

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Mix is the share of each operation, in percent.
type Mix struct{ Orders, Counters, Transfers, Scratch int }

// DefaultMix leans on the sales-order procedure, as the sample does.
var DefaultMix = Mix{Orders: 40, Counters: 30, Transfers: 20, Scratch: 10}

// Clients drives the workload with concurrent clients over one
// connection pool. Ledger (optional) is told every outcome.
type Clients struct {
	DB     *sql.DB
	Sizes  Sizes
	Mix    Mix
	Ledger *Ledger
	Stats  *Stats
	Seed   uint64

	nextTransfer atomic.Int64
	nextScratch  atomic.Int64
	seqs         sync.Map // client -> *atomic.Int64, kept across runs
}

// Run starts n clients and returns, when ctx ends, how many commits each
// client saw acknowledged in this run. allCommitted (if not nil) is closed
// once every client has had a commit acknowledged: all are connected.
func (c *Clients) Run(ctx context.Context, n int, allCommitted chan<- struct{}) []int {
	commits := make([]int, n)
	var waiting atomic.Int64
	waiting.Store(int64(n))
	firstCommit := func() {
		if waiting.Add(-1) == 0 && allCommitted != nil {
			close(allCommitted)
		}
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			commits[i] = c.client(ctx, i+1, firstCommit)
		}()
	}
	wg.Wait()
	return commits
}

func (c *Clients) seq(client int) *atomic.Int64 {
	v, _ := c.seqs.LoadOrStore(client, new(atomic.Int64))
	return v.(*atomic.Int64)
}

func (c *Clients) client(ctx context.Context, id int, firstCommit func()) int {
	rng := rand.New(rand.NewPCG(c.Seed, uint64(id)<<32|uint64(c.seq(id).Load())))
	commits := 0
	for ctx.Err() == nil {
		start := time.Now()
		kind, outcome := c.operation(ctx, rng, id)
		if ctx.Err() != nil {
			// Cancelled: the outcome was recorded as indeterminate if it
			// was one; its latency and error belong to no one.
			break
		}
		c.Stats.record(kind, outcome, time.Since(start))
		switch outcome.Outcome {
		case Committed:
			commits++
			if commits == 1 {
				firstCommit()
			}
		case Indeterminate:
			// The server is gone or restarting: do not spin.
			time.Sleep(20 * time.Millisecond)
		}
	}
	return commits
}

// result is one operation's outcome, with what the stats count.
type result struct {
	Outcome Outcome
	Err     error
	Retries Retries
}

func (c *Clients) operation(ctx context.Context, rng *rand.Rand, client int) (string, result) {
	seq := c.seq(client).Add(1)
	pick := rng.IntN(c.Mix.Orders + c.Mix.Counters + c.Mix.Transfers + c.Mix.Scratch)
	switch {
	case pick < c.Mix.Orders:
		lines := 1 + rng.IntN(5)
		comment := OrderComment(client, seq, lines)
		id, retries, err := InsertOrder(ctx, c.DB, rng, comment, lines)
		r := c.outcome(err, retries)
		if c.Ledger != nil {
			switch r.Outcome {
			case Committed:
				c.Ledger.OrderCommitted(id, comment)
			case Indeterminate:
				c.Ledger.OrderUnknown(comment)
			case Failed:
				c.Ledger.Failed(OrderKey(comment), err)
			}
		}
		return "order", r
	case pick < c.Mix.Orders+c.Mix.Counters:
		counter := 1 + rng.IntN(c.Sizes.Counters)
		version, retries, err := BumpCounter(ctx, c.DB, counter)
		r := c.outcome(err, retries)
		if c.Ledger != nil {
			switch r.Outcome {
			case Committed:
				c.Ledger.CounterCommitted(counter, version)
			case Indeterminate:
				c.Ledger.CounterUnknown(counter)
			}
		}
		return "counter", r
	case pick < c.Mix.Orders+c.Mix.Counters+c.Mix.Transfers:
		id := c.nextTransfer.Add(1)
		from := 1 + rng.IntN(c.Sizes.Accounts)
		to := 1 + (from+rng.IntN(c.Sizes.Accounts-1))%c.Sizes.Accounts
		row := TransferRow{From: from, To: to, Amount: 1 + rng.Int64N(100)}
		retries, err := Transfer(ctx, c.DB, id, row.From, row.To, row.Amount)
		r := c.outcome(err, retries)
		if c.Ledger != nil {
			switch r.Outcome {
			case Committed:
				c.Ledger.TransferCommitted(id, row)
			case Indeterminate:
				c.Ledger.TransferUnknown(id, row)
			case Failed:
				c.Ledger.Failed(TransferKey(id), err)
			}
		}
		return "transfer", r
	default:
		retries, err := InsertScratch(ctx, c.DB, c.nextScratch.Add(1), client)
		return "scratch", c.outcome(err, retries)
	}
}

func (c *Clients) outcome(err error, retries Retries) result {
	outcome, _ := Classify(err)
	return result{Outcome: outcome, Err: err, Retries: retries}
}

// Stats counts outcomes and retries and keeps latencies per window.
type Stats struct {
	mu            sync.Mutex
	Committed     map[string]int
	Retried       map[int32]int
	Indeterminate int
	GaveUp        int // retryable errors still failing after MaxRetries retries
	Unexpected    int
	FirstErrors   []string // the first few unexpected errors
	Latency       *Latencies
}

// NewStats keeps latencies in windows of the given width from now.
func NewStats(window time.Duration) *Stats {
	return &Stats{Committed: map[string]int{}, Retried: map[int32]int{}, Latency: NewLatencies(window)}
}

func (s *Stats) record(kind string, r result, took time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for number, n := range r.Retries {
		s.Retried[number] += n
	}
	switch r.Outcome {
	case Committed:
		s.Committed[kind]++
		s.Latency.add(took)
	case Indeterminate:
		s.Indeterminate++
	case Failed:
		if _, number := Classify(r.Err); Retryable(number) {
			s.GaveUp++
			return
		}
		s.Unexpected++
		if len(s.FirstErrors) < 10 {
			s.FirstErrors = append(s.FirstErrors, fmt.Sprintf("%s: %v", kind, r.Err))
		}
	}
}

// Counts is a copy of a Stats' counts.
type Counts struct {
	Committed                         map[string]int
	Retried                           map[int32]int
	Indeterminate, GaveUp, Unexpected int
	FirstErrors                       []string
}

// Snapshot returns copies of the counts (safe while clients run).
func (s *Stats) Snapshot() Counts {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := Counts{Committed: map[string]int{}, Retried: map[int32]int{}, Indeterminate: s.Indeterminate,
		GaveUp: s.GaveUp, Unexpected: s.Unexpected, FirstErrors: append([]string(nil), s.FirstErrors...)}
	for k, v := range s.Committed {
		c.Committed[k] = v
	}
	for k, v := range s.Retried {
		c.Retried[k] = v
	}
	return c
}

// FormatCounts prints counts by name in name order ("order 5, scratch 2").
func FormatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// FormatRetries prints retried errors by number ("Msg 41302 12"), or "none".
func FormatRetries(m map[int32]int) string {
	if len(m) == 0 {
		return "none"
	}
	byName := map[string]int{}
	for number, n := range m {
		byName[fmt.Sprintf("Msg %d", number)] = n
	}
	return FormatCounts(byName)
}
