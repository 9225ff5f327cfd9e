-- Scalar user-defined functions: parameters and defaults, procedural
-- bodies, calls anywhere an expression goes, reads in the caller's
-- transaction, recursion, and SQL Server's errors.
CREATE TABLE dbo.prices (id int NOT NULL PRIMARY KEY NONCLUSTERED, item varchar(20) NOT NULL, price money NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
SET NOCOUNT ON
INSERT INTO dbo.prices VALUES (1, 'apple', 1.50), (2, 'pear', 2.25), (3, 'plum', NULL)
GO
CREATE FUNCTION dbo.taxed(@amount money, @rate decimal(4, 2) = 0.25)
RETURNS money
AS
BEGIN
    DECLARE @tax money = @amount * @rate
    RETURN @amount + @tax
END
GO
-- Arguments by position, DEFAULT for a parameter's default; calls in the
-- select list, WHERE and ORDER BY.
SELECT dbo.taxed(10, 0.10) AS ten_percent, dbo.taxed(10, DEFAULT) AS default_rate
SELECT id, item, dbo.taxed(price, DEFAULT) AS gross FROM dbo.prices WHERE dbo.taxed(price, 0) > 1 ORDER BY dbo.taxed(price, DEFAULT) DESC
GO
-- Control flow: WHILE, IF/ELSE, BREAK and CONTINUE.
CREATE FUNCTION dbo.digit_sum(@n bigint) RETURNS int
AS
BEGIN
    DECLARE @sum int = 0, @digit int
    WHILE 1 = 1
    BEGIN
        IF @n = 0
            BREAK
        SET @digit = @n % 10
        SET @n = @n / 10
        IF @digit = 0
            CONTINUE
        ELSE
            SET @sum += @digit
    END
    RETURN @sum
END
GO
DECLARE @s int = dbo.digit_sum(90817)
SELECT @s AS via_declare, dbo.digit_sum(1000000) AS just_one
IF dbo.digit_sum(55) = 10
    PRINT 'a condition can call a function'
GO
-- Reading tables: an assignment SELECT and a scalar subquery. The
-- function reads in the statement's transaction, so it sees what the
-- transaction has written but not committed.
CREATE FUNCTION dbo.total_price() RETURNS money
AS
BEGIN
    DECLARE @total money
    SELECT @total = SUM(price) FROM dbo.prices
    RETURN @total
END
GO
CREATE FUNCTION dbo.item_of(@id int) RETURNS varchar(20)
AS
BEGIN
    RETURN (SELECT item FROM dbo.prices WHERE id = @id)
END
GO
SELECT id, dbo.item_of(id) AS item, dbo.total_price() AS total FROM dbo.prices ORDER BY id
-- (The functions read a memory-optimized table in an explicit
-- transaction: without a hint that needs the elevate option, as in SQL
-- Server.)
ALTER DATABASE CURRENT SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON
GO
BEGIN TRANSACTION
INSERT INTO dbo.prices VALUES (4, 'fig', 10)
SELECT dbo.total_price() AS inside_transaction, dbo.item_of(4) AS new_item
ROLLBACK
SELECT dbo.total_price() AS after_rollback, dbo.item_of(4) AS gone
GO
ALTER DATABASE CURRENT SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = OFF
GO
-- In INSERT and UPDATE.
INSERT INTO dbo.prices VALUES (5, dbo.item_of(1) + '2', dbo.taxed(4, DEFAULT))
UPDATE dbo.prices SET price = dbo.taxed(price, 1) WHERE id = 5
SELECT id, item, price FROM dbo.prices WHERE id = 5
DELETE FROM dbo.prices WHERE id = 5
GO
-- The return value converts to the declared type: a string is cut, a
-- decimal truncated, an overflow is an error of the calling statement.
CREATE FUNCTION dbo.short(@s varchar(20)) RETURNS varchar(3) AS BEGIN RETURN @s END
GO
CREATE FUNCTION dbo.whole(@d decimal(5, 2)) RETURNS int AS BEGIN RETURN @d END
GO
CREATE FUNCTION dbo.tiny(@i int) RETURNS tinyint AS BEGIN RETURN @i END
GO
SELECT dbo.short('abcdef') AS cut, dbo.whole(2.75) AS truncated
SELECT dbo.tiny(300) AS overflow
PRINT 'the batch goes on'
GO
-- RETURNS NULL ON NULL INPUT: a NULL argument is the answer; the body
-- does not run.
CREATE FUNCTION dbo.plus_one(@a int) RETURNS int AS BEGIN RETURN ISNULL(@a, 0) + 1 END
GO
CREATE FUNCTION dbo.plus_one_strict(@a int) RETURNS int WITH RETURNS NULL ON NULL INPUT AS BEGIN RETURN ISNULL(@a, 0) + 1 END
GO
SELECT dbo.plus_one(NULL) AS called, dbo.plus_one_strict(NULL) AS not_called, dbo.plus_one_strict(1) AS two
GO
-- A function that reads no table can give an index seek its key; the
-- rows a query reads before calling one that reads tables are read into
-- memory first (the function shares the statement's transaction).
SET SHOWPLAN_TEXT ON
GO
SELECT item FROM dbo.prices WHERE id = dbo.whole(2.5)
SELECT id FROM dbo.prices WHERE item = dbo.item_of(2)
GO
SET SHOWPLAN_TEXT OFF
GO
SELECT item FROM dbo.prices WHERE id = dbo.whole(2.5)
SELECT id FROM dbo.prices WHERE item = dbo.item_of(2)
GO
-- Recursion, @@NESTLEVEL, and the nesting limit of 32 (Msg 217).
CREATE FUNCTION dbo.fact(@n int) RETURNS bigint
AS
BEGIN
    IF @n <= 1
        RETURN 1
    RETURN @n * dbo.fact(@n - 1)
END
GO
CREATE FUNCTION dbo.level() RETURNS int AS BEGIN RETURN @@NESTLEVEL END
GO
SELECT dbo.fact(20) AS f20, dbo.level() AS nest_level, @@NESTLEVEL AS batch_level
SELECT dbo.fact(33) AS too_deep
GO
-- Errors of the call: SQL Server resolves a one-part name to a built-in
-- only (195), an unknown two-part name is 4121, and every argument must
-- be given (313, 8144), DEFAULT only where there is a default.
SELECT fact(3)
GO
SELECT dbo.no_such_function(1)
GO
SELECT dbo.taxed(1)
GO
SELECT dbo.taxed(1, 2, 3)
GO
SELECT dbo.fact(DEFAULT)
GO
SELECT dbo.fact('three')
GO
-- An error inside the body ends the calling statement.
CREATE FUNCTION dbo.ratio(@a int, @b int) RETURNS int AS BEGIN RETURN @a / @b END
GO
SELECT dbo.ratio(6, 3) AS two
SELECT dbo.ratio(1, 0) AS divided_by_zero
PRINT 'after the failed statement'
GO
-- What a function's body may not do, refused at CREATE: side effects
-- (443), rows for the client (444), a last statement other than RETURN
-- (455), RETURN without a value (1075); OUTPUT parameters (181).
CREATE FUNCTION dbo.bad(@x int) RETURNS int AS BEGIN INSERT INTO dbo.prices VALUES (9, 'x', 1) RETURN 1 END
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS int AS BEGIN PRINT 'hello' RETURN 1 END
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS int AS BEGIN BEGIN TRY SET @x = 1 END TRY BEGIN CATCH SET @x = 2 END CATCH RETURN @x END
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS uniqueidentifier AS BEGIN RETURN NEWID() END
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS int AS BEGIN SELECT item FROM dbo.prices RETURN 1 END
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS int AS BEGIN IF @x = 1 RETURN 1 ELSE RETURN 2 END
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS int AS BEGIN IF @x = 1 RETURN RETURN 2 END
GO
CREATE FUNCTION dbo.bad(@x int OUTPUT) RETURNS int AS BEGIN RETURN 1 END
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS int WITH RECOMPILE AS BEGIN RETURN 1 END
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS int AS BEGIN EXEC dbo.nothing RETURN 1 END
GO
SELECT dbo.bad(1) AS exec_fails_when_called
GO
-- Names: 2714 for a taken name, 208 for ALTER of nothing, 2010 for ALTER
-- to another kind, 166 for a database prefix.
CREATE FUNCTION dbo.prices() RETURNS int AS BEGIN RETURN 1 END
GO
ALTER FUNCTION dbo.missing() RETURNS int AS BEGIN RETURN 1 END
GO
ALTER FUNCTION dbo.fact(@n int) RETURNS TABLE AS RETURN (SELECT @n AS n)
GO
CREATE FUNCTION hekla.dbo.f() RETURNS int AS BEGIN RETURN 1 END
GO
-- CREATE OR ALTER and ALTER replace the body and keep the object id.
SELECT OBJECT_ID('dbo.short') AS id INTO #before
GO
ALTER FUNCTION dbo.short(@s varchar(20)) RETURNS varchar(5) AS BEGIN RETURN UPPER(@s) END
GO
SELECT dbo.short('abcdef') AS altered, CASE WHEN OBJECT_ID('dbo.short', 'FN') = (SELECT id FROM #before) THEN 'same id' END AS id
GO
CREATE OR ALTER FUNCTION dbo.short(@s varchar(20)) RETURNS varchar(20) AS BEGIN RETURN REVERSE(@s) END
GO
SELECT dbo.short('abcdef') AS created_or_altered
GO
-- The catalog: sys.objects, sys.sql_modules, sys.parameters (the return
-- value is parameter 0, without a name).
SELECT o.name, o.type, o.type_desc, m.is_schema_bound, m.null_on_null_input
FROM sys.objects AS o JOIN sys.sql_modules AS m ON m.object_id = o.object_id
WHERE o.type = 'FN' ORDER BY o.name
SELECT p.name, p.parameter_id, t.name AS type_name, p.precision, p.scale, p.is_output
FROM sys.parameters AS p JOIN sys.types AS t ON t.user_type_id = p.user_type_id
WHERE p.object_id = OBJECT_ID('dbo.taxed') ORDER BY p.parameter_id
SELECT definition FROM sys.sql_modules WHERE object_id = OBJECT_ID('dbo.short')
GO
-- WITH SCHEMABINDING: the tables a function names cannot be dropped
-- (3729); a schema-bound view may call only a schema-bound function
-- (4513).
CREATE TABLE dbo.rates (code char(3) NOT NULL PRIMARY KEY NONCLUSTERED, rate decimal(6, 4) NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.rates VALUES ('EUR', 1.0800)
GO
CREATE FUNCTION dbo.rate_of(@code char(3)) RETURNS decimal(6, 4) WITH SCHEMABINDING
AS
BEGIN
    RETURN (SELECT rate FROM dbo.rates WHERE code = @code)
END
GO
SELECT dbo.rate_of('EUR') AS eur, dbo.rate_of('XYZ') AS unknown
DROP TABLE dbo.rates
GO
CREATE VIEW dbo.taxed_prices WITH SCHEMABINDING AS SELECT id, dbo.taxed(price, 0.5) AS gross FROM dbo.prices
GO
CREATE VIEW dbo.priced_items AS SELECT id, dbo.item_of(id) AS item, dbo.rate_of('EUR') AS rate FROM dbo.prices
GO
SELECT id, item, rate FROM dbo.priced_items ORDER BY id
GO
-- A natively compiled function: an atomic block, schema-bound.
CREATE FUNCTION dbo.native_square(@x int NOT NULL) RETURNS int
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @r int NOT NULL = @x * @x
    RETURN @r
END
GO
SELECT dbo.native_square(12) AS square
GO
-- DDL is refused inside a user transaction (12331); DROP FUNCTION,
-- IF EXISTS, and 3701 for a missing one.
BEGIN TRANSACTION
GO
CREATE FUNCTION dbo.in_tran() RETURNS int AS BEGIN RETURN 1 END
GO
ROLLBACK
GO
-- CREATE FUNCTION must start its batch (Msg 111; nothing of it runs).
PRINT 'not printed'
CREATE FUNCTION dbo.second() RETURNS int AS BEGIN RETURN 2 END
GO
DROP FUNCTION dbo.plus_one, dbo.plus_one_strict
DROP FUNCTION IF EXISTS dbo.plus_one
DROP FUNCTION dbo.plus_one
SELECT COUNT(*) AS plus_ones FROM sys.objects WHERE name LIKE 'plus_one%'
GO
