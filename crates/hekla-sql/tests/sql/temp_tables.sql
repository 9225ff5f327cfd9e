-- #temp tables: session-scoped tables in "tempdb", with or without keys,
-- found by OBJECT_ID('tempdb..#t'), dropped by DROP TABLE or with the
-- session; ##global tables; the errors SQL Server gives.
CREATE TABLE #orders (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    customer varchar(20) NOT NULL,
    amount decimal(9, 2) NULL
)
GO
INSERT INTO #orders VALUES (1, 'ada', 10.50), (2, 'bob', NULL), (3, 'ada', 7)
GO
SELECT * FROM #orders ORDER BY id
GO
SELECT customer, SUM(amount) AS total FROM tempdb..#orders GROUP BY customer ORDER BY customer
GO
UPDATE #orders SET amount = 1 WHERE amount IS NULL
GO
DELETE FROM #orders WHERE id = 3
GO
SELECT o.id, o.amount FROM #orders AS o ORDER BY o.id
GO
-- A heap: no key, no index; duplicates are fine.
CREATE TABLE #heap (a int, b varchar(5))
INSERT INTO #heap VALUES (1, 'x'), (1, 'x'), (NULL, 'y')
SELECT COUNT(*) AS n, COUNT(a) AS a FROM #heap
GO
-- Joins with user tables; the temp table outlives the batch.
CREATE TABLE dbo.customers (name varchar(20) NOT NULL PRIMARY KEY NONCLUSTERED, city varchar(20) NOT NULL)
INSERT INTO dbo.customers VALUES ('ada', 'London'), ('bob', 'Paris')
GO
SELECT c.city, o.amount FROM dbo.customers AS c JOIN #orders AS o ON o.customer = c.name ORDER BY c.city
GO
SELECT CASE WHEN OBJECT_ID('tempdb..#orders') < 0 THEN 'found' END AS in_tempdb,
       CASE WHEN OBJECT_ID('tempdb..#orders', 'U') = OBJECT_ID('tempdb.dbo.#orders') THEN 'same' END AS typed,
       OBJECT_ID('tempdb..#nothing') AS missing,
       OBJECT_ID('#orders') AS not_in_this_database
GO
-- Temp tables are not in this database's catalog.
SELECT COUNT(*) AS tables FROM sys.tables
GO
-- Errors: the name is taken, no such table, a constraint violation.
CREATE TABLE #orders (x int)
GO
SELECT * FROM #missing
GO
INSERT INTO #orders VALUES (1, 'dup', 0)
GO
DROP TABLE #missing
GO
DROP TABLE IF EXISTS #missing
GO
-- A FOREIGN KEY is skipped on a temp table, as SQL Server does.
CREATE TABLE #lines (id int NOT NULL, customer varchar(20) CONSTRAINT fk_customer REFERENCES dbo.customers (name))
INSERT INTO #lines VALUES (1, 'nobody')
SELECT * FROM #lines
GO
-- A global temp table.
CREATE TABLE ##shared (n int NOT NULL)
INSERT INTO ##shared VALUES (42)
SELECT n FROM ##shared
GO
DROP TABLE #orders, #heap
GO
SELECT * FROM #orders
GO
DROP TABLE IF EXISTS #lines
DROP TABLE ##shared
GO
CREATE TABLE #a_name_of_more_than_one_hundred_and_sixteen_characters_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx (a int)
GO
CREATE TABLE #opts (a int PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
