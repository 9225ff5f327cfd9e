-- In a natively compiled procedure, an aggregate over a scan of fixed-width
-- integer and money columns runs as a compiled row kernel (hekla-jit). Each
-- procedure's result is followed by the same query run ad hoc (interpreted):
-- the two must agree, NULLs, empty inputs and overflow errors included.
CREATE TABLE dbo.k (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    note varchar(10) NULL,
    t tinyint NULL, s smallint NOT NULL, i int NULL, b bigint NULL, m money NULL
) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.k VALUES
    (1, 'a', 255, -5, 10, 100, 1.5),
    (2, NULL, NULL, 7, NULL, -3, NULL),
    (3, 'c', 3, 7, -20, NULL, 2.25),
    (4, 'd', 0, 32767, 2147483000, 9223372036854775000, 922337203685477.0000),
    (5, 'e', 9, 1, 30, 5, 0.25)
GO
CREATE PROCEDURE dbo.all_rows WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT COUNT(*) AS n, COUNT(i) AS ni, COUNT_BIG(b) AS nb, SUM(t) AS st, SUM(s) AS ss,
           MIN(s) AS mins, MAX(t) AS maxt, MIN(b) AS minb, MAX(m) AS maxm, MIN(i) AS mini
    FROM dbo.k
END
GO
EXEC dbo.all_rows
SELECT COUNT(*) AS n, COUNT(i) AS ni, COUNT_BIG(b) AS nb, SUM(t) AS st, SUM(s) AS ss,
       MIN(s) AS mins, MAX(t) AS maxt, MIN(b) AS minb, MAX(m) AS maxm, MIN(i) AS mini
FROM dbo.k
GO
CREATE PROCEDURE dbo.filtered @low smallint, @s smallint WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT COUNT(*) AS n, SUM(s) AS ss, MAX(i) AS maxi FROM dbo.k WHERE s >= @low AND s <> @s
    SELECT COUNT(*) AS n, SUM(t) AS st FROM dbo.k WHERE 7 = s
END
GO
EXEC dbo.filtered @low = 0, @s = 32767
DECLARE @low smallint = 0, @s smallint = 32767
SELECT COUNT(*) AS n, SUM(s) AS ss, MAX(i) AS maxi FROM dbo.k WHERE s >= @low AND s <> @s
SELECT COUNT(*) AS n, SUM(t) AS st FROM dbo.k WHERE 7 = s
GO
-- A NULL parameter: the comparison holds for no row.
EXEC dbo.filtered @low = NULL, @s = 1
GO
-- No row passes: COUNT 0, the others NULL.
EXEC dbo.filtered @low = 30000, @s = 32767
GO
CREATE PROCEDURE dbo.sums WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT SUM(i) AS si FROM dbo.k
END
GO
CREATE PROCEDURE dbo.big_sums WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT SUM(b) AS sb FROM dbo.k
END
GO
CREATE PROCEDURE dbo.money_sums WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT SUM(m) AS sm FROM dbo.k
END
GO
EXEC dbo.sums
SELECT SUM(i) AS si FROM dbo.k
EXEC dbo.big_sums
SELECT SUM(b) AS sb FROM dbo.k
EXEC dbo.money_sums
SELECT SUM(m) AS sm FROM dbo.k
GO
-- Past the result types' ranges: the same 8115 both ways.
UPDATE dbo.k SET i = 2147483000, b = 9223372036854775000, m = 922337203685477.0000 WHERE id = 5
GO
EXEC dbo.sums
GO
SELECT SUM(i) AS si FROM dbo.k
GO
EXEC dbo.big_sums
GO
SELECT SUM(b) AS sb FROM dbo.k
GO
EXEC dbo.money_sums
GO
SELECT SUM(m) AS sm FROM dbo.k
GO
-- Through an index: a hash seek on a column that repeats, with and without
-- a condition left for each row, and a range seek; the read finds the rows
-- and the kernel aggregates them.
CREATE TABLE dbo.lines (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    order_id int NOT NULL INDEX ix_order NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    qty smallint NOT NULL, price money NULL
) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.lines VALUES (1, 7, 1, 2.5), (2, 7, 3, NULL), (3, 7, 2, 4.25), (4, 8, 5, 1), (5, 9, 1, 10), (6, 9, 4, 0.5)
GO
CREATE PROCEDURE dbo.order_total @o int WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT COUNT(*) AS n, SUM(qty) AS q, SUM(price) AS p, MAX(price) AS top_price FROM dbo.lines WHERE order_id = @o
    SELECT COUNT(*) AS n, SUM(qty) AS q FROM dbo.lines WHERE order_id = @o AND qty > 1
END
GO
CREATE PROCEDURE dbo.id_range @lo int, @hi int WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT COUNT(*) AS n, SUM(qty) AS q, MIN(order_id) AS first_order FROM dbo.lines WHERE id >= @lo AND id <= @hi
END
GO
EXEC dbo.order_total 7
SELECT COUNT(*) AS n, SUM(qty) AS q, SUM(price) AS p, MAX(price) AS top_price FROM dbo.lines WHERE order_id = 7
SELECT COUNT(*) AS n, SUM(qty) AS q FROM dbo.lines WHERE order_id = 7 AND qty > 1
EXEC dbo.order_total 6
EXEC dbo.order_total NULL
EXEC dbo.id_range 2, 5
SELECT COUNT(*) AS n, SUM(qty) AS q, MIN(order_id) AS first_order FROM dbo.lines WHERE id >= 2 AND id <= 5
EXEC dbo.id_range 5, 2
GO
-- Filters: a SELECT, UPDATE and DELETE whose WHERE compiles test each
-- stored row before it is decoded (a NULL variable passes no row); the
-- golden runner also runs this script interpreted and compares.
CREATE PROCEDURE dbo.filters @o int, @q smallint WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT id, qty, price FROM dbo.lines WHERE order_id = @o AND qty >= @q ORDER BY id
    UPDATE dbo.lines SET price = price + 1 WHERE qty >= @q AND id > 1
    SELECT id, price FROM dbo.lines WHERE qty >= @q AND price IS NOT NULL ORDER BY id
    DELETE FROM dbo.lines WHERE qty = @q
    SELECT COUNT(*) AS left_rows FROM dbo.lines
END
GO
EXEC dbo.filters 7, 2
EXEC dbo.filters NULL, 4
EXEC dbo.filters 9, NULL
SELECT id, order_id, qty, price FROM dbo.lines ORDER BY id
GO
-- Money, smallmoney, bit, date and datetime2 compare as the integers they
-- are stored as (smallmoney widened to money; datetime2 of one scale). A
-- smallint column against a smallmoney value is converted to smallmoney,
-- in ten-thousandths: interpreted.
CREATE TABLE dbo.orders (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    qty smallint NOT NULL, discount smallmoney NULL, rush bit NULL,
    due date NOT NULL, placed datetime2 NULL, total money NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.orders VALUES
    (1, 5, 0.1, 1, '2026-11-27', '2026-11-27 08:00:00.1234567', 10),
    (2, 2, NULL, 0, '2026-12-01', '2026-11-27 08:00:00.1234568', 2.5),
    (3, 7, 5, NULL, '2025-01-01', NULL, 100),
    (4, 1, -3.25, 1, '0001-01-01', '9999-12-31 23:59:59.9999999', 0.01)
GO
CREATE PROCEDURE dbo.typed_filters @day date, @at datetime2, @rush bit, @cut smallmoney, @least money
WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT COUNT(*) AS n, MIN(due) AS first_due, MAX(placed) AS last_placed, SUM(discount) AS discounts FROM dbo.orders WHERE due >= @day
    SELECT COUNT(*) AS n, SUM(total) AS total FROM dbo.orders WHERE placed > @at AND rush = @rush
    SELECT COUNT(*) AS n, MAX(total) AS top_total, MIN(discount) AS least_discount FROM dbo.orders WHERE discount < @cut AND total >= @least
    SELECT COUNT(*) AS n FROM dbo.orders WHERE discount >= @least
    SELECT COUNT(*) AS n FROM dbo.orders WHERE qty = @cut
END
GO
EXEC dbo.typed_filters '2026-11-27', '2026-11-27 08:00:00.1234567', 1, 5, 0.01
DECLARE @day date = '2026-11-27', @at datetime2 = '2026-11-27 08:00:00.1234567', @rush bit = 1, @cut smallmoney = 5, @least money = 0.01
SELECT COUNT(*) AS n, MIN(due) AS first_due, MAX(placed) AS last_placed, SUM(discount) AS discounts FROM dbo.orders WHERE due >= @day
SELECT COUNT(*) AS n, SUM(total) AS total FROM dbo.orders WHERE placed > @at AND rush = @rush
SELECT COUNT(*) AS n, MAX(total) AS top_total, MIN(discount) AS least_discount FROM dbo.orders WHERE discount < @cut AND total >= @least
SELECT COUNT(*) AS n FROM dbo.orders WHERE discount >= @least
SELECT COUNT(*) AS n FROM dbo.orders WHERE qty = @cut
GO
EXEC dbo.typed_filters '0001-01-01', '2026-11-27 08:00:00.1234568', 0, -3.25, 100
EXEC dbo.typed_filters NULL, NULL, NULL, NULL, NULL
GO
-- An aggregate of integer columns and constants joined by +, - and * is
-- computed in the kernel, in the argument's type (the aggregate's): a
-- result past it is the interpreter's 8115, and a NULL side makes it NULL.
-- With SET ARITHABORT OFF and ANSI_WARNINGS OFF such an overflow is NULL
-- and a warning: the interpreter's, as the kernel does not run.
CREATE PROCEDURE dbo.computed WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT SUM(qty * order_id) AS weighted, MIN(id - qty) AS least, MAX(qty + 1) AS most, COUNT(id * 2) AS n FROM dbo.lines
    SELECT SUM(i * 2) AS doubled, MAX(b - 1) AS b_less FROM dbo.k WHERE i < 1000
    SELECT MIN(i * 2) AS doubled FROM dbo.k
END
GO
EXEC dbo.computed
SELECT SUM(qty * order_id) AS weighted, MIN(id - qty) AS least, MAX(qty + 1) AS most, COUNT(id * 2) AS n FROM dbo.lines
SELECT SUM(i * 2) AS doubled, MAX(b - 1) AS b_less FROM dbo.k WHERE i < 1000
GO
SELECT MIN(i * 2) AS doubled FROM dbo.k
GO
SET ARITHABORT OFF
SET ANSI_WARNINGS OFF
EXEC dbo.computed
SET ANSI_WARNINGS ON
SET ARITHABORT ON
GO
-- Money and smallmoney add and subtract in ten-thousandths, past money's
-- range the same 8115.
CREATE PROCEDURE dbo.computed_money WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT SUM(price + $0.50) AS raised, MIN(price - $1) AS lowered, COUNT(price - price) AS priced FROM dbo.lines
    SELECT MAX(discount + discount) AS doubled, SUM(total - $0.01) AS less FROM dbo.orders
    SELECT MAX(m + m) AS doubled FROM dbo.k
END
GO
EXEC dbo.computed_money
SELECT SUM(price + $0.50) AS raised, MIN(price - $1) AS lowered, COUNT(price - price) AS priced FROM dbo.lines
SELECT MAX(discount + discount) AS doubled, SUM(total - $0.01) AS less FROM dbo.orders
GO
SELECT MAX(m + m) AS doubled FROM dbo.k
GO
-- A WHERE comparison may compute its side too. As the interpreter tests an
-- AND, a FALSE comparison ends the row's test, an UNKNOWN one (a NULL) does
-- not: the later ones are computed, and their overflow is the statement's
-- 8115 in their type. A NULL variable leaves such a filter to the
-- interpreter, which still computes every row's sides.
CREATE PROCEDURE dbo.computed_filters @low int WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT COUNT(*) AS n, SUM(qty) AS q FROM dbo.lines WHERE qty * 2 > @low AND id - 1 >= 0
    SELECT id FROM dbo.k WHERE t > 100 AND i * 2 > 0 ORDER BY id
END
GO
EXEC dbo.computed_filters 3
SELECT COUNT(*) AS n, SUM(qty) AS q FROM dbo.lines WHERE qty * 2 > 3 AND id - 1 >= 0
GO
SELECT id FROM dbo.k WHERE t > 100 AND i * 2 > 0 ORDER BY id
GO
EXEC dbo.computed_filters NULL
GO
-- Row 4's t NULL: its i * 2 is computed, and overflows.
UPDATE dbo.k SET t = NULL WHERE id = 4
SELECT id, t, i FROM dbo.k ORDER BY id
GO
EXEC dbo.computed_filters 3
GO
SELECT id FROM dbo.k WHERE t > 100 AND i * 2 > 0 ORDER BY id
GO
