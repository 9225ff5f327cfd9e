// The driver suite's scenario (docs/clients.md) with github.com/microsoft/go-mssqldb.
// Prints one line per check: "ok NAME" or "FAIL NAME: why"; exits 1 if any failed.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/golang-sql/civil"
	mssql "github.com/microsoft/go-mssqldb"
)

var (
	prefix     = "go"
	saPassword = os.Getenv("HEKLA_SA_PASSWORD")
	failures   = 0
)

func main() {
	if len(os.Args) > 1 {
		prefix = os.Args[1]
	}
	check("connect_plain", func() error { return connectAndSelect(false, 1) })
	check("connect_tls", func() error { return connectAndSelect(true, 2) })
	check("create_objects", createObjects)
	check("types_max", func() error { return roundTrip(2, maxRow()) })
	check("types_min", func() error { return roundTrip(3, minRow()) })
	check("types_null", func() error { return roundTrip(4, nullRow()) })
	check("proc_output", procOutput)
	check("tvp", tvp)
	check("tx_commit", func() error { return transaction(true) })
	check("tx_rollback", func() error { return transaction(false) })
	check("unique_violation", uniqueViolation)
	check("write_conflict", writeConflict)
	check("denied", denied)
	check("wrong_password", wrongPassword)
	// Last: a cancel the server ignores can hang the driver until the runner's timeout.
	check("cancel", func() error { return withinDeadline(cancel, 30*time.Second) })
	if failures > 0 {
		os.Exit(1)
	}
}

func check(name string, body func() error) {
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		err = body()
	}()
	if err == nil {
		fmt.Printf("ok %s\n", name)
		return
	}
	failures++
	fmt.Printf("FAIL %s: %s\n", name, strings.ReplaceAll(err.Error(), "\n", " "))
}

// withinDeadline runs body on another goroutine: a driver blocked on a server
// that never answers fails the check instead of hanging the scenario.
func withinDeadline(body func() error, limit time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- body() }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		return fmt.Errorf("no answer within %v", limit)
	}
}

func dsn(user, password string, tls bool) string {
	query := url.Values{}
	query.Set("database", "hekla")
	query.Set("dial timeout", "10")
	if tls {
		query.Set("encrypt", "true")
		query.Set("TrustServerCertificate", "true")
	} else {
		query.Set("encrypt", "disable")
	}
	u := &url.URL{
		Scheme:   "sqlserver",
		User:     url.UserPassword(user, password),
		Host:     os.Getenv("HEKLA_HOST") + ":" + os.Getenv("HEKLA_PORT"),
		RawQuery: query.Encode(),
	}
	return u.String()
}

func open(user, password string, tls bool) (*sql.DB, error) {
	db, err := sql.Open("sqlserver", dsn(user, password, tls))
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func openSa() (*sql.DB, error) { return open("sa", saPassword, false) }

func queryInt(q interface {
	QueryRow(string, ...any) *sql.Row
}, query string, args ...any) (int64, error) {
	var v int64
	err := q.QueryRow(query, args...).Scan(&v)
	return v, err
}

func expectInt(want int64, got int64, err error, what string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if want != got {
		return fmt.Errorf("%s: expected %d, got %d", what, want, got)
	}
	return nil
}

// expectError checks that err is the driver's error type carrying SQL Server error `number`.
func expectError(number int32, err error) error {
	if err == nil {
		return fmt.Errorf("expected Msg %d, got no error", number)
	}
	var sqlErr mssql.Error
	if !errors.As(err, &sqlErr) {
		return fmt.Errorf("expected an mssql.Error with Msg %d, got %T: %v", number, err, err)
	}
	if sqlErr.Number != number {
		return fmt.Errorf("expected Msg %d, got Msg %d: %s", number, sqlErr.Number, sqlErr.Message)
	}
	return nil
}

func connectAndSelect(tls bool, value int64) error {
	db, err := open("sa", saPassword, tls)
	if err != nil {
		return err
	}
	defer db.Close()
	got, err := queryInt(db, fmt.Sprintf("SELECT %d", value))
	return expectInt(value, got, err, "SELECT")
}

var goSeparator = regexp.MustCompile(`(?m)^GO\s*$`)

func runScript(db *sql.DB, file string) error {
	text, err := os.ReadFile(filepath.Join(os.Getenv("HEKLA_CLIENTS_SQL"), file))
	if err != nil {
		return err
	}
	for _, batch := range goSeparator.Split(strings.ReplaceAll(string(text), "{p}", prefix), -1) {
		if strings.TrimSpace(batch) == "" {
			continue
		}
		if _, err := db.Exec(batch); err != nil {
			return fmt.Errorf("%s: %w", strings.TrimSpace(batch)[:min(60, len(strings.TrimSpace(batch)))], err)
		}
	}
	return nil
}

func createObjects() error {
	db, err := openSa()
	if err != nil {
		return err
	}
	defer db.Close()
	if err := runScript(db, "setup.sql"); err != nil {
		return err
	}
	got, err := queryInt(db, "SELECT COUNT(*) FROM sys.tables WHERE name = @p1 AND is_memory_optimized = 1", prefix+"_types")
	return expectInt(1, got, err, "memory-optimized table in sys.tables")
}

// ---- data types

var columns = []string{
	"c_tinyint", "c_smallint", "c_int", "c_bigint", "c_bit", "c_dec", "c_dec0", "c_money", "c_smallmoney",
	"c_float", "c_real", "c_date", "c_time", "c_datetime", "c_datetime2", "c_dto", "c_sdt",
	"c_char", "c_varchar", "c_nchar", "c_nvarchar", "c_varcharmax", "c_nvarcharmax", "c_varbinarymax",
	"c_binary", "c_varbinary", "c_guid",
}

// letters is the scenario's long string: a..z cycling, n of them.
func letters(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i%26)
	}
	return string(b)
}

// pattern is the scenario's byte pattern: byte i is (i * step) mod 256.
func pattern(n, step int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i * step)
	}
	return b
}

func guid(s string) mssql.UniqueIdentifier {
	var g mssql.UniqueIdentifier
	if err := g.Scan(s); err != nil {
		panic(err)
	}
	return g
}

// A row to insert (driver values) and what reading it back must give.
type row struct {
	params []any
	want   []any
}

// Decimal and money values go as strings (the driver has no exact decimal
// parameter type of its own) and come back as the driver's string form.
func maxRow() row {
	dto := time.Date(9999, 12, 31, 23, 59, 59, 999_999_900, time.FixedZone("", 14*3600))
	p := []any{
		uint8(255), int16(32767), int32(2147483647), int64(math.MaxInt64), true,
		"9999999999999999999999999999.9999999999", "99999999999999999999999999999999999999",
		"922337203685477.5807", "214748.3647",
		1.7976931348623157e308, float32(3.4028235e38),
		civil.Date{Year: 9999, Month: 12, Day: 31},
		civil.Time{Hour: 23, Minute: 59, Second: 59, Nanosecond: 999_999_900},
		civil.DateTime{Date: civil.Date{Year: 9999, Month: 12, Day: 31}, Time: civil.Time{Hour: 23, Minute: 59, Second: 59, Nanosecond: 997_000_000}},
		civil.DateTime{Date: civil.Date{Year: 9999, Month: 12, Day: 31}, Time: civil.Time{Hour: 23, Minute: 59, Second: 59, Nanosecond: 999_999_900}},
		dto,
		civil.DateTime{Date: civil.Date{Year: 2079, Month: 6, Day: 6}, Time: civil.Time{Hour: 23, Minute: 59}},
		"abc", strings.Repeat("é", 10) + letters(7990), "żółw", strings.Repeat("日本語ü", 1000),
		"é" + letters(99_999), strings.Repeat("Ωλφα", 25_000), pattern(300_000, 1),
		[]byte{0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 0xff}, pattern(8000, 7), guid("6F9619FF-8B86-D011-B42D-00C04FC964FF"),
	}
	w := append([]any(nil), p...)
	w[0], w[1], w[2], w[10] = int64(255), int64(32767), int64(2147483647), float64(float32(3.4028235e38))
	w[11] = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	w[12] = time.Date(1, 1, 1, 23, 59, 59, 999_999_900, time.UTC)
	w[13] = time.Date(9999, 12, 31, 23, 59, 59, 997_000_000, time.UTC)
	w[14] = time.Date(9999, 12, 31, 23, 59, 59, 999_999_900, time.UTC)
	w[16] = time.Date(2079, 6, 6, 23, 59, 0, 0, time.UTC)
	w[17], w[19] = "abc       ", "żółw      "
	return row{p, w}
}

func minRow() row {
	p := []any{
		uint8(0), int16(-32768), int32(-2147483648), int64(math.MinInt64), false,
		"-9999999999999999999999999999.9999999999", "-99999999999999999999999999999999999999",
		"-922337203685477.5808", "-214748.3648",
		-2.2250738585072014e-308, float32(-1.17549435e-38),
		civil.Date{Year: 1, Month: 1, Day: 1}, civil.Time{},
		civil.DateTime{Date: civil.Date{Year: 1753, Month: 1, Day: 1}},
		civil.DateTime{Date: civil.Date{Year: 1, Month: 1, Day: 1}},
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		civil.DateTime{Date: civil.Date{Year: 1900, Month: 1, Day: 1}},
		"", "", "", "", "", "", []byte{}, make([]byte, 8), []byte{}, guid("00000000-0000-0000-0000-000000000000"),
	}
	w := append([]any(nil), p...)
	w[0], w[1], w[2], w[10] = int64(0), int64(-32768), int64(-2147483648), float64(float32(-1.17549435e-38))
	w[11] = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	w[12] = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	w[13] = time.Date(1753, 1, 1, 0, 0, 0, 0, time.UTC)
	w[14] = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	w[16] = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	w[17], w[19] = "          ", "          "
	return row{p, w}
}

// nullRow sends typed NULLs where the driver has them ([]byte(nil) is a
// varbinary NULL, NullUniqueIdentifier a uniqueidentifier NULL) and untyped
// NULLs for the rest.
func nullRow() row {
	p := make([]any, len(columns))
	for i, c := range columns {
		switch c {
		case "c_varbinarymax", "c_binary", "c_varbinary":
			p[i] = []byte(nil)
		case "c_guid":
			p[i] = mssql.NullUniqueIdentifier{}
		}
	}
	return row{p, make([]any, len(columns))}
}

func normalise(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case mssql.UniqueIdentifier:
		return x.String()
	case *mssql.UniqueIdentifier:
		return x.String()
	}
	return v
}

func sameValue(want, got any) bool {
	if wt, ok := want.(time.Time); ok {
		gt, ok := got.(time.Time)
		if !ok || !wt.Equal(gt) {
			return false
		}
		_, wOff := wt.Zone()
		_, gOff := gt.Zone()
		return wOff == gOff
	}
	if want == nil || got == nil {
		return want == nil && got == nil
	}
	if wb, ok := want.([]byte); ok {
		gb, ok := got.([]byte)
		return ok && bytes.Equal(wb, gb)
	}
	if wg, ok := want.(mssql.UniqueIdentifier); ok {
		return normalise(got) == wg.String()
	}
	return normalise(want) == normalise(got)
}

func shorten(v any) string {
	s := fmt.Sprintf("%v", v)
	if b, ok := v.([]byte); ok {
		s = fmt.Sprintf("bytes[%d]", len(b))
	}
	if len(s) > 80 {
		return fmt.Sprintf("%s...(%d chars)", s[:77], len(s))
	}
	return fmt.Sprintf("%s (%T)", s, v)
}

func roundTrip(id int, r row) error {
	db, err := openSa()
	if err != nil {
		return err
	}
	defer db.Close()
	markers := make([]string, len(columns))
	for i := range markers {
		markers[i] = fmt.Sprintf("@p%d", i+2)
	}
	insert := fmt.Sprintf("INSERT INTO dbo.%s_types (id, %s) VALUES (@p1, %s)", prefix,
		strings.Join(columns, ", "), strings.Join(markers, ", "))
	res, err := db.Exec(insert, append([]any{id}, r.params...)...)
	if err != nil {
		return fmt.Errorf("insert: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("insert: %d rows affected", n)
	}
	got := make([]any, len(columns))
	dest := make([]any, len(columns))
	for i := range got {
		dest[i] = &got[i]
	}
	query := fmt.Sprintf("SELECT %s FROM dbo.%s_types WHERE id = @p1", strings.Join(columns, ", "), prefix)
	if err := db.QueryRow(query, id).Scan(dest...); err != nil {
		return fmt.Errorf("select: %w", err)
	}
	var wrong []string
	for i, c := range columns {
		if c == "c_guid" && got[i] != nil {
			var g mssql.UniqueIdentifier
			if err := g.Scan(got[i]); err == nil {
				got[i] = g
			}
		}
		if !sameValue(r.want[i], got[i]) {
			wrong = append(wrong, fmt.Sprintf("%s expected %s got %s", c, shorten(r.want[i]), shorten(got[i])))
		}
	}
	if len(wrong) > 0 {
		return errors.New(strings.Join(wrong, "; "))
	}
	return nil
}

// ---- procedures

func procOutput() error {
	db, err := openSa()
	if err != nil {
		return err
	}
	defer db.Close()
	var doubled int64
	var status mssql.ReturnStatus
	_, err = db.Exec("dbo."+prefix+"_double", sql.Named("x", 21), sql.Named("doubled", sql.Out{Dest: &doubled}), &status)
	if err != nil {
		return err
	}
	if status != 22 || doubled != 42 {
		return fmt.Errorf("expected return status 22 and @doubled 42, got %d and %d", status, doubled)
	}
	return nil
}

type line struct {
	LineNo int32   `tvp:"line_no"`
	Item   string  `tvp:"item"`
	Amount float64 `tvp:"amount"`
}

func tvp() error {
	db, err := openSa()
	if err != nil {
		return err
	}
	defer db.Close()
	lines := mssql.TVP{
		TypeName: "dbo." + prefix + "_line",
		Value:    []line{{1, "äpfel", 1.25}, {2, "birnen", 10.5}, {3, "zitronen", -0.5}},
	}
	var count int64
	var total, last string
	err = db.QueryRow("dbo."+prefix+"_sum_lines", sql.Named("lines", lines)).Scan(&count, &total, &last)
	if err != nil {
		return err
	}
	if count != 3 || total != "11.2500" || last != "zitronen" {
		return fmt.Errorf("expected (3, 11.2500, zitronen), got (%d, %s, %s)", count, total, last)
	}
	return nil
}

// ---- transactions and errors

func transaction(commit bool) error {
	id := 10
	if !commit {
		id = 11
	}
	ctx := context.Background()
	db, err := openSa()
	if err != nil {
		return err
	}
	defer db.Close()
	count := fmt.Sprintf("SELECT COUNT(*) FROM dbo.%s_kv WHERE id = %d", prefix, id)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("BeginTx: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(fmt.Sprintf("INSERT INTO dbo.%s_kv (id, v) VALUES (@p1, 7)", prefix), id); err != nil {
		return fmt.Errorf("insert: %w", err)
	}
	n, err := queryInt(tx, strings.Replace(count, "_kv", "_kv WITH (SNAPSHOT)", 1))
	if err := expectInt(1, n, err, "own insert visible inside"); err != nil {
		return err
	}
	n, err = queryInt(db, count) // another connection of the pool
	if err := expectInt(0, n, err, "uncommitted insert seen by another connection"); err != nil {
		return err
	}
	if commit {
		err = tx.Commit()
	} else {
		err = tx.Rollback()
	}
	if err != nil {
		return fmt.Errorf("commit/rollback: %w", err)
	}
	want := int64(0)
	if commit {
		want = 1
	}
	n, err = queryInt(db, count)
	return expectInt(want, n, err, "rows after the transaction")
}

func uniqueViolation() error {
	db, err := openSa()
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(fmt.Sprintf("INSERT INTO dbo.%s_kv (id, v) VALUES (@p1, @p2)", prefix), 1, 5)
	if err := expectError(2627, err); err != nil {
		return err
	}
	v, err := queryInt(db, fmt.Sprintf("SELECT v FROM dbo.%s_kv WHERE id = 1", prefix))
	return expectInt(100, v, err, "row 1 unchanged")
}

func writeConflict() error {
	ctx := context.Background()
	db, err := openSa()
	if err != nil {
		return err
	}
	defer db.Close()
	update := fmt.Sprintf("UPDATE dbo.%s_kv WITH (SNAPSHOT) SET v = v + 1 WHERE id = 1", prefix)
	a, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer a.Rollback()
	b, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer b.Rollback()
	res, err := a.Exec(update)
	if err != nil {
		return fmt.Errorf("first update: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("first update: %d rows affected", n)
	}
	_, err = b.Exec(update)
	if err := expectError(41302, err); err != nil {
		return err
	}
	// 41302 says "The transaction was aborted": the server may have ended it
	// already and answer the rollback with 3903, which is no failure.
	if err := b.Rollback(); err != nil && expectError(3903, err) != nil {
		return fmt.Errorf("rollback of the loser: %w", err)
	}
	if err := a.Rollback(); err != nil {
		return fmt.Errorf("rollback of the winner: %w", err)
	}
	v, err := queryInt(db, fmt.Sprintf("SELECT v FROM dbo.%s_kv WHERE id = 1", prefix))
	return expectInt(100, v, err, "value after both rolled back")
}

func cancel() error {
	db, err := openSa()
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, stop := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer stop()
	start := time.Now()
	_, err = conn.ExecContext(ctx, "DECLARE @i INT = 0; WHILE 1 = 1 SET @i = @i + 1;")
	elapsed := time.Since(start)
	if err == nil {
		return errors.New("the endless loop ended without an error")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("expected context.DeadlineExceeded, got %v", err)
	}
	if elapsed > 5*time.Second {
		return fmt.Errorf("cancel took %v", elapsed)
	}
	var v int64
	if err := conn.QueryRowContext(context.Background(), "SELECT 3").Scan(&v); err != nil || v != 3 {
		return fmt.Errorf("the connection after the cancel: %v, %v", v, err)
	}
	return nil
}

func denied() error {
	db, err := openSa()
	if err != nil {
		return err
	}
	defer db.Close()
	if err := runScript(db, "login.sql"); err != nil {
		return err
	}
	reader, err := open(prefix+"_reader", "Reader#Pass1", false)
	if err != nil {
		return fmt.Errorf("login as %s_reader: %w", prefix, err)
	}
	defer reader.Close()
	v, err := queryInt(reader, fmt.Sprintf("SELECT v FROM dbo.%s_kv WHERE id = 1", prefix))
	if err := expectInt(100, v, err, "granted SELECT"); err != nil {
		return err
	}
	_, err = reader.Exec(fmt.Sprintf("INSERT INTO dbo.%s_kv (id, v) VALUES (50, 1)", prefix))
	return expectError(229, err)
}

func wrongPassword() error {
	db, err := open("sa", saPassword+"x", false)
	if db != nil {
		db.Close()
	}
	return expectError(18456, err)
}
