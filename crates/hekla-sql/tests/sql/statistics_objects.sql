-- CREATE / UPDATE / DROP STATISTICS. hekla keeps no histograms (its
-- planner does not cost plans), so a statistics object is its name,
-- columns and NORECOMPUTE, listed in sys.stats after the indexes'.
CREATE TABLE dbo.t (a int NOT NULL PRIMARY KEY NONCLUSTERED, b int NULL, c nvarchar(50) NULL, INDEX ix NONCLUSTERED (b))
    WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE STATISTICS st_c ON dbo.t (c) WITH FULLSCAN
CREATE STATISTICS st_bc ON t (b, c) WITH NORECOMPUTE
GO
SELECT s.name, s.stats_id, s.user_created, s.auto_created, s.no_recompute
FROM sys.stats AS s WHERE s.object_id = OBJECT_ID('dbo.t') ORDER BY s.stats_id
SELECT s.name, sc.stats_column_id, c.name AS column_name
FROM sys.stats AS s
JOIN sys.stats_columns AS sc ON sc.object_id = s.object_id AND sc.stats_id = s.stats_id
JOIN sys.columns AS c ON c.object_id = sc.object_id AND c.column_id = sc.column_id
WHERE s.object_id = OBJECT_ID('dbo.t') AND s.user_created = 1 ORDER BY s.stats_id, sc.stats_column_id
GO
UPDATE STATISTICS dbo.t
UPDATE STATISTICS dbo.t st_c WITH FULLSCAN
UPDATE STATISTICS t ix
GO
-- Msg 1927 (a name an index or statistics has), 1911, 1088.
CREATE STATISTICS st_c ON dbo.t (b)
GO
CREATE STATISTICS ix ON dbo.t (c)
GO
CREATE STATISTICS st_z ON dbo.t (zzz)
GO
CREATE STATISTICS st_n ON dbo.nope (b)
GO
-- A column statistics use cannot be dropped (5074, 4922).
ALTER TABLE dbo.t DROP COLUMN c
GO
-- DROP STATISTICS: 3701 for none, 3739 for an index's.
DROP STATISTICS t.st_c, dbo.t.st_bc
GO
SELECT COUNT(*) AS user_statistics FROM sys.stats WHERE object_id = OBJECT_ID('dbo.t') AND user_created = 1
GO
DROP STATISTICS dbo.t.nope
GO
DROP STATISTICS t.ix
GO
-- Not in a transaction (DDL), and DROP TABLE takes them along.
BEGIN TRANSACTION
CREATE STATISTICS st_b ON dbo.t (b)
ROLLBACK
GO
CREATE STATISTICS st_b ON dbo.t (b)
DROP TABLE dbo.t
CREATE TABLE dbo.t (a int NOT NULL PRIMARY KEY NONCLUSTERED, b int NULL) WITH (MEMORY_OPTIMIZED = ON)
CREATE STATISTICS st_b ON dbo.t (b)
SELECT name FROM sys.stats WHERE user_created = 1
GO
-- Sampling is checked and has nothing to change.
CREATE STATISTICS st_s ON dbo.t (b) WITH SAMPLE 50 PERCENT, NORECOMPUTE
CREATE STATISTICS st_r ON dbo.t (a, b) WITH SAMPLE 1000 ROWS
UPDATE STATISTICS dbo.t st_s WITH SAMPLE 10 PERCENT
SELECT name, no_recompute FROM sys.stats WHERE user_created = 1 ORDER BY stats_id
GO
CREATE STATISTICS st_x ON dbo.t (b) WITH SAMPLE 101 PERCENT
GO
CREATE STATISTICS st_x ON dbo.t (b) WITH FULLSCAN, SAMPLE 50 PERCENT
GO
CREATE STATISTICS st_x ON dbo.t (b) WITH INCREMENTAL = ON
GO
CREATE VIEW dbo.v AS SELECT a FROM dbo.t
GO
CREATE STATISTICS st_v ON dbo.v (a)
GO
-- An index may not take a statistics' name either (1913).
ALTER TABLE dbo.t ADD INDEX st_b NONCLUSTERED (a)
GO
