-- Recursive CTEs: anchor UNION ALL recursive members, run until a step
-- makes no rows; MAXRECURSION (default 100), and SQL Server's errors.
CREATE TABLE dbo.staff (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(10) NOT NULL, boss int NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.staff VALUES (1, 'ceo', NULL), (2, 'cto', 1), (3, 'cfo', 1), (4, 'dev', 2), (5, 'ops', 2), (6, 'intern', 4)
GO
WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n WHERE i < 5)
SELECT i FROM n
GO
WITH chain (id, name, depth, path) AS (
    SELECT id, name, 0, CAST(name AS varchar(100)) FROM dbo.staff WHERE boss IS NULL
    UNION ALL
    SELECT s.id, s.name, c.depth + 1, CAST(c.path + '/' + s.name AS varchar(100))
    FROM dbo.staff AS s JOIN chain AS c ON s.boss = c.id
)
SELECT id, name, depth, path FROM chain ORDER BY path
GO
WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n WHERE i < 200)
SELECT COUNT(*) AS rows_made FROM n
GO
WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n WHERE i < 200)
SELECT COUNT(*) AS rows_made FROM n OPTION (MAXRECURSION 300)
GO
WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n WHERE i < 101)
SELECT MAX(i) AS last FROM n
GO
WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n)
SELECT TOP (3) i FROM n OPTION (MAXRECURSION 10)
GO
WITH n AS (SELECT 1 AS i UNION SELECT i + 1 FROM n WHERE i < 3) SELECT i FROM n
GO
WITH n AS (SELECT i + 1 AS i FROM n UNION ALL SELECT i FROM n) SELECT i FROM n
GO
WITH n AS (SELECT 1 AS i UNION ALL SELECT CAST(i + 1 AS bigint) FROM n WHERE i < 3) SELECT i FROM n
GO
SELECT 1 OPTION (MAXRECURSION 40000)
GO
SET SHOWPLAN_TEXT ON
GO
WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n
GO
SET SHOWPLAN_TEXT OFF
GO
