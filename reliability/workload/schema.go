// Package workload is the mixed client workload of the crash-under-load and
// soak runs (docs/reliability.md): the sales-order procedure with a TVP,
// single-row counter updates under the 41302 retry wrapper, bank transfers
// with a fixed total, and inserts into a SCHEMA_ONLY table; plus the ledger
// of what clients were told committed and the check of it after a crash.
package workload

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"hekla/reliability/server"
)

// Sizes of the schema's fixed parts.
type Sizes struct {
	Accounts       int   // bank accounts, each starting at InitialBalance
	InitialBalance int64 // so the bank's total is Accounts * InitialBalance
	Counters       int   // rows the counter updates contend on (few: conflicts)
}

// DefaultSizes conflict often enough to exercise the 41302 retries.
var DefaultSizes = Sizes{Accounts: 64, InitialBalance: 1000, Counters: 16}

// extraSchema is what the sales-order sample lacks: the durable bank and
// counters, and the SCHEMA_ONLY scratch table a restart must leave empty.
const extraSchema = `
CREATE TABLE dbo.Account (
    AccountID int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024),
    Balance bigint NOT NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
CREATE TABLE dbo.Transfer (
    TransferID bigint NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 262144),
    FromID int NOT NULL,
    ToID int NOT NULL,
    Amount bigint NOT NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
CREATE TABLE dbo.Counter (
    CounterID int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    Version bigint NOT NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
CREATE TABLE dbo.Scratch (
    ScratchID bigint NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 65536),
    ClientID int NOT NULL,
    Payload nvarchar(200) NOT NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
GO
CREATE PROCEDURE dbo.usp_Transfer @TransferID bigint, @FromID int, @ToID int, @Amount bigint
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    UPDATE dbo.Account SET Balance = Balance - @Amount WHERE AccountID = @FromID
    UPDATE dbo.Account SET Balance = Balance + @Amount WHERE AccountID = @ToID
    INSERT INTO dbo.Transfer (TransferID, FromID, ToID, Amount) VALUES (@TransferID, @FromID, @ToID, @Amount)
END
GO
`

var goSeparator = regexp.MustCompile(`(?m)^GO\s*$`)

// SalesOrdersScript reads workloads/sales_orders.sql under the repository
// root (found from the working directory).
func SalesOrdersScript() (string, error) {
	root, err := server.RepoRoot()
	if err != nil {
		return "", err
	}
	text, err := os.ReadFile(filepath.Join(root, "workloads", "sales_orders.sql"))
	return string(text), err
}

// WorkDir is given, or else a new temporary directory named after prefix,
// for a run's data directories and server logs.
func WorkDir(given, prefix string) (string, error) {
	if given != "" {
		return given, nil
	}
	return os.MkdirTemp("", prefix)
}

// Setup creates the schema (the sales-order sample's script, then
// extraSchema), fills the accounts and counters, and with delayed sets
// DELAYED_DURABILITY = FORCED on the database.
func Setup(ctx context.Context, db *sql.DB, salesOrders string, sizes Sizes, delayed bool) error {
	if err := runScript(ctx, db, salesOrders+"\nGO\n"+extraSchema); err != nil {
		return err
	}
	for i := 1; i <= sizes.Accounts; i++ {
		if _, err := db.ExecContext(ctx, "INSERT INTO dbo.Account (AccountID, Balance) VALUES (@p1, @p2)", i, sizes.InitialBalance); err != nil {
			return fmt.Errorf("account %d: %w", i, err)
		}
	}
	for i := 1; i <= sizes.Counters; i++ {
		if _, err := db.ExecContext(ctx, "INSERT INTO dbo.Counter (CounterID, Version) VALUES (@p1, 0)", i); err != nil {
			return fmt.Errorf("counter %d: %w", i, err)
		}
	}
	if delayed {
		if _, err := db.ExecContext(ctx, "ALTER DATABASE CURRENT SET DELAYED_DURABILITY = FORCED"); err != nil {
			return fmt.Errorf("delayed durability: %w", err)
		}
	}
	return nil
}

func runScript(ctx context.Context, db *sql.DB, script string) error {
	for _, batch := range goSeparator.Split(script, -1) {
		if strings.TrimSpace(batch) == "" {
			continue
		}
		if _, err := db.ExecContext(ctx, batch); err != nil {
			head := strings.TrimSpace(batch)
			return fmt.Errorf("%s: %w", head[:min(60, len(head))], err)
		}
	}
	return nil
}
