-- Natively compiled procedures: one atomic block with its required
-- options, schema binding, NOT NULL parameters and variables, READONLY
-- table-valued parameters.
CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
CREATE TYPE dbo.ids AS TABLE (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE PROCEDURE dbo.add_ids @ids dbo.ids READONLY, @v int NOT NULL, @added int OUTPUT
WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @before int NOT NULL = 0
    SELECT @before = COUNT(*) FROM dbo.t
    INSERT INTO dbo.t (id, v) SELECT id, @v FROM @ids
    SELECT @added = COUNT(*) - @before FROM dbo.t
END
GO
DECLARE @ids dbo.ids, @n int
INSERT INTO @ids VALUES (1), (2), (3)
EXEC dbo.add_ids @ids, 10, @n OUTPUT
SELECT @n AS added, @@TRANCOUNT AS trancount
-- A duplicate key fails the whole block: nothing of this call stays.
DELETE FROM @ids
INSERT INTO @ids VALUES (4), (1)
EXEC dbo.add_ids @ids, 20, @n OUTPUT
SELECT COUNT(*) AS rows_after_failed_call FROM dbo.t
EXEC dbo.add_ids @ids, NULL, @n OUTPUT
GO
-- Inside a user transaction the block is a savepoint: its failure undoes
-- only the block, and the transaction goes on.
DECLARE @ids dbo.ids, @n int
BEGIN TRAN
INSERT INTO dbo.t VALUES (50, 0)
INSERT INTO @ids VALUES (51), (1)
EXEC dbo.add_ids @ids, 0, @n OUTPUT
SELECT @@TRANCOUNT AS trancount, XACT_STATE() AS xact_state
COMMIT
SELECT id FROM dbo.t WHERE id >= 50
GO
-- Schema binding: a table a native procedure names cannot be dropped; a
-- table type a procedure takes cannot be dropped either.
DROP TABLE dbo.t
DROP TYPE dbo.ids
GO
-- A READONLY parameter cannot be changed.
CREATE PROCEDURE dbo.change_ids @ids dbo.ids READONLY AS DELETE FROM @ids
GO
DECLARE @ids dbo.ids
INSERT INTO @ids VALUES (1)
EXEC dbo.change_ids @ids
SELECT COUNT(*) AS still_there FROM @ids
GO
-- What SQL Server requires of a natively compiled procedure.
CREATE PROCEDURE dbo.bad1 WITH NATIVE_COMPILATION, SCHEMABINDING AS SELECT 1
GO
CREATE PROCEDURE dbo.bad2 WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (LANGUAGE = N'us_english') SELECT 1 END
GO
CREATE PROCEDURE dbo.bad3 WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT) SELECT 1 END
GO
CREATE PROCEDURE dbo.bad4 @ids dbo.ids AS SELECT 1
GO
CREATE PROCEDURE dbo.bad5 @n int READONLY AS SELECT 1
GO
CREATE PROCEDURE dbo.bad6 AS BEGIN DECLARE @x int NOT NULL = 1 END
GO
EXEC dbo.bad6
GO
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english') SELECT 1 END
GO
SELECT name, uses_native_compilation, is_schema_bound FROM sys.sql_modules AS m JOIN sys.objects AS o ON o.object_id = m.object_id ORDER BY name
GO
-- A table-valued parameter takes only a variable of its own table type.
CREATE TYPE dbo.other_ids AS TABLE (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
DECLARE @other dbo.other_ids, @n int, @x int = 1
DECLARE @plain TABLE (id int)
EXEC dbo.add_ids @other, 1, @n OUTPUT
EXEC dbo.add_ids @plain, 1, @n OUTPUT
EXEC dbo.add_ids @x, 1, @n OUTPUT
EXEC dbo.add_ids 5, 1, @n OUTPUT
GO
