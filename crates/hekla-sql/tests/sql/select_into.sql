-- SELECT ... INTO: a new user table (durable, defined by a generated
-- CREATE TABLE) or #temp table from a query's result columns: names,
-- types and nullability as SQL Server derives them, then the rows.
CREATE SCHEMA Sales
GO
CREATE TABLE Sales.SalesOrderDetailBig (
    SalesOrderID int NOT NULL,
    SalesOrderDetailID int NOT NULL,
    CarrierTrackingNumber nvarchar(25) NULL,
    OrderQty smallint NOT NULL,
    UnitPrice money NOT NULL,
    ModifiedDate datetime NOT NULL,
    CONSTRAINT PK_Big PRIMARY KEY NONCLUSTERED (SalesOrderID, SalesOrderDetailID)
) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO Sales.SalesOrderDetailBig VALUES
    (1, 1, N'4911-403C-98', 1, 2024.99, '20110531'),
    (1, 2, NULL, 3, 2039.99, '20110531'),
    (2, 1, N'6431-4D57-83', 2, 28.84, '20110601'),
    (3, 1, NULL, 1, 5.70, '20110602')
GO
SELECT TOP 3 * INTO Sales.SalesOrderDetailMedium FROM Sales.SalesOrderDetailBig ORDER BY SalesOrderID, SalesOrderDetailID
GO
SELECT * FROM Sales.SalesOrderDetailMedium ORDER BY SalesOrderID, SalesOrderDetailID
GO
-- The new table: the same types and nullability, no key, no index.
SELECT CAST(c.name AS varchar(24)) AS name, CAST(t.name AS varchar(10)) AS type, c.max_length, c.precision, c.scale, c.is_nullable
FROM sys.columns AS c JOIN sys.types AS t ON t.user_type_id = c.user_type_id
WHERE c.object_id = OBJECT_ID('Sales.SalesOrderDetailMedium') ORDER BY c.column_id
GO
SELECT CAST(name AS varchar(24)) AS name, type_desc FROM sys.tables WHERE name = 'SalesOrderDetailMedium'
SELECT COUNT(*) AS indexes FROM sys.indexes WHERE object_id = OBJECT_ID('Sales.SalesOrderDetailMedium') AND type > 0
GO
-- Expressions: constants are NOT NULL, functions and CAST nullable,
-- ISNULL with a NOT NULL replacement NOT NULL, operators over NOT NULL
-- columns NOT NULL.
SELECT SalesOrderID, OrderQty * 2 AS doubled, 'x' AS constant, CAST(OrderQty AS int) AS cast_qty,
       ISNULL(CarrierTrackingNumber, N'none') AS tracking, UPPER(CarrierTrackingNumber) AS upper_tracking,
       NULL AS nothing, UnitPrice + 1 AS price
INTO dbo.expressions
FROM Sales.SalesOrderDetailBig
WHERE SalesOrderID = 1
GO
SELECT * FROM dbo.expressions ORDER BY SalesOrderID, doubled
GO
SELECT CAST(c.name AS varchar(24)) AS name, CAST(t.name AS varchar(10)) AS type, c.max_length, c.precision, c.scale, c.is_nullable
FROM sys.columns AS c JOIN sys.types AS t ON t.user_type_id = c.user_type_id
WHERE c.object_id = OBJECT_ID('dbo.expressions') ORDER BY c.column_id
GO
INSERT INTO dbo.expressions (SalesOrderID, doubled, constant, tracking, price) VALUES (9, NULL, 'y', N't', 0)
GO
INSERT INTO dbo.expressions (SalesOrderID, doubled, constant, tracking, price) VALUES (9, 1, 'y', N't', 0)
SELECT SalesOrderID, cast_qty, nothing FROM dbo.expressions WHERE SalesOrderID = 9
GO
-- Joins, grouping and unions; an outer join's inner side is nullable.
SELECT d.SalesOrderID, COUNT(*) AS lines, SUM(d.UnitPrice) AS total
INTO #totals
FROM Sales.SalesOrderDetailBig AS d
GROUP BY d.SalesOrderID
SELECT * FROM #totals ORDER BY SalesOrderID
GO
SELECT 1 AS n INTO #union UNION ALL SELECT 2 UNION ALL SELECT 3
SELECT SUM(n) AS total FROM #union
GO
SELECT b.SalesOrderID, m.OrderQty INTO dbo.outer_join
FROM Sales.SalesOrderDetailBig AS b LEFT JOIN Sales.SalesOrderDetailMedium AS m
    ON m.SalesOrderID = b.SalesOrderID AND m.SalesOrderDetailID = b.SalesOrderDetailID
SELECT CAST(c.name AS varchar(24)) AS name, CAST(t.name AS varchar(10)) AS type, c.max_length, c.precision, c.scale, c.is_nullable
FROM sys.columns AS c JOIN sys.types AS t ON t.user_type_id = c.user_type_id
WHERE c.object_id = OBJECT_ID('dbo.outer_join') ORDER BY c.column_id
GO
-- An empty result still creates the table.
SELECT * INTO #empty FROM Sales.SalesOrderDetailBig WHERE 1 = 0
SELECT COUNT(*) AS n FROM #empty
GO
-- Errors: a column without a name, a repeated name, an existing table,
-- a missing schema or source; the new table is not left behind.
SELECT SalesOrderID, OrderQty + 1 INTO #unnamed FROM Sales.SalesOrderDetailBig
GO
SELECT SalesOrderID, SalesOrderID INTO #twice FROM Sales.SalesOrderDetailBig
GO
SELECT * INTO Sales.SalesOrderDetailMedium FROM Sales.SalesOrderDetailBig
GO
SELECT 1 AS a INTO nowhere.t
GO
SELECT * INTO dbo.t FROM dbo.nothing
GO
SELECT * FROM #unnamed
GO
-- A run-time error while filling: the new table goes again.
SELECT SalesOrderID, 10 / (SalesOrderID - 2) AS ratio INTO dbo.failed FROM Sales.SalesOrderDetailBig
GO
SELECT * FROM dbo.failed
GO
SELECT COUNT(*) AS tables FROM sys.tables WHERE name = 'failed'
GO
