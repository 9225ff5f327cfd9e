-- SUM and AVG of integers and money: the result types SQL Server gives
-- (int for tinyint, smallint and int; bigint; money), NULLs skipped, and
-- the overflow error at the row that overflows.
CREATE TABLE dbo.n (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    t tinyint NULL, s smallint NULL, i int NULL, b bigint NULL, m money NULL, sm smallmoney NULL
) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.n VALUES
    (1, 255, 32767, 2147483000, 9223372036854775000, 922337203685477.0000, 214748.3647),
    (2, 1, -32768, 600, 800, 0.5807, 1),
    (3, NULL, NULL, NULL, NULL, NULL, NULL)
GO
SELECT SUM(t) AS t, SUM(s) AS s, SUM(i) AS i, SUM(b) AS b, SUM(m) AS m, SUM(sm) AS sm FROM dbo.n
SELECT AVG(t) AS t, AVG(s) AS s, AVG(b) AS b FROM dbo.n
GO
INSERT INTO dbo.n VALUES (4, 0, 0, 1000, 1000, 0.0001, 0)
GO
SELECT SUM(i) FROM dbo.n
GO
SELECT SUM(b) FROM dbo.n
GO
SELECT SUM(m) FROM dbo.n
GO
SELECT AVG(i) FROM dbo.n
GO
SELECT SUM(CAST(i AS bigint)) AS widened FROM dbo.n
GO
