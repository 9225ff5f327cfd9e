package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"hekla/reliability/elle"
)

// nativeMops is the most micro-operations the natively compiled procedure
// takes: its parameters are fixed.
const nativeMops = 4

// procedure is the natively compiled procedure that runs a whole
// transaction as its ATOMIC block at the workload's level: micro-operation
// i is a write (@wi = 1) of @si (list-append: the text appended) or @ii
// (register) to key @ki, or a read of @ki, whose result set is the key's
// row; @n says how many there are.
func (w *workload) procedure() string {
	var params, body []string
	params = append(params, "@n INT")
	for i := 1; i <= nativeMops; i++ {
		value, set := fmt.Sprintf("@s%d NVARCHAR(12)", i), fmt.Sprintf("v = v + @s%d", i)
		if w.model == elle.Register {
			value, set = fmt.Sprintf("@i%d INT", i), fmt.Sprintf("v = @i%d", i)
		}
		params = append(params, fmt.Sprintf("@w%d BIT", i), fmt.Sprintf("@k%d INT", i), value)
		body = append(body, fmt.Sprintf(`    IF @n >= %[1]d
    BEGIN
        IF @w%[1]d = 1
        BEGIN
            UPDATE dbo.%[2]s SET %[3]s WHERE k = @k%[1]d;
            IF @@ROWCOUNT <> 1 THROW 50000, N'elle: no row for the key', 1;
        END
        ELSE
            SELECT v FROM dbo.%[2]s WHERE k = @k%[1]d;
    END`, i, w.table, set))
	}
	return fmt.Sprintf(`CREATE PROCEDURE dbo.%s_txn %s
WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = %s, LANGUAGE = N'us_english')
%s
END`, w.table, strings.Join(params, ", "), w.hint, strings.Join(body, "\n"))
}

// nativeTransaction runs one transaction as one call of the procedure. The
// connection is checked with a round trip first: a call that fails after
// that was sent, and may have committed (:info), unless the driver says it
// never left (driver.ErrBadConn: :fail).
func (w *workload) nativeTransaction(ctx context.Context, process int, mops []elle.Mop) (elle.Op, string, bool, error) {
	callCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := w.db.Conn(callCtx)
	if err == nil {
		if err = conn.PingContext(callCtx); err != nil {
			conn.Close()
		}
	}
	if err != nil {
		return elle.Op{}, "", false, waitForServer(ctx, err)
	}
	defer conn.Close()
	w.record(elle.Op{Process: process, Type: elle.Invoke, Txn: mops})
	completed, err := w.call(callCtx, conn, mops)
	var unexpected errUnexpected
	switch {
	case err == nil:
		return elle.Op{Process: process, Type: elle.OK, Txn: completed}, "", true, nil
	case errors.As(err, &unexpected):
		return elle.Op{}, "", true, err
	case isAbort(err):
		return elle.Op{Process: process, Type: elle.Fail, Txn: mops}, reason(err), true, nil
	case isServerError(err):
		return elle.Op{}, "", true, errUnexpected{fmt.Errorf("process %d's %v: %w", process, mops, err)}
	case errors.Is(err, driver.ErrBadConn):
		return elle.Op{Process: process, Type: elle.Fail, Txn: mops}, "connection lost", true, nil
	}
	return elle.Op{Process: process, Type: elle.Info, Txn: mops}, "call unanswered", true, nil
}

// call executes the procedure and reads one result set per read, in order,
// then the rest of the reply (the block's commit may fail after the last).
func (w *workload) call(ctx context.Context, conn *sql.Conn, mops []elle.Mop) ([]elle.Mop, error) {
	args := []any{sql.Named("n", len(mops))}
	for i := 1; i <= nativeMops; i++ {
		write, key, text, value := false, 0, sql.NullString{}, sql.NullInt64{}
		if i <= len(mops) {
			m := mops[i-1]
			write, key = m.Kind != elle.Read, m.Key
			if write {
				text = sql.NullString{String: " " + strconv.Itoa(m.Value), Valid: true}
				value = sql.NullInt64{Int64: int64(m.Value), Valid: true}
			}
		}
		args = append(args, sql.Named(fmt.Sprintf("w%d", i), write), sql.Named(fmt.Sprintf("k%d", i), key))
		if w.model == elle.ListAppend {
			args = append(args, sql.Named(fmt.Sprintf("s%d", i), text))
		} else {
			args = append(args, sql.Named(fmt.Sprintf("i%d", i), value))
		}
	}
	rows, err := conn.QueryContext(ctx, "dbo."+w.table+"_txn", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	completed := make([]elle.Mop, len(mops))
	resultSets := 0
	for i, m := range mops {
		if m.Kind != elle.Read {
			completed[i] = m
			continue
		}
		if resultSets > 0 && !rows.NextResultSet() {
			if err := rows.Err(); err != nil {
				return nil, err
			}
			return nil, errUnexpected{fmt.Errorf("%v: %d result sets, want one per read", mops, resultSets)}
		}
		resultSets++
		read, err := w.readRows(rows, m.Key)
		if err != nil {
			return nil, err
		}
		completed[i] = read
	}
	for rows.Next() {
	}
	return completed, rows.Err()
}
