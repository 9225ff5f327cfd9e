package workload

import (
	"context"
	"database/sql"
	"fmt"
)

// Order is a sales-order header as read back, with its detail-row count.
type Order struct {
	Comment string
	Lines   int
}

// State is what the database holds of the workload.
type State struct {
	Orders          map[int32]Order
	OrphanDetails   []int32 // SalesOrderIDs with details but no header
	Counters        map[int]int64
	Transfers       map[int64]TransferRow
	Balances        map[int]int64
	ScratchRows     int
	ScratchSchemaOK bool
}

// ReadState reads the workload's tables, statement by statement: it runs
// while no client does, so the statements see one state.
func ReadState(ctx context.Context, db *sql.DB) (*State, error) {
	s := &State{Orders: map[int32]Order{}, Counters: map[int]int64{}, Transfers: map[int64]TransferRow{}, Balances: map[int]int64{}}
	queries := []struct {
		sql  string
		scan func(*sql.Rows) error
	}{
		{"SELECT SalesOrderID, ISNULL(Comment, N'') FROM Sales.SalesOrderHeader_inmem", func(rows *sql.Rows) error {
			var id int32
			var comment string
			err := rows.Scan(&id, &comment)
			s.Orders[id] = Order{Comment: comment}
			return err
		}},
		{"SELECT SalesOrderID, COUNT(*) FROM Sales.SalesOrderDetail_inmem GROUP BY SalesOrderID", func(rows *sql.Rows) error {
			var id int32
			var lines int
			if err := rows.Scan(&id, &lines); err != nil {
				return err
			}
			if o, ok := s.Orders[id]; ok {
				o.Lines = lines
				s.Orders[id] = o
			} else {
				s.OrphanDetails = append(s.OrphanDetails, id)
			}
			return nil
		}},
		{"SELECT CounterID, Version FROM dbo.Counter", func(rows *sql.Rows) error {
			var id int
			var v int64
			err := rows.Scan(&id, &v)
			s.Counters[id] = v
			return err
		}},
		{"SELECT TransferID, FromID, ToID, Amount FROM dbo.Transfer", func(rows *sql.Rows) error {
			var id int64
			var t TransferRow
			err := rows.Scan(&id, &t.From, &t.To, &t.Amount)
			s.Transfers[id] = t
			return err
		}},
		{"SELECT AccountID, Balance FROM dbo.Account", func(rows *sql.Rows) error {
			var id int
			var b int64
			err := rows.Scan(&id, &b)
			s.Balances[id] = b
			return err
		}},
		{"SELECT COUNT(*) FROM dbo.Scratch", func(rows *sql.Rows) error { return rows.Scan(&s.ScratchRows) }},
		{"SELECT COUNT(*) FROM sys.tables WHERE name = N'Scratch' AND is_memory_optimized = 1 AND durability_desc = N'SCHEMA_ONLY'", func(rows *sql.Rows) error {
			var n int
			err := rows.Scan(&n)
			s.ScratchSchemaOK = n == 1
			return err
		}},
	}
	for _, q := range queries {
		if err := readRows(ctx, db, q.sql, q.scan); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func readRows(ctx context.Context, db *sql.DB, query string, scan func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("%s: %w", query, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("%s: %w", query, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", query, err)
	}
	return nil
}
