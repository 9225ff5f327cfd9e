-- Stream aggregation: when a range index leads with the GROUP BY columns
-- (in any order), the table is read in index order and each group goes
-- out when the next begins; groups come out in key order, so an ORDER BY
-- on them needs no Sort. Keys compare by collation: 'a', 'A' and 'a '
-- are one group. Anything else (another key, an expression, ROLLUP, a
-- hash index) groups in a hash table.
CREATE TABLE dbo.orders (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    cust varchar(10) NULL,
    day int NOT NULL,
    qty int NOT NULL,
    note varchar(10) NULL,
    INDEX ix_cust_day NONCLUSTERED (cust, day),
    INDEX ix_day NONCLUSTERED (day DESC),
    INDEX ix_qty HASH (qty) WITH (BUCKET_COUNT = 64)
) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.customers (cust varchar(10) NOT NULL PRIMARY KEY NONCLUSTERED, city varchar(10) NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
SET SHOWPLAN_TEXT ON
GO
SELECT cust, COUNT(*) AS n, SUM(qty) AS total FROM dbo.orders GROUP BY cust
SELECT day, cust, MAX(qty) AS most FROM dbo.orders WHERE qty > 1 GROUP BY day, cust ORDER BY cust, day
SELECT day, COUNT(*) AS n FROM dbo.orders GROUP BY day ORDER BY day DESC
SELECT day, COUNT(*) AS n FROM dbo.orders GROUP BY day ORDER BY day
SELECT TOP (2) cust FROM dbo.orders GROUP BY cust ORDER BY cust
SELECT o.cust, COUNT(*) AS n FROM dbo.orders AS o JOIN dbo.customers AS c ON c.cust = o.cust GROUP BY o.cust
SELECT cust, COUNT(*) AS n FROM dbo.orders GROUP BY GROUPING SETS ((cust, cust))
GO
-- Rows a Sort ordered (in a derived table with TOP) stream too, and a
-- second ORDER BY on the same column sorts nothing.
SELECT d.qty, COUNT(*) AS n FROM (SELECT TOP (5) qty FROM dbo.orders ORDER BY qty) AS d GROUP BY d.qty
SELECT d.qty FROM (SELECT TOP (5) qty FROM dbo.orders ORDER BY qty) AS d ORDER BY d.qty
GO
-- Hash aggregation: a key no range index leads with, an expression, the
-- columns of two indexes, ROLLUP, and a seek (which fixes the key anyway).
SELECT qty, COUNT(*) AS n FROM dbo.orders GROUP BY qty
SELECT UPPER(cust) AS c, COUNT(*) AS n FROM dbo.orders GROUP BY UPPER(cust)
SELECT cust, qty, COUNT(*) AS n FROM dbo.orders GROUP BY cust, qty
SELECT cust, COUNT(*) AS n FROM dbo.orders GROUP BY ROLLUP (cust)
SELECT cust, COUNT(*) AS n FROM dbo.orders WHERE id = 3 GROUP BY cust
GO
SET SHOWPLAN_TEXT OFF
GO
-- No rows: no groups.
SELECT cust, COUNT(*) AS n FROM dbo.orders GROUP BY cust
GO
INSERT INTO dbo.orders VALUES
    (1, 'a', 1, 5, 'x'), (2, 'A', 2, 1, NULL), (3, 'b', 1, 2, 'y'), (4, NULL, 3, 7, 'z'),
    (5, 'a ', 1, 3, 'x'), (6, 'c', 2, 4, NULL), (7, NULL, 1, 1, 'w'), (8, 'b', 3, 6, 'y')
INSERT INTO dbo.customers VALUES ('a', 'oslo'), ('b', 'bergen'), ('C', 'bodo')
GO
-- 'a', 'A' and 'a ' are one group; NULLs are one group, first.
SELECT UPPER(cust) AS cust, COUNT(*) AS n, SUM(qty) AS total, MIN(day) AS first_day, COUNT(DISTINCT day) AS days, AVG(qty) AS mean, COUNT(note) AS notes
FROM dbo.orders GROUP BY cust
GO
SELECT day, UPPER(cust) AS cust, MAX(qty) AS most FROM dbo.orders WHERE qty > 1 GROUP BY day, cust ORDER BY cust, day
GO
SELECT day, COUNT(*) AS n FROM dbo.orders GROUP BY day ORDER BY day DESC
GO
SELECT TOP (2) UPPER(cust) AS cust FROM dbo.orders GROUP BY cust ORDER BY cust
GO
SELECT UPPER(o.cust) AS cust, COUNT(*) AS n, MAX(c.city) AS city FROM dbo.orders AS o JOIN dbo.customers AS c ON c.cust = o.cust GROUP BY o.cust
GO
-- A subquery over each group reads another table while the groups stream.
SELECT UPPER(o.cust) AS cust, COUNT(*) AS n, (SELECT MAX(city) FROM dbo.customers AS c WHERE c.cust = o.cust) AS city
FROM dbo.orders AS o GROUP BY o.cust
GO
SELECT UPPER(cust) AS cust, SUM(day) AS days FROM dbo.orders GROUP BY cust HAVING SUM(day) > 3
GO
SELECT d.qty, COUNT(*) AS n FROM (SELECT TOP (5) qty FROM dbo.orders ORDER BY qty, id) AS d GROUP BY d.qty
GO
-- The same groups as a hash aggregate makes them.
SELECT UPPER(cust) AS cust, COUNT(*) AS n FROM dbo.orders GROUP BY cust
EXCEPT
SELECT UPPER(c) AS cust, COUNT(*) AS n FROM (SELECT cust + '' AS c FROM dbo.orders) AS d GROUP BY c
GO
-- An error while aggregating a later group comes after the earlier
-- groups went out.
SELECT day, SUM(10 / (day - 1)) AS r FROM dbo.orders GROUP BY day ORDER BY day DESC
GO
