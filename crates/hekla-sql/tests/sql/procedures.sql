-- Stored procedures: parameters (defaults, OUTPUT), RETURN status,
-- positional and named arguments, nesting, errors of the call.
CREATE TABLE dbo.orders (id int NOT NULL PRIMARY KEY NONCLUSTERED, customer varchar(20) NOT NULL, amount money NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE PROCEDURE dbo.add_order
    @id int,
    @customer varchar(20),
    @amount money = 10,
    @total money OUTPUT
AS
BEGIN
    SET NOCOUNT ON
    INSERT INTO dbo.orders VALUES (@id, @customer, @amount)
    SELECT @total = SUM(amount) FROM dbo.orders WHERE customer = @customer
    RETURN @id * 10
END
GO
DECLARE @t money, @rc int
EXEC @rc = dbo.add_order 1, 'alice', 25, @t OUTPUT
SELECT @rc AS status, @t AS total
EXEC dbo.add_order @id = 2, @customer = 'alice', @total = @t OUTPUT
SELECT @t AS total_with_default
EXECUTE add_order 3, 'bob', DEFAULT, @t OUTPUT
SELECT @t AS bob_total
SELECT id, customer, amount FROM dbo.orders ORDER BY id
GO
-- Errors of the call itself.
DECLARE @t money
EXEC dbo.no_such_procedure
EXEC dbo.add_order 4
EXEC dbo.add_order 4, 'x', 1, @t OUTPUT, 5
EXEC dbo.add_order @id = 4, 'x'
EXEC dbo.add_order 4, 'x', @nothing = 1
EXEC dbo.add_order 4, @customer = 'x', @customer = 'y'
EXEC dbo.add_order 4, 'x', 1, 5 OUTPUT
EXEC dbo.add_order 4, 'x', 1 OUTPUT, @t
PRINT 'each failed EXEC ends only itself'
GO
-- An error inside a procedure ends its statement; the procedure goes on.
CREATE PROCEDURE dbo.twice @id int AS
INSERT INTO dbo.orders VALUES (@id, 'dup', 1)
INSERT INTO dbo.orders VALUES (@id, 'dup', 1)
PRINT 'still in the procedure'
GO
EXEC dbo.twice 5
SELECT COUNT(*) AS fives FROM dbo.orders WHERE id = 5
GO
-- A missing table ends the procedure (a compile error of its scope); the
-- caller goes on, and the status is negative.
CREATE PROCEDURE dbo.broken AS
SELECT * FROM dbo.not_there
PRINT 'not printed'
GO
DECLARE @rc int
EXEC @rc = dbo.broken
SELECT @rc AS status_after_compile_error
GO
-- Nesting, @@NESTLEVEL, recursion to the limit of 32 (Msg 217).
CREATE PROCEDURE dbo.depth @n int AS
BEGIN
    IF @n > 0
    BEGIN
        DECLARE @m int = @n - 1
        EXEC dbo.depth @m
    END
    ELSE
        SELECT @@NESTLEVEL AS nest_level
END
GO
EXEC dbo.depth 3
EXEC dbo.depth 40
GO
-- TRY/CATCH around EXEC catches the procedure's error, with its name.
BEGIN TRY
    EXEC dbo.twice 6
END TRY
BEGIN CATCH
    SELECT ERROR_NUMBER() AS number, ERROR_PROCEDURE() AS [procedure], ERROR_LINE() AS line
END CATCH
BEGIN TRY
    EXEC dbo.broken
END TRY
BEGIN CATCH
    SELECT ERROR_NUMBER() AS caught_from_inner_scope
END CATCH
GO
-- A procedure that leaves @@TRANCOUNT changed: Msg 266.
CREATE PROCEDURE dbo.opens AS BEGIN TRAN
GO
EXEC dbo.opens
SELECT @@TRANCOUNT AS trancount
ROLLBACK
GO
-- CREATE OR ALTER, ALTER, DROP; the catalog views show procedures.
CREATE OR ALTER PROCEDURE dbo.hello @name nvarchar(20) = N'world' AS PRINT N'hello ' + @name
GO
EXEC dbo.hello
GO
ALTER PROCEDURE dbo.hello @name nvarchar(20) = N'again' AS PRINT N'hi ' + @name
GO
EXEC dbo.hello
EXEC dbo.hello N'you'
GO
CREATE PROCEDURE dbo.hello AS PRINT 1
GO
-- CREATE PROCEDURE must start its batch: Msg 111, and nothing of the
-- batch runs (the EXEC before it included).
EXEC dbo.hello N'not printed'
CREATE PROCEDURE dbo.second AS PRINT 2
GO
SELECT name, type, type_desc FROM sys.procedures ORDER BY name
SELECT p.name, m.definition FROM sys.procedures AS p JOIN sys.sql_modules AS m ON m.object_id = p.object_id WHERE p.name = 'hello'
SELECT pr.name, pa.name AS parameter, pa.parameter_id, t.name AS type, pa.max_length, pa.is_output
FROM sys.parameters AS pa JOIN sys.procedures AS pr ON pr.object_id = pa.object_id
JOIN sys.types AS t ON t.user_type_id = pa.user_type_id
WHERE pr.name = 'add_order' ORDER BY pa.parameter_id
DROP PROCEDURE dbo.hello
DROP PROCEDURE dbo.hello
DROP PROCEDURE IF EXISTS dbo.hello
EXEC dbo.hello
GO
-- A #temp table made in a procedure (or in dynamic SQL) goes when it
-- returns; procedures it calls see it; the caller's stay.
CREATE TABLE #outer (n int)
GO
CREATE PROCEDURE dbo.inner_reads AS SELECT COUNT(*) AS seen_by_inner FROM #made_here
GO
CREATE PROCEDURE dbo.makes_temp AS
BEGIN
    CREATE TABLE #made_here (n int)
    INSERT INTO #made_here VALUES (1), (2)
    EXEC dbo.inner_reads
    INSERT INTO #outer VALUES (3)
END
GO
EXEC dbo.makes_temp
SELECT * FROM #made_here
GO
-- Made again on each call, empty each time.
EXEC dbo.makes_temp
GO
EXEC ('CREATE TABLE #dynamic (n int)')
SELECT * FROM #dynamic
GO
SELECT COUNT(*) AS outer_rows FROM #outer
GO
-- Literal arguments and defaults: NULL and integers that fit are passed as
-- they are, and a literal of another kind is converted.
CREATE PROCEDURE dbo.literal_arguments @small tinyint = 1, @note nvarchar(10) = NULL, @big bigint = 9223372036854775807, @price money = 2
AS SELECT @small AS small, @note AS note, @big AS big, @price AS price
GO
EXEC dbo.literal_arguments
EXEC dbo.literal_arguments 255, NULL, 0, 3
GO
EXEC dbo.literal_arguments @small = 0, @note = 12
GO
