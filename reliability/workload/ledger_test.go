package workload

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	mssql "github.com/microsoft/go-mssqldb"
)

var testSizes = Sizes{Accounts: 3, InitialBalance: 100, Counters: 2}

// cleanState is a database holding exactly what ledger l was told of.
func cleanState() *State {
	return &State{
		Orders:          map[int32]Order{},
		Counters:        map[int]int64{1: 0, 2: 0},
		Transfers:       map[int64]TransferRow{},
		Balances:        map[int]int64{1: 100, 2: 100, 3: 100},
		ScratchSchemaOK: true,
	}
}

func expect(t *testing.T, r *Report, losses, violations int, mention string) {
	t.Helper()
	all := strings.Join(append(append([]string{}, r.Losses...), r.Violations...), "\n")
	if len(r.Losses) != losses || len(r.Violations) != violations {
		t.Fatalf("want %d losses and %d violations, got %d and %d:\n%s", losses, violations, len(r.Losses), len(r.Violations), all)
	}
	if mention != "" && !strings.Contains(all, mention) {
		t.Fatalf("report does not mention %q:\n%s", mention, all)
	}
}

func TestLedgerAcceptsWhatWasAcknowledged(t *testing.T) {
	l := NewLedger(testSizes, false)
	l.OrderCommitted(1, OrderComment(1, 1, 2))
	l.OrderUnknown(OrderComment(2, 1, 3)) // in doubt, and it did commit
	l.CounterCommitted(1, 1)
	l.CounterUnknown(1) // in doubt, and it did not commit
	l.TransferCommitted(7, TransferRow{1, 2, 30})
	s := cleanState()
	s.Orders[1] = Order{OrderComment(1, 1, 2), 2}
	s.Orders[2] = Order{OrderComment(2, 1, 3), 3}
	s.Counters[1] = 1
	s.Transfers[7] = TransferRow{1, 2, 30}
	s.Balances[1], s.Balances[2] = 70, 130
	r := l.CheckState(s)
	expect(t, r, 0, 0, "")
	if r.Checked != 3 || r.Promised != 3 || r.Indeterminate != 2 {
		t.Fatalf("checked %d promised %d indeterminate %d", r.Checked, r.Promised, r.Indeterminate)
	}
	// The next cycle starts from that state: the same state passes again,
	// and the baseline is checked again.
	expect(t, l.CheckState(s), 0, 0, "")
	delete(s.Orders, 1)
	expect(t, l.CheckState(s), 1, 0, "order 1")
}

func TestLedgerFindsLossesAndViolations(t *testing.T) {
	cases := []struct {
		name               string
		record             func(*Ledger)
		mutate             func(*State)
		losses, violations int
		mention            string
	}{
		{"acknowledged order missing", func(l *Ledger) { l.OrderCommitted(5, OrderComment(1, 9, 1)) }, func(*State) {}, 1, 0, "order 5"},
		{"partial order", func(l *Ledger) { l.OrderCommitted(5, OrderComment(1, 9, 3)) },
			func(s *State) { s.Orders[5] = Order{OrderComment(1, 9, 3), 2} }, 0, 1, "partial order 5"},
		{"orphan details", func(*Ledger) {}, func(s *State) { s.OrphanDetails = []int32{8} }, 0, 1, "order 8 without its header"},
		{"failed order present", func(l *Ledger) { l.Failed(OrderKey(OrderComment(1, 2, 1)), errors.New("Msg 41302")) },
			func(s *State) { s.Orders[3] = Order{OrderComment(1, 2, 1), 1} }, 0, 1, "told it failed: Msg 41302"},
		{"counter below acknowledged", func(l *Ledger) { l.CounterCommitted(2, 1); l.CounterCommitted(2, 2) },
			func(s *State) { s.Counters[2] = 1 }, 1, 0, "counter 2 is at version 1"},
		{"counter above attempts", func(l *Ledger) { l.CounterCommitted(2, 1) },
			func(s *State) { s.Counters[2] = 2 }, 0, 1, "above"},
		{"lost update", func(l *Ledger) { l.CounterCommitted(2, 1); l.CounterCommitted(2, 1) },
			func(s *State) { s.Counters[2] = 2 }, 0, 1, "lost update"},
		{"transfer missing", func(l *Ledger) { l.TransferCommitted(4, TransferRow{1, 3, 5}) }, func(*State) {}, 1, 0, "transfer 4"},
		{"partial transfer", func(l *Ledger) { l.TransferCommitted(4, TransferRow{1, 3, 5}) },
			func(s *State) { s.Transfers[4] = TransferRow{1, 3, 5}; s.Balances[1] = 95 }, 0, 2, "partial transfer"},
		{"scratch rows kept", func(*Ledger) {}, func(s *State) { s.ScratchRows = 4 }, 0, 1, "SCHEMA_ONLY"},
		{"scratch table gone", func(*Ledger) {}, func(s *State) { s.ScratchSchemaOK = false }, 0, 1, "missing from sys.tables"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := NewLedger(testSizes, false)
			c.record(l)
			s := cleanState()
			c.mutate(s)
			expect(t, l.CheckState(s), c.losses, c.violations, c.mention)
		})
	}
}

func TestDelayedDurabilityPromisesOnlyFlushedCommits(t *testing.T) {
	l := NewLedger(testSizes, true)
	l.TransferCommitted(1, TransferRow{1, 2, 10})
	mark := l.FlushStarting()
	l.TransferCommitted(2, TransferRow{2, 3, 10}) // acknowledged while the flush runs: not covered
	l.Flushed(mark)
	l.CounterCommitted(1, 1)
	s := cleanState()
	s.Transfers[1] = TransferRow{1, 2, 10}
	s.Balances[1], s.Balances[2] = 90, 110
	r := l.CheckState(s) // transfer 2 and the counter update were lost: allowed
	expect(t, r, 0, 0, "")
	if r.Promised != 1 || r.UnpromisedLost != 1 {
		t.Fatalf("promised %d, unpromised lost %d", r.Promised, r.UnpromisedLost)
	}
	l.TransferCommitted(3, TransferRow{1, 3, 1})
	l.Flushed(l.FlushStarting())
	expect(t, l.CheckState(s), 1, 0, "transfer 3")
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		err     error
		outcome Outcome
		number  int32
	}{
		{nil, Committed, 0},
		{mssql.Error{Number: 41302}, Failed, 41302},
		{fmt.Errorf("wrapped: %w", mssql.Error{Number: 2627}), Failed, 2627},
		{mssql.ServerError{}, Indeterminate, 0},
		{errors.New("read tcp: connection reset by peer"), Indeterminate, 0},
	} {
		if outcome, number := Classify(c.err); outcome != c.outcome || number != c.number {
			t.Errorf("Classify(%v) = %v, %d; want %v, %d", c.err, outcome, number, c.outcome, c.number)
		}
	}
}

func TestOrderCommentRoundTrip(t *testing.T) {
	if got := ParseOrderLines(OrderComment(12, 345, 4)); got != 4 {
		t.Fatalf("lines %d", got)
	}
	if got := ParseOrderLines("hand-written"); got != -1 {
		t.Fatalf("lines of a foreign comment %d", got)
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	if p := Percentile(ds, 50); p != 50*time.Millisecond {
		t.Errorf("p50 %v", p)
	}
	if p := Percentile(ds, 99); p != 99*time.Millisecond {
		t.Errorf("p99 %v", p)
	}
	if p := Percentile(ds[:1], 99); p != 100*time.Millisecond {
		t.Errorf("p99 of one %v", p)
	}
	if p := Percentile(nil, 99); p != 0 {
		t.Errorf("p99 of none %v", p)
	}
}
