-- Table types: CREATE TYPE ... AS TABLE [WITH (MEMORY_OPTIMIZED = ON)],
-- DECLARE @v type (a table variable with the type's columns, keys and
-- indexes), DROP TYPE, and the catalog views that list them.
CREATE SCHEMA Sales
GO
CREATE TYPE Sales.SalesOrderDetailType_inmem AS TABLE(
  OrderQty smallint NOT NULL, ProductID int NOT NULL, SpecialOfferID int NOT NULL,
  INDEX IX_ProductID NONCLUSTERED HASH (ProductID) WITH (BUCKET_COUNT = 8)
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE dbo.products (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(20) NOT NULL)
    WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.products VALUES (7, 'bolt'), (9, 'gear')
GO
DECLARE @od Sales.SalesOrderDetailType_inmem;
INSERT INTO @od VALUES (2, 7, 1), (5, 9, 1), (1, 7, 2);
SELECT * FROM @od
SELECT p.name, SUM(o.OrderQty) AS qty FROM @od AS o JOIN dbo.products AS p ON p.id = o.ProductID
GROUP BY p.name ORDER BY p.name
UPDATE @od SET OrderQty += 10 WHERE SpecialOfferID = 2
DELETE FROM @od WHERE ProductID = 9
SELECT OrderQty, ProductID FROM @od ORDER BY OrderQty
GO
-- Each variable of the type is a table of its own; they go with the batch.
DECLARE @a Sales.SalesOrderDetailType_inmem, @b Sales.SalesOrderDetailType_inmem
INSERT INTO @a VALUES (1, 1, 1)
INSERT INTO @b OUTPUT inserted.OrderQty, inserted.ProductID, inserted.SpecialOfferID INTO @a
    SELECT OrderQty, ProductID + 1, SpecialOfferID FROM @a
SELECT (SELECT COUNT(*) FROM @a) AS a, (SELECT COUNT(*) FROM @b) AS b
GO
SELECT * FROM @a
GO
-- Keys, IDENTITY, DEFAULT and CHECK, as SQL Server allows them in table
-- types (unnamed); a one-part name is a type of dbo.
CREATE TYPE lines AS TABLE (
    line int IDENTITY(1, 1) NOT NULL PRIMARY KEY NONCLUSTERED,
    sku varchar(10) NOT NULL UNIQUE,
    qty int NOT NULL DEFAULT 1 CHECK (qty > 0),
    note nvarchar(20) NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
DECLARE @l lines
INSERT INTO @l (sku) VALUES ('a1')
INSERT INTO @l (sku, qty, note) VALUES ('b2', 3, N'three')
INSERT INTO @l (sku) VALUES ('a1')
INSERT INTO @l (sku, qty) VALUES ('c3', 0)
INSERT INTO @l (sku, qty) VALUES (NULL, 2)
SELECT * FROM @l ORDER BY line
DECLARE @d dbo.lines
SELECT COUNT(*) AS empty FROM @d
GO
-- A table type without MEMORY_OPTIMIZED = ON needs no index.
CREATE TYPE dbo.pairs AS TABLE (k int NOT NULL, v varchar(5) NULL)
GO
DECLARE @p pairs
INSERT INTO @p VALUES (1, 'one'), (2, NULL)
SELECT k, v FROM @p ORDER BY k
GO
-- What the catalog views say.
SELECT s.name AS [schema], t.name, t.system_type_id, t.max_length, t.is_nullable,
    t.is_user_defined, t.is_table_type, t.is_memory_optimized,
    CASE WHEN t.type_table_object_id = t.user_type_id THEN 'same' END AS object_id
FROM sys.table_types AS t JOIN sys.schemas AS s ON s.schema_id = t.schema_id
ORDER BY t.name
SELECT name, is_table_type FROM sys.types WHERE is_user_defined = 1 ORDER BY name
SELECT o.name, o.type, o.type_desc, o.parent_object_id
FROM sys.objects AS o JOIN sys.table_types AS t ON t.type_table_object_id = o.object_id
ORDER BY o.name
SELECT c.column_id, c.name, ty.name AS type, c.max_length, c.is_nullable, c.is_identity
FROM sys.columns AS c
JOIN sys.table_types AS t ON t.type_table_object_id = c.object_id
JOIN sys.types AS ty ON ty.user_type_id = c.user_type_id
WHERE t.name = 'lines'
ORDER BY c.column_id
GO
-- Errors at CREATE TYPE.
CREATE TYPE dbo.pairs AS TABLE (a int)
GO
CREATE TYPE dbo.noindex AS TABLE (a int NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TYPE dbo.named AS TABLE (a int NOT NULL CONSTRAINT pk_a PRIMARY KEY NONCLUSTERED)
GO
CREATE TYPE dbo.fk AS TABLE (a int NOT NULL REFERENCES dbo.products (id))
GO
CREATE TYPE dbo.durable AS TABLE (a int NOT NULL INDEX ix NONCLUSTERED) WITH (DURABILITY = SCHEMA_ONLY)
GO
CREATE TYPE nowhere.t AS TABLE (a int)
GO
CREATE TYPE otherdb.dbo.t AS TABLE (a int)
GO
CREATE SEQUENCE dbo.s
GO
CREATE TYPE dbo.numbered AS TABLE (a int NOT NULL DEFAULT NEXT VALUE FOR dbo.s)
GO
CREATE TYPE dbo.badcolumn AS TABLE (a nosuchtype)
GO
-- A table type is no column or CAST type, and takes no value in DECLARE.
CREATE TABLE dbo.nested (a dbo.pairs)
GO
SELECT CAST(1 AS dbo.pairs)
GO
DECLARE @p dbo.pairs = 1
GO
DECLARE @x Sales.NoSuchType
GO
-- Types are not objects: a table may share a type's name.
CREATE TABLE dbo.pairs (k int NOT NULL)
DROP TABLE dbo.pairs
GO
-- DDL inside a user transaction is refused, as for memory-optimized tables.
BEGIN TRANSACTION
CREATE TYPE dbo.intx AS TABLE (a int)
DROP TYPE dbo.pairs
ROLLBACK
GO
-- DROP TYPE [IF EXISTS].
DROP TYPE dbo.pairs
DROP TYPE IF EXISTS dbo.pairs
DROP TYPE Sales.SalesOrderDetailType_inmem, lines
GO
DROP TYPE dbo.pairs
GO
DECLARE @p pairs
GO
SELECT COUNT(*) AS table_types FROM sys.table_types
SELECT COUNT(*) AS tt_objects FROM sys.objects WHERE type = 'TT'
GO
-- A READONLY parameter passes on to a procedure taking the same type, also
-- through sp_executesql (how JDBC sends a call with a table-valued
-- parameter); another table type is still a clash (206).
CREATE TYPE dbo.order_lines AS TABLE (line_no int, amount decimal(10, 2))
CREATE TYPE dbo.other_lines AS TABLE (line_no int, amount decimal(10, 2))
GO
CREATE PROCEDURE dbo.sum_lines @lines dbo.order_lines READONLY
AS SELECT COUNT(*) AS line_count, SUM(amount) AS total FROM @lines
GO
CREATE PROCEDURE dbo.pass_lines @lines dbo.order_lines READONLY
AS EXEC dbo.sum_lines @lines
GO
CREATE PROCEDURE dbo.pass_other @lines dbo.other_lines READONLY
AS EXEC dbo.sum_lines @lines
GO
DECLARE @l dbo.order_lines, @o dbo.other_lines
INSERT @l VALUES (1, 1.25), (2, 10.00)
INSERT @o VALUES (1, 5.00)
EXEC dbo.pass_lines @l
EXEC sp_executesql N'EXEC dbo.sum_lines @P0', N'@P0 dbo.order_lines READONLY', @l
EXEC dbo.pass_other @o
GO
DROP PROCEDURE dbo.pass_other, dbo.pass_lines, dbo.sum_lines
DROP TYPE dbo.order_lines, dbo.other_lines
GO
