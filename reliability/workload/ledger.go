package workload

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"sync"
)

// Ledger records what clients were told, and checks it against the
// database after a restart. Under DELAYED_DURABILITY an acknowledged commit
// is only promised once an sp_flush_log that started after it returned
// (Flushed); with full durability every acknowledgement is a promise.
//
// Between checks, the ledger holds this cycle's acknowledgements and
// indeterminate attempts; a check compares them with the database, and
// what the database then holds becomes the baseline of the next cycle,
// checked again at every later restart (a durable commit must stay).
type Ledger struct {
	delayed bool
	sizes   Sizes

	mu          sync.Mutex
	seq         uint64 // orders acknowledgements against flushes
	flushedUpTo uint64 // acknowledgements with seq <= this are promised

	orderAcks       []orderAck
	orderUnknown    map[string]bool // comments of attempts without an answer
	counterAcks     map[int][]versionAck
	counterUnknown  map[int]int
	transferAcks    map[int64]transferAck
	transferUnknown map[int64]TransferRow
	failures        map[string]string // "order <comment>" / "transfer <id>" -> the error a client was told

	// The baseline: what the last check found (and accepted).
	orders    map[int32]string // SalesOrderID -> Comment
	counters  map[int]int64
	transfers map[int64]TransferRow
}

type orderAck struct {
	id      int32
	comment string
	seq     uint64
}

type versionAck struct {
	version int64
	seq     uint64
}

type transferAck struct {
	row TransferRow
	seq uint64
}

// TransferRow is one row of dbo.Transfer.
type TransferRow struct {
	From, To int
	Amount   int64
}

// NewLedger starts with the freshly set-up database's state.
func NewLedger(sizes Sizes, delayed bool) *Ledger {
	l := &Ledger{delayed: delayed, sizes: sizes, orders: map[int32]string{}, counters: map[int]int64{}, transfers: map[int64]TransferRow{}}
	for c := 1; c <= sizes.Counters; c++ {
		l.counters[c] = 0
	}
	l.resetCycle()
	return l
}

func (l *Ledger) resetCycle() {
	l.orderAcks = nil
	l.orderUnknown = map[string]bool{}
	l.counterAcks = map[int][]versionAck{}
	l.counterUnknown = map[int]int{}
	l.transferAcks = map[int64]transferAck{}
	l.transferUnknown = map[int64]TransferRow{}
	l.failures = map[string]string{}
}

// Failed records the error an order (by comment) or a transfer (by id)
// definitively failed with: a failed commit must not appear, and if it
// does the violation names the error.
func (l *Ledger) Failed(what string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failures[what] = err.Error()
}

// OrderKey and TransferKey name an operation for Failed.
func OrderKey(comment string) string { return "order " + comment }
func TransferKey(id int64) string    { return fmt.Sprintf("transfer %d", id) }

func (l *Ledger) toldFailed(what string) string {
	if err, ok := l.failures[what]; ok {
		return fmt.Sprintf("; its client was told it failed: %s", err)
	}
	return "; no client attempt with this tag is recorded"
}

func (l *Ledger) next() uint64 { l.seq++; return l.seq }

// OrderCommitted records an acknowledged order.
func (l *Ledger) OrderCommitted(id int32, comment string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.orderAcks = append(l.orderAcks, orderAck{id, comment, l.next()})
}

// OrderUnknown records an order attempt whose outcome is unknown.
func (l *Ledger) OrderUnknown(comment string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.orderUnknown[comment] = true
}

// CounterCommitted records an acknowledged counter update and the version it wrote.
func (l *Ledger) CounterCommitted(counter int, version int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.counterAcks[counter] = append(l.counterAcks[counter], versionAck{version, l.next()})
}

// CounterUnknown records a counter update whose outcome is unknown.
func (l *Ledger) CounterUnknown(counter int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.counterUnknown[counter]++
}

// TransferCommitted records an acknowledged transfer.
func (l *Ledger) TransferCommitted(id int64, row TransferRow) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.transferAcks[id] = transferAck{row, l.next()}
}

// TransferUnknown records a transfer whose outcome is unknown.
func (l *Ledger) TransferUnknown(id int64, row TransferRow) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.transferUnknown[id] = row
}

// FlushStarting is called just before sp_flush_log; pass its result to
// Flushed once the call returned successfully.
func (l *Ledger) FlushStarting() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

// Flushed promises every acknowledgement up to mark (from FlushStarting).
func (l *Ledger) Flushed(mark uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flushedUpTo = max(l.flushedUpTo, mark)
}

func (l *Ledger) promised(seq uint64) bool { return !l.delayed || seq <= l.flushedUpTo }

// Report is one check's result.
type Report struct {
	Checked         int      // acknowledged commits compared (this cycle's and the baseline's)
	Promised        int      // of this cycle's acknowledgements, those promised
	UnpromisedLost  int      // delayed commits not yet flushed and absent (allowed)
	Indeterminate   int      // attempts without an answer this cycle
	Losses          []string // promised commits missing or changed
	Violations      []string // partial transactions, phantoms, broken invariants
	OrdersInDB      int
	TransfersInDB   int
	ScratchRows     int
	ScratchSchemaOK bool
}

// Failed reports whether the check found a loss or a broken invariant.
func (r *Report) Failed() bool { return len(r.Losses) > 0 || len(r.Violations) > 0 }

func (r *Report) loss(format string, args ...any) {
	r.Losses = append(r.Losses, fmt.Sprintf(format, args...))
}
func (r *Report) violation(format string, args ...any) {
	r.Violations = append(r.Violations, fmt.Sprintf(format, args...))
}

// Check reads the database (with no client running) and compares it with
// the ledger, then makes what it found the next cycle's baseline.
func (l *Ledger) Check(ctx context.Context, db *sql.DB) (*Report, error) {
	state, err := ReadState(ctx, db)
	if err != nil {
		return nil, err
	}
	return l.CheckState(state), nil
}

// CheckState is Check on a state already read.
func (l *Ledger) CheckState(state *State) *Report {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := &Report{OrdersInDB: len(state.Orders), TransfersInDB: len(state.Transfers), ScratchRows: state.ScratchRows, ScratchSchemaOK: state.ScratchSchemaOK}
	l.checkOrders(state, r)
	l.checkCounters(state, r)
	l.checkTransfers(state, r)
	if state.ScratchRows != 0 {
		r.violation("SCHEMA_ONLY dbo.Scratch has %d rows after restart", state.ScratchRows)
	}
	if !state.ScratchSchemaOK {
		r.violation("SCHEMA_ONLY dbo.Scratch is missing from sys.tables after restart, or not SCHEMA_ONLY")
	}
	for _, list := range l.counterAcks {
		r.Checked += len(list)
	}
	r.Checked += len(l.orderAcks) + len(l.transferAcks) + len(l.orders) + len(l.transfers)
	r.Indeterminate = len(l.orderUnknown) + len(l.transferUnknown)
	for _, n := range l.counterUnknown {
		r.Indeterminate += n
	}

	l.orders = map[int32]string{}
	for id, o := range state.Orders {
		l.orders[id] = o.Comment
	}
	l.counters = state.Counters
	l.transfers = state.Transfers
	l.resetCycle()
	return r
}

func (l *Ledger) checkOrders(state *State, r *Report) {
	known := map[string]bool{}
	for _, c := range l.orders {
		known[c] = true
	}
	for c := range l.orderUnknown {
		known[c] = true
	}
	for id, comment := range l.orders {
		if got, ok := state.Orders[id]; !ok || got.Comment != comment {
			r.loss("order %d (%q), present at the last check, is now %v", id, comment, describeOrder(got, ok))
		}
	}
	for _, a := range l.orderAcks {
		known[a.comment] = true
		got, ok := state.Orders[a.id]
		if ok && got.Comment == a.comment {
			if l.promised(a.seq) {
				r.Promised++
			}
			continue
		}
		if l.promised(a.seq) {
			r.Promised++
			r.loss("acknowledged order %d (%q) is %v", a.id, a.comment, describeOrder(got, ok))
		} else {
			r.UnpromisedLost++
		}
	}
	for id, o := range state.Orders {
		if want := ParseOrderLines(o.Comment); want != o.Lines {
			r.violation("partial order %d (%q): %d detail rows", id, o.Comment, o.Lines)
		}
		if !known[o.Comment] {
			r.violation("order %d (%q) was never acknowledged nor left in doubt (a failed or phantom commit)%s", id, o.Comment, l.toldFailed(OrderKey(o.Comment)))
		}
	}
	for _, id := range state.OrphanDetails {
		r.violation("detail rows of order %d without its header (a partial transaction)", id)
	}
}

func describeOrder(o Order, ok bool) string {
	if !ok {
		return "missing"
	}
	return fmt.Sprintf("%q", o.Comment)
}

func (l *Ledger) checkCounters(state *State, r *Report) {
	for c, base := range l.counters {
		got, ok := state.Counters[c]
		if !ok {
			r.loss("counter %d is missing", c)
			continue
		}
		acks := l.counterAcks[c]
		sort.Slice(acks, func(i, j int) bool { return acks[i].version < acks[j].version })
		lowest := base
		for i, a := range acks {
			if i > 0 && acks[i-1].version == a.version {
				r.violation("counter %d: two updates were both told they wrote version %d (a lost update)", c, a.version)
			}
			if l.promised(a.seq) {
				r.Promised++
				lowest = max(lowest, a.version)
			}
		}
		highest := base + int64(len(acks)+l.counterUnknown[c])
		switch {
		case got < lowest:
			r.loss("counter %d is at version %d, below the acknowledged version %d", c, got, lowest)
		case got > highest:
			r.violation("counter %d is at version %d, above the %d it had plus every update attempted (%d)", c, got, base, highest)
		}
	}
}

func (l *Ledger) checkTransfers(state *State, r *Report) {
	for id, row := range l.transfers {
		if got, ok := state.Transfers[id]; !ok || got != row {
			r.loss("transfer %d, present at the last check, is missing or changed", id)
		}
	}
	for id, a := range l.transferAcks {
		got, ok := state.Transfers[id]
		if l.promised(a.seq) {
			r.Promised++
			if !ok || got != a.row {
				r.loss("acknowledged transfer %d %+v is missing or changed", id, a.row)
			}
		} else if !ok {
			r.UnpromisedLost++
		}
	}
	balances := map[int]int64{}
	for a := 1; a <= l.sizes.Accounts; a++ {
		balances[a] = l.sizes.InitialBalance
	}
	for id, row := range state.Transfers {
		_, old := l.transfers[id]
		_, acked := l.transferAcks[id]
		_, unknown := l.transferUnknown[id]
		if !old && !acked && !unknown {
			r.violation("transfer %d %+v was never acknowledged nor left in doubt (a failed or phantom commit)%s", id, row, l.toldFailed(TransferKey(id)))
		}
		balances[row.From] -= row.Amount
		balances[row.To] += row.Amount
	}
	var total int64
	for a, balance := range state.Balances {
		total += balance
		if balance != balances[a] {
			r.violation("account %d holds %d, its logged transfers say %d (a partial transfer)", a, balance, balances[a])
		}
	}
	if want := int64(l.sizes.Accounts) * l.sizes.InitialBalance; total != want || len(state.Balances) != l.sizes.Accounts {
		r.violation("the bank holds %d in %d accounts, want %d in %d", total, len(state.Balances), want, l.sizes.Accounts)
	}
}
