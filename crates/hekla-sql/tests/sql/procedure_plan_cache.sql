-- Stored procedures keep their statements' plans between calls; a kept
-- plan is made again when the schema changes, and never carries one
-- call's tables, TOP count, variables or runtime values into the next.
CREATE TABLE dbo.Items (Id int NOT NULL PRIMARY KEY NONCLUSTERED, Name nvarchar(20) NOT NULL)
INSERT INTO dbo.Items VALUES (1, N'one'), (2, N'two'), (3, N'three')
GO
CREATE PROCEDURE dbo.ReadItems AS SELECT * FROM dbo.Items ORDER BY Id
GO
EXEC dbo.ReadItems
GO
-- A column added: the next call's SELECT * shows it.
ALTER TABLE dbo.Items ADD Price int NULL
GO
EXEC dbo.ReadItems
GO
-- The table dropped: Msg 208 when the procedure runs (deferred name
-- resolution); created again, the procedure reads the new table.
DROP TABLE dbo.Items
GO
EXEC dbo.ReadItems
GO
CREATE TABLE dbo.Items (Id int NOT NULL PRIMARY KEY NONCLUSTERED, Label varchar(10) NOT NULL)
INSERT INTO dbo.Items VALUES (7, 'seven')
GO
EXEC dbo.ReadItems
GO
-- A table-valued parameter and a table variable are new tables on every
-- call: each call reads its own.
CREATE TYPE dbo.IdList AS TABLE (Id int NOT NULL, INDEX ix_id NONCLUSTERED HASH (Id) WITH (BUCKET_COUNT = 8)) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE PROCEDURE dbo.SumIds @ids dbo.IdList READONLY, @extra int AS
BEGIN
    DECLARE @copy TABLE (Id int NOT NULL)
    INSERT INTO @copy SELECT Id FROM @ids
    INSERT INTO @copy VALUES (@extra)
    SELECT SUM(Id) AS total, COUNT(*) AS n FROM @copy
    SELECT i.Id FROM @ids AS i JOIN dbo.Items AS t ON t.Id = i.Id
END
GO
DECLARE @a dbo.IdList
INSERT INTO @a VALUES (1), (2)
EXEC dbo.SumIds @a, 10
DECLARE @b dbo.IdList
INSERT INTO @b VALUES (7), (100), (1000)
EXEC dbo.SumIds @b, 20
EXEC dbo.SumIds @a, 30
GO
-- TOP (@n): the count is the one of each call.
CREATE TABLE dbo.Numbers (N int NOT NULL PRIMARY KEY NONCLUSTERED)
INSERT INTO dbo.Numbers VALUES (1), (2), (3), (4), (5)
GO
CREATE PROCEDURE dbo.FirstNumbers @n int, @skip int AS
BEGIN
    SELECT TOP (@n) N FROM dbo.Numbers ORDER BY N
    SELECT N FROM dbo.Numbers ORDER BY N OFFSET @skip ROWS FETCH NEXT @n ROWS ONLY
END
GO
EXEC dbo.FirstNumbers 1, 0
EXEC dbo.FirstNumbers 3, 2
GO
-- A DECLARE in a branch not taken: the variables after it have other
-- slots on the calls that take it.
CREATE PROCEDURE dbo.Branches @take bit AS
BEGIN
    IF @take = 1
    BEGIN
        DECLARE @first int = 100
    END
    DECLARE @second varchar(10) = 'second'
    SELECT @second AS second, N FROM dbo.Numbers WHERE N = 1
END
GO
EXEC dbo.Branches 0
EXEC dbo.Branches 1
EXEC dbo.Branches 0
GO
-- NEWID() and SYSDATETIME() are computed on every call.
CREATE TABLE dbo.Stamps (Id uniqueidentifier NOT NULL PRIMARY KEY NONCLUSTERED, At datetime2 NOT NULL)
GO
CREATE PROCEDURE dbo.Stamp AS INSERT INTO dbo.Stamps VALUES (NEWID(), SYSDATETIME())
GO
EXEC dbo.Stamp
WAITFOR DELAY '00:00:00.020'
EXEC dbo.Stamp
SELECT COUNT(DISTINCT Id) AS ids, COUNT(DISTINCT At) AS times FROM dbo.Stamps
GO
-- ALTER PROCEDURE: the new body runs.
ALTER PROCEDURE dbo.ReadItems AS SELECT COUNT(*) AS items FROM dbo.Items
GO
EXEC dbo.ReadItems
GO
-- A SET option the plan depends on (ROWCOUNT) changed between calls.
CREATE PROCEDURE dbo.AllNumbers AS SELECT N FROM dbo.Numbers ORDER BY N
GO
EXEC dbo.AllNumbers
SET ROWCOUNT 2
EXEC dbo.AllNumbers
SET ROWCOUNT 0
EXEC dbo.AllNumbers
GO
