package workload

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	mssql "github.com/microsoft/go-mssqldb"
)

// Outcome is what a client may conclude from an operation's error.
type Outcome int

const (
	// Committed: the server acknowledged the commit.
	Committed Outcome = iota
	// Failed: the server answered with an error; nothing was committed.
	Failed
	// Indeterminate: no answer (the connection broke, the server died):
	// the commit may or may not have happened.
	Indeterminate
)

// retryable are the errors In-Memory OLTP expects a client to retry:
// 41302 write conflict, 41305 repeatable-read and 41325 serializable
// validation failures (and 41301, a failed commit dependency).
var retryable = map[int32]bool{41301: true, 41302: true, 41305: true, 41325: true}

// Classify maps an operation's error to its outcome and, for a server
// error, its number.
func Classify(err error) (Outcome, int32) {
	if err == nil {
		return Committed, 0
	}
	// A ServerError wraps an mssql.Error but means the connection is gone
	// (a fatal server error, or the driver's own "did not get cancellation
	// confirmation" when a cancelled request's server has died): whatever
	// the request did is unknown.
	var severed mssql.ServerError
	if errors.As(err, &severed) {
		return Indeterminate, 0
	}
	var sqlErr mssql.Error
	if errors.As(err, &sqlErr) {
		return Failed, sqlErr.Number
	}
	return Indeterminate, 0
}

// Retryable reports whether a server error is one a client retries.
func Retryable(number int32) bool { return retryable[number] }

// MaxRetries bounds the retries of one operation.
const MaxRetries = 50

// Retries counts the retried errors by number.
type Retries map[int32]int

// withRetry runs op until it commits, fails with an error that is not
// retryable, or loses the connection; it returns the last error and the
// retried errors.
func withRetry(ctx context.Context, op func() error) (Retries, error) {
	var retries Retries
	for attempt := 0; ; attempt++ {
		err := op()
		outcome, number := Classify(err)
		if outcome != Failed || !retryable[number] || attempt == MaxRetries {
			return retries, err
		}
		if retries == nil {
			retries = Retries{}
		}
		retries[number]++
		select {
		case <-ctx.Done():
			return retries, err
		case <-time.After(backoff(attempt)):
		}
	}
}

// backoff is a random wait below an exponentially growing cap (1 ms, 2 ms,
// ... 64 ms): a hot row's losers spread out instead of colliding again.
func backoff(attempt int) time.Duration {
	limit := time.Millisecond << min(attempt, 6)
	return time.Duration(rand.Int64N(int64(limit)))
}

// OrderLine is one row of the procedure's TVP.
type OrderLine struct {
	OrderQty       int16 `tvp:"OrderQty"`
	ProductID      int32 `tvp:"ProductID"`
	SpecialOfferID int32 `tvp:"SpecialOfferID"`
}

// OrderComment tags an order with its client's attempt and its line count,
// so that a check can find the attempt and see the order is whole.
func OrderComment(client int, seq int64, lines int) string {
	return fmt.Sprintf("c%d-%d lines=%d", client, seq, lines)
}

// ParseOrderLines is the line count OrderComment wrote, or -1.
func ParseOrderLines(comment string) int {
	var client, lines int
	var seq int64
	if n, err := fmt.Sscanf(comment, "c%d-%d lines=%d", &client, &seq, &lines); n != 3 || err != nil {
		return -1
	}
	return lines
}

// InsertOrder calls Sales.usp_InsertSalesOrder_inmem with 1..5 random lines
// and returns the new SalesOrderID from its OUTPUT parameter.
func InsertOrder(ctx context.Context, db *sql.DB, rng *rand.Rand, comment string, lines int) (int32, Retries, error) {
	details := make([]OrderLine, lines)
	for i := range details {
		// Distinct products: the TVP type's index is on ProductID, which
		// the sample keeps unique per order.
		details[i] = OrderLine{OrderQty: int16(1 + rng.IntN(5)), ProductID: int32(i + 1), SpecialOfferID: int32(1 + rng.IntN(2))}
	}
	var id int32
	retries, err := withRetry(ctx, func() error {
		_, err := db.ExecContext(ctx, "Sales.usp_InsertSalesOrder_inmem",
			sql.Named("SalesOrderID", sql.Out{Dest: &id}),
			sql.Named("DueDate", time.Now().Add(7*24*time.Hour)),
			sql.Named("CustomerID", int32(1+rng.IntN(1000))),
			sql.Named("ShipMethodID", int32(1)),
			sql.Named("SalesOrderDetails", mssql.TVP{TypeName: "Sales.SalesOrderDetailType_inmem", Value: details}),
			sql.Named("Comment", comment))
		return err
	})
	return id, retries, err
}

// BumpCounter adds 1 to a counter row in a single-statement transaction and
// returns the version it wrote.
func BumpCounter(ctx context.Context, db *sql.DB, counter int) (int64, Retries, error) {
	var version int64
	retries, err := withRetry(ctx, func() error {
		rows, err := db.QueryContext(ctx,
			"UPDATE dbo.Counter SET Version = Version + 1 OUTPUT inserted.Version WHERE CounterID = @p1",
			counter)
		if err != nil {
			return err
		}
		return readOneInt(rows, &version)
	})
	return version, retries, err
}

// readOneInt reads a one-row, one-column reply to its end. The statement's
// commit may fail after its OUTPUT row was sent (41301, a commit dependency
// aborted), and go-mssqldb v1.9.6's QueryRow drops an error that follows
// the first row: the client would take a rolled-back update for
// acknowledged.
func readOneInt(rows *sql.Rows, out *int64) error {
	defer rows.Close()
	n := 0
	for rows.Next() {
		if err := rows.Scan(out); err != nil {
			return err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n != 1 {
		return fmt.Errorf("expected one row, got %d", n)
	}
	return nil
}

// Transfer moves amount between two accounts and logs the transfer, in one
// native procedure (one atomic transaction).
func Transfer(ctx context.Context, db *sql.DB, id int64, from, to int, amount int64) (Retries, error) {
	return withRetry(ctx, func() error {
		_, err := db.ExecContext(ctx, "dbo.usp_Transfer",
			sql.Named("TransferID", id), sql.Named("FromID", int32(from)),
			sql.Named("ToID", int32(to)), sql.Named("Amount", amount))
		return err
	})
}

// InsertScratch adds a row to the SCHEMA_ONLY table.
func InsertScratch(ctx context.Context, db *sql.DB, id int64, client int) (Retries, error) {
	return withRetry(ctx, func() error {
		_, err := db.ExecContext(ctx, "INSERT INTO dbo.Scratch (ScratchID, ClientID, Payload) VALUES (@p1, @p2, @p3)",
			id, int32(client), fmt.Sprintf("scratch row %d of client %d", id, client))
		return err
	})
}

// FlushLog runs sys.sp_flush_log: every delayed-durability commit
// acknowledged before it started is durable once it returns.
func FlushLog(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "EXEC sys.sp_flush_log")
	return err
}
