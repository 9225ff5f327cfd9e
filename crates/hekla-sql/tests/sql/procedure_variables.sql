-- An interpreted procedure is parsed at CREATE: a variable it uses but
-- never declared (or uses before its DECLARE) fails the CREATE with Msg
-- 137 (1087 where a table belongs), on the line that uses it; the tables
-- it names are still resolved when it runs (deferred name resolution).
CREATE PROCEDURE dbo.undeclared @a int AS
  DECLARE @b int = @a
  SELECT @b + @c AS total
GO
CREATE PROCEDURE dbo.used_early AS
  SET @n = 1
  DECLARE @n int
GO
CREATE PROCEDURE dbo.no_table_variable AS
  INSERT INTO @rows VALUES (1)
GO
SELECT COUNT(*) AS created FROM sys.procedures
GO
-- Declared in a block, known after it (a variable lives for the whole
-- procedure); parameters named in an EXEC are the callee's; variables in
-- dynamic SQL belong to that batch.
CREATE PROCEDURE dbo.callee @x int, @y int OUTPUT AS SET @y = @x * 2
GO
CREATE PROCEDURE dbo.fine @a int AS
  IF @a > 0
  BEGIN
    DECLARE @doubled int
    DECLARE @seen TABLE (v int)
  END
  EXEC dbo.callee @x = @a, @y = @doubled OUTPUT
  INSERT INTO @seen VALUES (@doubled)
  EXEC sp_executesql N'SELECT @v AS v, @@NESTLEVEL AS nest', N'@v int', @v = @doubled
  SELECT v FROM @seen
GO
EXEC dbo.fine 21
GO
-- A table that does not exist yet is no error of the CREATE.
CREATE PROCEDURE dbo.deferred AS
  DECLARE @n int
  SELECT @n = COUNT(*) FROM dbo.later
  SELECT @n AS n
GO
EXEC dbo.deferred
GO
CREATE TABLE dbo.later (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
EXEC dbo.deferred
GO
-- ALTER PROCEDURE is checked the same way and keeps the old body.
ALTER PROCEDURE dbo.deferred AS
  SELECT @missing AS m
GO
EXEC dbo.deferred
GO
SELECT name FROM sys.procedures ORDER BY name
GO
-- A scalar function's body is checked the same way at CREATE FUNCTION.
CREATE FUNCTION dbo.f_undeclared (@a int) RETURNS int AS
BEGIN
  DECLARE @r int = @a
  IF @a > 0
    SET @r = @r + @b
  RETURN @r
END
GO
CREATE FUNCTION dbo.f_fine (@a int) RETURNS int AS
BEGIN
  IF @a > 0
  BEGIN
    DECLARE @r int = @a * 2
  END
  RETURN @r
END
GO
SELECT dbo.f_fine(4) AS doubled, OBJECT_ID('dbo.f_undeclared') AS missing
GO
-- A client's batch is compiled whole before any of it runs: a variable
-- it uses undeclared stops all of it, the statements before included.
PRINT 'not printed'
SELECT @nowhere AS n
GO
-- A variable lives for its batch only.
DECLARE @gone int = 1
GO
PRINT 'not printed either'
DELETE FROM @gone_table
GO
PRINT 'the next batch runs'
GO
