-- INSERT: VALUES (single/multi-row), INTO optional, table hints, column lists, INSERT ... SELECT / EXEC / DEFAULT VALUES, OUTPUT [INTO], INSERT TOP, SELECT ... INTO, table variables.
-- VALUES, with and without INTO and column lists, multi-row
INSERT INTO dbo.Orders (OrderID, CustomerID, OrderDate) VALUES (1, 10, '2024-01-01');
INSERT dbo.Orders (OrderID, CustomerID, OrderDate) VALUES (2, 10, SYSDATETIME());
INSERT INTO dbo.Orders VALUES (3, 11, '20240102', NULL, DEFAULT);
INSERT INTO dbo.Orders (OrderID, CustomerID, OrderDate)
VALUES (4, 12, '20240103'),
       (5, 12, '20240104'),
       (6, NULL, DEFAULT);
insert into dbo.Orders(OrderID,CustomerID)values(7,13)
GO
-- Table hints on the target, bracketed/quoted names, column list in odd spacing
INSERT INTO dbo.Orders WITH (TABLOCK) (OrderID, CustomerID) VALUES (8, 14);
INSERT INTO [dbo].[Order Details] WITH (TABLOCKX, HOLDLOCK) ( [Order ID] , [Unit Price] ) VALUES ( 1 , $9.99 );
INSERT "dbo"."Orders" ("OrderID") VALUES (9);
GO
-- Memory-optimized target
INSERT INTO Sales.SalesOrderDetail_inmem (SalesOrderID, OrderQty, ProductID, SpecialOfferID, UnitPrice, ModifiedDate)
VALUES (75124, 1, 707, 1, 34.99, SYSDATETIME());
GO
-- INSERT ... SELECT (with joins, TOP, ORDER BY, UNION, CTE)
INSERT INTO dbo.OrdersArchive (OrderID, CustomerID, OrderDate)
SELECT o.OrderID, o.CustomerID, o.OrderDate
FROM dbo.Orders AS o
JOIN dbo.Customers AS c ON c.CustomerID = o.CustomerID
WHERE o.OrderDate < '20200101';
INSERT dbo.A (id) SELECT TOP (100) id FROM dbo.B ORDER BY id;
INSERT INTO dbo.A (id) SELECT id FROM dbo.B UNION ALL SELECT id FROM dbo.C;
INSERT INTO dbo.A WITH (TABLOCK) SELECT * FROM dbo.B OPTION (MAXDOP 1);
GO
WITH src AS (SELECT id FROM dbo.B WHERE id > 10)
INSERT INTO dbo.A (id)
SELECT id FROM src;
GO
-- INSERT ... EXEC (procedure with parameters, dynamic SQL)
INSERT INTO #results (name, value)
EXEC dbo.usp_GetSettings @Section = N'main', @Verbose = 1;
INSERT #results EXECUTE dbo.usp_GetSettings;
INSERT INTO #results (name, value) EXEC ('SELECT name, value FROM dbo.Settings');
INSERT INTO #results EXEC sp_executesql N'SELECT @n, 1', N'@n sysname', @n = N'x';
GO
-- DEFAULT VALUES
INSERT INTO dbo.AuditLog DEFAULT VALUES;
INSERT dbo.AuditLog DEFAULT VALUES
GO
-- OUTPUT: inserted.*, selected columns and expressions, OUTPUT ... INTO a table variable with a column list
DECLARE @ids TABLE (id int NOT NULL, created datetime2 NULL);
INSERT INTO dbo.Orders (OrderID, CustomerID)
OUTPUT inserted.*
VALUES (100, 1);
INSERT INTO dbo.Orders (OrderID, CustomerID)
OUTPUT inserted.OrderID, inserted.CustomerID * 2 AS double_cust, SYSDATETIME() AS at
SELECT OrderID + 1000, CustomerID FROM dbo.OrdersArchive;
INSERT INTO dbo.Orders (OrderID, CustomerID)
OUTPUT inserted.OrderID INTO @ids(id)
VALUES (101, 2), (102, 3);
INSERT INTO dbo.Orders (OrderID, CustomerID)
OUTPUT inserted.OrderID, SYSDATETIME() INTO @ids (id, created)
OUTPUT inserted.OrderID
VALUES (103, 4);
SELECT * FROM @ids;
GO
-- OUTPUT INTO a permanent table
INSERT INTO dbo.Orders (OrderID, CustomerID)
OUTPUT inserted.OrderID, N'insert' INTO dbo.AuditLog (OrderID, Action)
VALUES (104, 5);
GO
-- INSERT TOP (n) INTO ... SELECT, TOP with PERCENT
DECLARE @n int = 3;
INSERT TOP (10) INTO dbo.A (id) SELECT id FROM dbo.B;
INSERT TOP (@n) dbo.A (id) SELECT id FROM dbo.B;
INSERT TOP (10) PERCENT INTO dbo.A SELECT id FROM dbo.B;
GO
-- SELECT ... INTO temp tables and a new permanent table
SELECT * INTO #t FROM dbo.Orders;
SELECT OrderID, CAST(NULL AS int) AS extra INTO #t2 FROM dbo.Orders WHERE 1 = 0;
SELECT TOP (0) * INTO dbo.Orders_empty FROM dbo.Orders;
SELECT o.OrderID, c.Name INTO ##shared FROM dbo.Orders o JOIN dbo.Customers c ON c.CustomerID = o.CustomerID;
GO
-- INSERT INTO table variables (declared table and memory-optimized table type)
DECLARE @t TABLE (id int PRIMARY KEY, name nvarchar(50) DEFAULT N'?');
DECLARE @od Sales.SalesOrderDetailType_inmem;
INSERT INTO @t (id, name) VALUES (1, N'a'), (2, N'b');
INSERT @t (id) SELECT OrderID FROM dbo.Orders WHERE OrderID > 2;
INSERT INTO @od (OrderQty, ProductID, SpecialOfferID) VALUES (1, 707, 1), (3, 708, 1);
INSERT INTO @od SELECT OrderQty, ProductID, SpecialOfferID FROM Demo.DemoSalesOrderDetailSeed WHERE OrderID = 1;
SELECT * FROM @t;
SELECT * FROM @od;
GO
