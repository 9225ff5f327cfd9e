-- SET STATISTICS IO ON: after each query or data-changing statement, a
-- line per table it read that is not memory-optimized, with its scans and
-- seeks; hekla has no pages, so every page figure is 0. Memory-optimized
-- tables get no line, as in SQL Server.
CREATE TABLE dbo.d (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int NULL)
CREATE TABLE dbo.m (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64), v int NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.d VALUES (1, 10), (2, 20), (3, 30)
INSERT INTO dbo.m VALUES (1, 10), (2, 20)
GO
SET STATISTICS IO ON
GO
SELECT COUNT(*) AS n FROM dbo.d
SELECT v FROM dbo.d WHERE id = 2
SELECT COUNT(*) AS n FROM dbo.m
-- One seek of d per row of m.
SELECT m.id, d.v FROM dbo.m JOIN dbo.d ON d.id = m.id ORDER BY m.id
UPDATE dbo.d SET v = v + 1 WHERE id = 3
PRINT 'no line for PRINT'
GO
SET STATISTICS IO OFF
SELECT COUNT(*) AS n FROM dbo.d
GO
SET STATISTICS XML ON
GO
