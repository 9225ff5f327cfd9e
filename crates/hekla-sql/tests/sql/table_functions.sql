-- Inline table-valued functions: parameterised views, called in FROM,
-- joined, applied to each row of a table (CROSS / OUTER APPLY), nested,
-- schema-bound, and SQL Server's errors.
CREATE TABLE dbo.customers (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(20) NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.orders (id int NOT NULL PRIMARY KEY NONCLUSTERED, customer int NOT NULL, amount money NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
SET NOCOUNT ON
INSERT INTO dbo.customers VALUES (1, 'alice'), (2, 'bob'), (3, 'carol')
INSERT INTO dbo.orders VALUES (10, 1, 25), (11, 1, 5), (12, 2, 40), (13, 2, 2.5), (14, 1, 12)
GO
CREATE FUNCTION dbo.orders_of(@customer int, @at_least money = 0)
RETURNS TABLE
AS
RETURN (SELECT id, amount FROM dbo.orders WHERE customer = @customer AND amount >= @at_least)
GO
-- Called like a table: with or without an alias, a column list, a
-- one-part name (as SQL Server allows for table-valued functions).
SELECT * FROM dbo.orders_of(1, DEFAULT) ORDER BY id
SELECT o.id FROM dbo.orders_of(1, 10) AS o ORDER BY o.id
SELECT order_id, value FROM orders_of(2, 0) AS o (order_id, value) ORDER BY order_id
SELECT COUNT(*) AS orders, SUM(amount) AS total FROM dbo.orders_of(2, DEFAULT)
GO
-- Parameters are values: expressions and variables as arguments.
DECLARE @who int = 1
SELECT id FROM dbo.orders_of(@who + 1, 10 * 2) ORDER BY id
GO
-- Joined with a table; APPLY passes a column of each row as argument.
SELECT c.name, o.id, o.amount
FROM dbo.customers AS c JOIN dbo.orders_of(1, 0) AS o ON c.id = 1
ORDER BY o.id
SELECT c.name, o.id, o.amount
FROM dbo.customers AS c CROSS APPLY dbo.orders_of(c.id, 10) AS o
ORDER BY c.name, o.id
SELECT c.name, o.id
FROM dbo.customers AS c OUTER APPLY dbo.orders_of(c.id, 20) AS o
ORDER BY c.name
GO
-- A function in a subquery, with an argument from the outer query.
SELECT c.name,
       (SELECT MAX(amount) FROM dbo.orders_of(c.id, DEFAULT)) AS largest
FROM dbo.customers AS c
WHERE EXISTS (SELECT 1 FROM dbo.orders_of(c.id, DEFAULT))
ORDER BY c.name
GO
-- Functions calling functions; a parameter read inside a correlated
-- subquery of the function's query.
CREATE FUNCTION dbo.big_spenders(@threshold money)
RETURNS TABLE
AS
RETURN
    SELECT c.id, c.name, t.total
    FROM dbo.customers AS c
    CROSS APPLY (SELECT SUM(amount) AS total FROM dbo.orders_of(c.id, DEFAULT)) AS t
    WHERE t.total >= @threshold
      AND EXISTS (SELECT 1 FROM dbo.orders AS o WHERE o.customer = c.id AND o.amount * 2 >= @threshold)
GO
SELECT id, name, total FROM dbo.big_spenders(40) ORDER BY id
SELECT id, name, total FROM dbo.big_spenders(42.25) ORDER BY id
GO
-- A scalar function and an inline function together.
CREATE FUNCTION dbo.order_count(@customer int) RETURNS int
AS
BEGIN
    RETURN (SELECT COUNT(*) FROM dbo.orders_of(@customer, DEFAULT))
END
GO
SELECT name, dbo.order_count(id) AS orders FROM dbo.customers ORDER BY id
GO
-- A function's parameters passed on to the functions it calls.
CREATE FUNCTION dbo.summary(@customer int, @at_least money)
RETURNS TABLE
AS
RETURN (SELECT dbo.order_count(@customer) AS all_orders, COUNT(*) AS large_orders
        FROM dbo.orders_of(@customer, @at_least))
GO
SELECT c.name, s.all_orders, s.large_orders
FROM dbo.customers AS c CROSS APPLY dbo.summary(c.id, 10) AS s
ORDER BY c.id
GO
-- Errors of the call.
SELECT * FROM dbo.orders_of
GO
SELECT * FROM dbo.customers(1)
GO
SELECT * FROM dbo.nothing(1)
GO
SELECT * FROM dbo.orders_of(1)
GO
SELECT * FROM dbo.orders_of(1, 2, 3)
GO
SELECT * FROM dbo.order_count(1)
GO
SELECT dbo.orders_of(1, 0)
GO
SELECT * FROM dbo.customers AS c JOIN dbo.orders_of(c.id, 0) AS o ON 1 = 1
GO
-- Errors at CREATE: a column without a name (4514) or named twice
-- (4506), ORDER BY without TOP (1033), an undeclared variable (137),
-- an option only scalar functions take (487), multi-statement table
-- functions (not built yet).
CREATE FUNCTION dbo.bad(@x int) RETURNS TABLE AS RETURN (SELECT @x + 1)
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS TABLE AS RETURN (SELECT @x AS a, @x AS a)
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS TABLE AS RETURN (SELECT id FROM dbo.orders ORDER BY id)
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS TABLE AS RETURN (SELECT @y AS y)
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS TABLE WITH RETURNS NULL ON NULL INPUT AS RETURN (SELECT @x AS x)
GO
CREATE FUNCTION dbo.bad(@x int) RETURNS @t TABLE (a int) AS BEGIN INSERT INTO @t VALUES (@x) RETURN END
GO
-- A function may not reach itself (4429); one whose table is gone fails
-- where it is used (4413).
CREATE FUNCTION dbo.loop(@x int) RETURNS TABLE AS RETURN (SELECT @x AS x)
GO
ALTER FUNCTION dbo.loop(@x int) RETURNS TABLE AS RETURN (SELECT x FROM dbo.loop(@x))
GO
CREATE TABLE dbo.scratch (a int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE FUNCTION dbo.scratch_rows() RETURNS TABLE AS RETURN (SELECT a FROM dbo.scratch)
GO
DROP TABLE dbo.scratch
SELECT * FROM dbo.scratch_rows()
GO
-- WITH SCHEMABINDING: two-part names only (4512), no * (1054); the tables it reads
-- cannot be dropped (3729), nor can it be altered while a schema-bound
-- view uses it.
CREATE FUNCTION dbo.bound(@customer int) RETURNS TABLE WITH SCHEMABINDING
AS RETURN (SELECT id, amount FROM orders WHERE customer = @customer)
GO
CREATE FUNCTION dbo.bound(@customer int) RETURNS TABLE WITH SCHEMABINDING
AS RETURN (SELECT * FROM dbo.orders WHERE customer = @customer)
GO
CREATE FUNCTION dbo.bound(@customer int) RETURNS TABLE WITH SCHEMABINDING
AS RETURN (SELECT id, amount FROM dbo.orders WHERE customer = @customer)
GO
CREATE VIEW dbo.alice_orders WITH SCHEMABINDING AS SELECT id, amount FROM dbo.bound(1)
GO
DROP TABLE dbo.orders
GO
ALTER FUNCTION dbo.bound(@customer int) RETURNS TABLE WITH SCHEMABINDING
AS RETURN (SELECT id FROM dbo.orders WHERE customer = @customer)
GO
DROP FUNCTION dbo.bound
GO
SELECT id, amount FROM dbo.alice_orders ORDER BY id
GO
-- The catalog: sys.objects, sys.sql_modules, sys.parameters (no return
-- value row for a table-valued function), OBJECT_ID.
SELECT o.name, o.type, o.type_desc, m.is_schema_bound
FROM sys.objects AS o JOIN sys.sql_modules AS m ON m.object_id = o.object_id
WHERE o.type = 'IF' ORDER BY o.name
SELECT p.name, p.parameter_id FROM sys.parameters AS p
WHERE p.object_id = OBJECT_ID('dbo.orders_of', 'IF') ORDER BY p.parameter_id
GO
-- SHOWPLAN shows the function's query in place of the call.
SET SHOWPLAN_TEXT ON
GO
SELECT id FROM dbo.orders_of(1, DEFAULT)
GO
SET SHOWPLAN_TEXT OFF
GO
DROP VIEW dbo.alice_orders
DROP FUNCTION dbo.bound, dbo.big_spenders, dbo.summary
SELECT name FROM sys.objects WHERE type = 'IF' ORDER BY name
GO
