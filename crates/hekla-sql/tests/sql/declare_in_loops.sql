-- A DECLARE inside a loop declares its variable once, as SQL Server
-- compiles it: every pass runs the initializer (an assignment), a
-- DECLARE without one leaves the value alone, and a table variable
-- keeps its rows. Two DECLAREs of one name are still Msg 134.
DECLARE @i int = 0, @s varchar(99) = ''
WHILE @i < 3
BEGIN
    DECLARE @k int = @i * 10
    SET @s += CAST(@k AS varchar) + ','
    SET @i += 1
END
SELECT @s AS initialized_each_pass, @k AS after_the_loop
GO
-- No initializer: the value carries over from the previous pass.
DECLARE @i int = 0, @s varchar(99) = ''
WHILE @i < 3
BEGIN
    DECLARE @n int
    SET @s += ISNULL(CAST(@n AS varchar), 'NULL') + ','
    SET @n = ISNULL(@n, 0) + 1
    SET @i += 1
END
SELECT @s AS carried_over
GO
-- A table variable declared in a loop keeps its rows from pass to pass.
SET NOCOUNT ON
DECLARE @i int = 0
WHILE @i < 3
BEGIN
    DECLARE @t TABLE (pass int)
    INSERT @t VALUES (@i)
    SELECT @i AS pass, COUNT(*) AS rows_so_far FROM @t
    SET @i += 1
END
SET NOCOUNT OFF
GO
-- The same holds for a declaration of a table type.
CREATE TYPE dbo.Passes AS TABLE (pass int)
GO
SET NOCOUNT ON
DECLARE @i int = 0
WHILE @i < 2
BEGIN
    DECLARE @p dbo.Passes
    INSERT @p VALUES (@i)
    SET @i += 1
END
SELECT COUNT(*) AS typed_rows FROM @p
SET NOCOUNT OFF
GO
-- Several declarations in one DECLARE, in a loop.
DECLARE @i int = 0
WHILE @i < 2
BEGIN
    DECLARE @a int = @i + 1, @b varchar(5) = REPLICATE('x', @i + 1)
    SELECT @a AS a, @b AS b
    SET @i += 1
END
GO
-- GOTO back over a DECLARE runs its initializer again.
DECLARE @i int = 0
again:
DECLARE @g int = 100 + @i
SET @i += 1
IF @i < 3 GOTO again
SELECT @g AS after_goto
GO
-- A second DECLARE of the same name is still an error.
DECLARE @x int = 1
DECLARE @x int = 2
GO
-- A name declared twice anywhere in the batch refuses the whole batch
-- before it runs (nothing is printed), also inside a block.
PRINT 'not printed'
DECLARE @a int = 1
IF 1 = 1 BEGIN DECLARE @A int END
GO
-- A procedure body that declares a parameter's name: Msg 134 at CREATE.
CREATE PROCEDURE dbo.twice @x int AS BEGIN DECLARE @x int END
GO
SELECT OBJECT_ID('dbo.twice') AS twice
GO
