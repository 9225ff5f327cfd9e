package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"sync"
	"time"

	mssql "github.com/microsoft/go-mssqldb"

	"hekla/reliability/elle"
)

// workload is one history's run: a model at an isolation level, on its own
// table, with a few keys active at once so that transactions conflict.
type workload struct {
	model      elle.Model
	level      elle.Level // the level checked
	hint       elle.Level // the level the table hints ask for: level, but for the self-test
	table      string
	keys       int // keys active at once
	rows       int // rows created: the key space
	maxPerKey  int // list-append: appends to a key before a fresh key replaces it
	mopsPerTxn int
	native     bool // each transaction is one call of a natively compiled procedure
	db         *sql.DB

	mu       sync.Mutex
	history  elle.History
	active   []int       // the keys transactions pick from
	nextKey  int         // the next key never active
	written  map[int]int // values written to each key so far (values are 1, 2, ...)
	touched  map[int]bool
	exhausts bool           // every key was used: generation stops
	reasons  map[string]int // why transactions did not commit: "Msg 41302", "connection lost", ...
}

// tableHint is the table hint that reads (and UPDATE targets) at the level.
func tableHint(level elle.Level) string {
	if level == elle.RepeatableRead {
		return "REPEATABLEREAD"
	}
	return string(level)
}

// setup creates the workload's memory-optimized, durable table and its
// rows: an empty list (list-append) or NULL (register) per key.
func (w *workload) setup(ctx context.Context) error {
	column := "v NVARCHAR(4000) NOT NULL"
	initial := "N''"
	if w.model == elle.Register {
		column, initial = "v INT NULL", "NULL"
	}
	batch := fmt.Sprintf(`
IF OBJECT_ID(N'%[1]s') IS NOT NULL DROP TABLE %[1]s;
CREATE TABLE %[1]s (
    k INT NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = %[2]d),
    %[3]s
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
DECLARE @k INT = 0;
WHILE @k < %[2]d
BEGIN
    INSERT INTO %[1]s (k, v) VALUES (@k, %[4]s);
    SET @k = @k + 1;
END;`, w.table, w.rows, column, initial)
	if w.native {
		batch = fmt.Sprintf("IF OBJECT_ID(N'%[1]s_txn') IS NOT NULL DROP PROCEDURE %[1]s_txn;\n", w.table) + batch
	}
	if _, err := w.db.ExecContext(ctx, batch); err != nil {
		return fmt.Errorf("creating %s: %w", w.table, err)
	}
	if w.native {
		if _, err := w.db.ExecContext(ctx, w.procedure()); err != nil {
			return fmt.Errorf("creating %s_txn: %w", w.table, err)
		}
	}
	w.written = map[int]int{}
	w.touched = map[int]bool{}
	w.reasons = map[string]int{}
	for w.nextKey = 0; w.nextKey < w.keys; w.nextKey++ {
		w.active = append(w.active, w.nextKey)
	}
	return nil
}

// plan draws a random transaction: 1..mopsPerTxn micro-operations, reads
// and writes equally likely, on the active keys; written values are unique
// per key. ok is false once the key space is used up.
func (w *workload) plan(rng *rand.Rand) (mops []elle.Mop, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.exhausts {
		return nil, false
	}
	for n := 1 + rng.Intn(w.mopsPerTxn); n > 0; n-- {
		slot := rng.Intn(len(w.active))
		k := w.active[slot]
		w.touched[k] = true
		if rng.Intn(2) == 0 {
			mops = append(mops, elle.ReadOp(k))
			continue
		}
		w.written[k]++
		v := w.written[k]
		if w.model == elle.ListAppend {
			mops = append(mops, elle.AppendOp(k, v))
		} else {
			mops = append(mops, elle.WriteOp(k, v))
		}
		if w.model == elle.ListAppend && v >= w.maxPerKey {
			// Retire the key before its list outgrows the column.
			if w.nextKey == w.rows {
				w.exhausts = true
			} else {
				w.active[slot] = w.nextKey
				w.nextKey++
			}
		}
	}
	return mops, true
}

func (w *workload) record(op elle.Op) {
	w.mu.Lock()
	w.history = append(w.history, op)
	w.mu.Unlock()
}

// recordEnd records a completion, with why it did not commit if it did not.
func (w *workload) recordEnd(op elle.Op, why string) {
	w.mu.Lock()
	w.history = append(w.history, op)
	if why != "" {
		w.reasons[why]++
	}
	w.mu.Unlock()
}

// abortNumbers are the errors hekla (as SQL Server) rolls a transaction back
// with for a conflict or a failed validation: the transaction did not commit.
var abortNumbers = map[int32]bool{
	41301: true, // a commit dependency failed
	41302: true, // update conflict
	41305: true, // repeatable read validation
	41325: true, // serializable validation (phantom)
	41839: true, // too many commit dependencies
}

func isAbort(err error) bool {
	var sqlErr mssql.Error
	return errors.As(err, &sqlErr) && abortNumbers[sqlErr.Number]
}

// reason names why a transaction did not commit: the abort's error number,
// or what happened to the connection.
func reason(err error) string {
	var sqlErr mssql.Error
	if errors.As(err, &sqlErr) {
		return fmt.Sprintf("Msg %d", sqlErr.Number)
	}
	return "connection lost"
}

// isServerError is an error the server sent (not a lost connection).
func isServerError(err error) bool {
	var sqlErr mssql.Error
	return errors.As(err, &sqlErr)
}

// errUnexpected ends the run: the server answered with an error the
// workload does not expect, which is a bug in hekla or here.
type errUnexpected struct{ err error }

func (e errUnexpected) Error() string {
	var sqlErr mssql.Error
	if errors.As(e.err, &sqlErr) && len(sqlErr.All) > 1 {
		var all []string
		for _, each := range sqlErr.All {
			all = append(all, fmt.Sprintf("Msg %d: %s", each.Number, each.Message))
		}
		return fmt.Sprintf("unexpected server error: %v (the server sent: %s)", e.err, strings.Join(all, "; "))
	}
	return "unexpected server error: " + e.err.Error()
}

// client runs transactions until ctx ends, as process after process: after
// an :info outcome the transaction may still be in flight, so the client
// goes on as a new process, as Elle requires.
func (w *workload) client(ctx context.Context, rng *rand.Rand, nextProcess func() int) error {
	process := nextProcess()
	for ctx.Err() == nil {
		mops, ok := w.plan(rng)
		if !ok {
			return nil
		}
		outcome, why, done, err := w.transaction(ctx, process, mops)
		if err != nil {
			return err
		}
		if !done {
			continue
		}
		w.recordEnd(outcome, why)
		if outcome.Type == elle.Info {
			process = nextProcess()
		}
	}
	return nil
}

// transaction runs one transaction. done is false when it never started
// (no connection: the server is down); the invocation is recorded only once
// the transaction has begun.
func (w *workload) transaction(ctx context.Context, process int, mops []elle.Mop) (outcome elle.Op, why string, done bool, err error) {
	if w.native {
		return w.nativeTransaction(ctx, process, mops)
	}
	return w.explicitTransaction(ctx, process, mops)
}

// explicitTransaction runs one transaction as BEGIN TRANSACTION, a statement
// per micro-operation with the level's table hint, and COMMIT.
func (w *workload) explicitTransaction(ctx context.Context, process int, mops []elle.Mop) (outcome elle.Op, why string, done bool, err error) {
	txCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tx, err := w.db.BeginTx(txCtx, nil)
	if err != nil {
		return elle.Op{}, "", false, waitForServer(ctx, err)
	}
	w.record(elle.Op{Process: process, Type: elle.Invoke, Txn: mops})
	completed := make([]elle.Mop, len(mops))
	for i, m := range mops {
		completed[i], err = w.run(txCtx, tx, m)
		if err != nil {
			_ = tx.Rollback() // the transaction is over either way
			var unexpected errUnexpected
			if errors.As(err, &unexpected) || (isServerError(err) && !isAbort(err)) {
				return elle.Op{}, "", true, errUnexpected{err}
			}
			// An abort, or the connection was lost before COMMIT was
			// sent: the server rolls back what it never saw committed.
			return elle.Op{Process: process, Type: elle.Fail, Txn: mops}, reason(err), true, nil
		}
	}
	err = tx.Commit()
	switch {
	case err == nil:
		return elle.Op{Process: process, Type: elle.OK, Txn: completed}, "", true, nil
	case isAbort(err):
		return elle.Op{Process: process, Type: elle.Fail, Txn: mops}, reason(err), true, nil
	case isServerError(err):
		return elle.Op{}, "", true, errUnexpected{fmt.Errorf("COMMIT of process %d's %v: %w", process, completed, err)}
	}
	// COMMIT was sent and no answer came: it may or may not have committed.
	return elle.Op{Process: process, Type: elle.Info, Txn: mops}, "commit unanswered", true, nil
}

// waitForServer handles a transaction that could not start: an error the
// server sent ends the run; otherwise the server is down or restarting, and
// the client waits a little, unless the run is over.
func waitForServer(ctx context.Context, err error) error {
	if isServerError(err) && !isAbort(err) {
		return errUnexpected{err}
	}
	select {
	case <-ctx.Done():
	case <-time.After(50 * time.Millisecond):
	}
	return nil
}

// run executes one micro-operation and returns it completed.
func (w *workload) run(ctx context.Context, tx *sql.Tx, m elle.Mop) (elle.Mop, error) {
	h := tableHint(w.hint)
	switch m.Kind {
	case elle.Append:
		return m, w.update(ctx, tx, fmt.Sprintf("UPDATE %s WITH (%s) SET v = v + @p1 WHERE k = @p2", w.table, h),
			" "+strconv.Itoa(m.Value), m.Key)
	case elle.Write:
		return m, w.update(ctx, tx, fmt.Sprintf("UPDATE %s WITH (%s) SET v = @p1 WHERE k = @p2", w.table, h),
			m.Value, m.Key)
	}
	rows, err := tx.QueryContext(ctx, fmt.Sprintf("SELECT v FROM %s WITH (%s) WHERE k = @p1", w.table, h), m.Key)
	if err != nil {
		return m, err
	}
	defer rows.Close()
	return w.readRows(rows, m.Key)
}

// readRows reads the one row of a key lookup's result set, then checks for
// an error after it: the server may send the row and then fail the
// statement (41301: a commit dependency of the transaction aborted, which
// rolls it back). database/sql's QueryRow would drop that error (go-mssqldb
// v1.9.6 discards it when it closes the rows after the first).
func (w *workload) readRows(rows *sql.Rows, key int) (elle.Mop, error) {
	var text string
	var value sql.NullInt64
	dest := any(&value)
	if w.model == elle.ListAppend {
		dest = &text
	}
	found := 0
	for rows.Next() {
		found++
		if err := rows.Scan(dest); err != nil {
			return elle.Mop{}, err
		}
	}
	if err := rows.Err(); err != nil {
		return elle.Mop{}, err
	}
	if found != 1 {
		return elle.Mop{}, errUnexpected{fmt.Errorf("key %d: the lookup returned %d rows, want 1", key, found)}
	}
	switch {
	case w.model == elle.ListAppend:
		list, err := parseList(text)
		if err != nil {
			return elle.Mop{}, errUnexpected{fmt.Errorf("key %d: %w", key, err)}
		}
		return elle.ReadList(key, list...), nil
	case value.Valid:
		return elle.ReadReg(key, int(value.Int64)), nil
	}
	return elle.ReadNil(key), nil
}

func (w *workload) update(ctx context.Context, tx *sql.Tx, statement string, args ...any) error {
	result, err := tx.ExecContext(ctx, statement, args...)
	if err != nil {
		return err
	}
	if n, err := result.RowsAffected(); err == nil && n != 1 {
		return errUnexpected{fmt.Errorf("%q updated %d rows, want 1", statement, n)}
	}
	return nil
}

// parseList reads a list column: the appended values, each after a space.
func parseList(text string) ([]int, error) {
	fields := strings.Fields(text)
	list := make([]int, len(fields))
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("list %q: %w", text, err)
		}
		list[i] = v
	}
	return list, nil
}

// finalRead reads every key the run touched in one transaction once the
// clients have stopped, as Elle's final reads do: it orders the last writes,
// including those of :info transactions, that no client read.
func (w *workload) finalRead(ctx context.Context, nextProcess func() int) error {
	var keys []int
	for k := range w.touched {
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil
	}
	mops := make([]elle.Mop, len(keys))
	for i, k := range keys {
		mops[i] = elle.ReadOp(k)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		outcome, why, done, err := w.explicitTransaction(ctx, nextProcess(), mops)
		if err != nil {
			return err
		}
		if done {
			w.recordEnd(outcome, why)
			if outcome.Type == elle.OK {
				return nil
			}
		}
	}
	return fmt.Errorf("the final read did not commit within 30 s")
}
