-- A bound on the leading key column of a range index reads that stretch
-- of the index, in key order: >, >=, <, <=, BETWEEN, = on a prefix, a
-- bound on either side of the comparison, a variable's bound. The whole
-- WHERE clause still decides which rows qualify.
CREATE TABLE dbo.r (
    k varchar(20) NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    n int NULL,
    g int NOT NULL,
    INDEX ix_k NONCLUSTERED (k),
    INDEX ix_n NONCLUSTERED (n),
    INDEX ix_g_n NONCLUSTERED (g, n)
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE dbo.d (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 8),
    x int NOT NULL,
    INDEX ix_x_desc NONCLUSTERED (x DESC)
) WITH (MEMORY_OPTIMIZED = ON)
GO
SET NOCOUNT ON
INSERT INTO dbo.r VALUES ('a', 1, 1), ('B', 2, 1), ('c', 3, 2), ('abc', 4, 2), ('D', NULL, 3), ('e', 6, 3)
INSERT INTO dbo.d VALUES (1, 1), (2, 2), (3, 3)
SELECT x FROM dbo.d WHERE x > 1 ORDER BY x
GO
-- Strings compare under the column's collation (case-insensitive here)
-- and without trailing spaces, in the index as in the comparison.
SELECT k FROM dbo.r WHERE k >= 'b' ORDER BY k
SELECT k FROM dbo.r WHERE k > 'abc  ' AND k <= 'C' ORDER BY k
SELECT k FROM dbo.r WHERE 'ABC ' <= k ORDER BY k
GO
SELECT n FROM dbo.r WHERE n BETWEEN 2 AND 4
SELECT n FROM dbo.r WHERE 3 < n
SELECT n FROM dbo.r WHERE n < 3
SELECT n FROM dbo.r WHERE n > 1 AND n > 3
-- NULL bounds match nothing; NULL keys are never in a bounded range.
SELECT n FROM dbo.r WHERE n < NULL
DECLARE @none int
SELECT n FROM dbo.r WHERE n >= @none
SELECT COUNT(*) AS below_7 FROM dbo.r WHERE n < 7
GO
-- A prefix of a two-column range index.
SELECT g, n FROM dbo.r WHERE g = 2
SELECT g, n FROM dbo.r WHERE g >= 2 AND n > 3
GO
-- TOP over the index's order stops early: no sort.
DECLARE @from int = 2
SELECT TOP (2) k, n FROM dbo.r WHERE n >= @from ORDER BY n
GO
-- Changes find their rows the same way.
UPDATE dbo.r SET n = n + 10 WHERE n >= 3
SELECT k, n FROM dbo.r ORDER BY k
DELETE FROM dbo.r WHERE n > 12
SELECT k, n FROM dbo.r ORDER BY k
GO
SET SHOWPLAN_TEXT ON
GO
DECLARE @from int = 2
SELECT TOP (2) k, n FROM dbo.r WHERE n >= @from ORDER BY n
GO
SELECT n FROM dbo.r WHERE n BETWEEN 2 AND 4 AND k <> 'x'
GO
SELECT g FROM dbo.r WHERE 2 > g
GO
-- Descending leading column, a bound on a hash key, an OR: a scan.
SELECT x FROM dbo.d WHERE x > 1
GO
SELECT g FROM dbo.r WHERE g = 1 OR g = 3
GO
SELECT k FROM dbo.r WHERE k <> 'a'
GO
DELETE FROM dbo.r WHERE n < 5
GO
SET SHOWPLAN_TEXT OFF
GO
