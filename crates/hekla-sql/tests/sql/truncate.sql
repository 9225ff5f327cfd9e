-- TRUNCATE TABLE empties a table that is not memory-optimized (SQL
-- Server's disk-based tables: hekla keeps them in memory too) and starts
-- its IDENTITY again at the seed.
CREATE TABLE dbo.d (id int IDENTITY(100, 10) NOT NULL, a int NULL)
GO
INSERT INTO dbo.d (a) VALUES (1), (2), (3)
SELECT id, a FROM dbo.d ORDER BY id
GO
TRUNCATE TABLE dbo.d
SELECT @@ROWCOUNT AS rowcount_after, COUNT(*) AS left_over FROM dbo.d
SELECT last_value FROM sys.identity_columns WHERE object_id = OBJECT_ID('dbo.d')
GO
INSERT INTO dbo.d (a) VALUES (4), (5)
SELECT id, a FROM dbo.d ORDER BY id
GO
-- Inside a transaction it rolls back: the rows and the IDENTITY come back.
BEGIN TRANSACTION
TRUNCATE TABLE d
SELECT COUNT(*) AS inside FROM d
INSERT INTO d (a) VALUES (6)
SELECT id, a FROM d
ROLLBACK
SELECT id, a FROM d ORDER BY id
INSERT INTO d (a) VALUES (7)
SELECT id, a FROM d ORDER BY id
GO
-- ... and commits with it, also back to a savepoint.
BEGIN TRANSACTION
SAVE TRANSACTION before_truncate
TRUNCATE TABLE d
ROLLBACK TRANSACTION before_truncate
SELECT COUNT(*) AS kept FROM d
TRUNCATE TABLE d
COMMIT
INSERT INTO d (a) VALUES (8)
SELECT id, a FROM d
GO
-- A table without IDENTITY, a #temp table.
CREATE TABLE #t (a int)
INSERT INTO #t VALUES (1), (2)
TRUNCATE TABLE #t
SELECT COUNT(*) AS temp_rows FROM #t
GO
-- Refused: memory-optimized tables (10794), tables another table's
-- foreign key references (4712; a key of its own does not count), views
-- (4708), what does not exist (4701).
CREATE TABLE dbo.m (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.m VALUES (1, 1)
GO
TRUNCATE TABLE dbo.m
GO
SELECT COUNT(*) AS still_there FROM dbo.m
GO
CREATE TABLE dbo.parent (id int NOT NULL PRIMARY KEY NONCLUSTERED, boss int NULL REFERENCES dbo.parent (id))
CREATE TABLE dbo.child (id int NOT NULL PRIMARY KEY NONCLUSTERED, parent int NULL REFERENCES dbo.parent (id))
INSERT INTO dbo.parent VALUES (1, NULL)
GO
TRUNCATE TABLE dbo.parent
GO
TRUNCATE TABLE dbo.child
SELECT COUNT(*) AS parent_rows FROM dbo.parent
GO
CREATE VIEW dbo.v AS SELECT a FROM dbo.d
GO
TRUNCATE TABLE dbo.v
GO
TRUNCATE TABLE dbo.nosuch
GO
