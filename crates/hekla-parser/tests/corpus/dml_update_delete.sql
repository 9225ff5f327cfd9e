-- UPDATE and DELETE: compound assignments, variable assignment in SET, FROM/joins with alias targets, TOP, OUTPUT [INTO], TRUNCATE TABLE, and MERGE (last batch).
-- SET with plain and compound assignment operators, and @v = col = expr
DECLARE @v int, @w money;
UPDATE dbo.Counters
SET a = 1,
    b += 2,
    c -= 1,
    d *= 2,
    e /= 2,
    f %= 3,
    g &= 7,
    h |= 8,
    i ^= 1,
    @v = col = col + 1,
    @w = Price * 2,
    note = NULL,
    stamp = DEFAULT
WHERE id = 1;
GO
-- Simple updates, with and without WHERE, on memory-optimized tables, with table hints
UPDATE dbo.Orders SET Status = 2;
UPDATE dbo.Orders SET Status = Status + 1, Comment = N'bumped' WHERE OrderID IN (1, 2, 3)
UPDATE Sales.SalesOrderHeader_inmem WITH (SNAPSHOT) SET RevisionNumber += 1 WHERE SalesOrderID = 75124;
UPDATE dbo.Orders WITH (ROWLOCK, UPDLOCK) SET Status = 0 WHERE OrderID = 4;
GO
-- UPDATE ... FROM with joins, the target referenced by its alias
UPDATE o
SET o.Status = c.DefaultStatus,
    o.Freight = o.Freight * 1.1
FROM dbo.Orders AS o
INNER JOIN dbo.Customers AS c ON c.CustomerID = o.CustomerID
WHERE c.Active = 1;
UPDATE dbo.Orders
SET Freight = s.Freight
FROM dbo.Orders
JOIN dbo.ShipRates s ON s.ShipMethodID = dbo.Orders.ShipMethodID;
UPDATE t SET t.total = x.total
FROM dbo.Totals t
CROSS APPLY (SELECT SUM(Freight) AS total FROM dbo.Orders o WHERE o.CustomerID = t.CustomerID) AS x;
GO
-- UPDATE with a subquery in SET and WHERE, and UPDATE of a CTE
UPDATE dbo.Customers
SET LastOrder = (SELECT MAX(o.OrderDate) FROM dbo.Orders o WHERE o.CustomerID = dbo.Customers.CustomerID)
WHERE EXISTS (SELECT 1 FROM dbo.Orders o WHERE o.CustomerID = dbo.Customers.CustomerID);
WITH latest AS (SELECT TOP (1) * FROM dbo.Orders ORDER BY OrderDate DESC)
UPDATE latest SET Comment = N'latest';
GO
-- UPDATE TOP (n) and TOP (expr) PERCENT
DECLARE @n int = 5;
UPDATE TOP (5) dbo.Orders SET Status = 9 WHERE Status = 1;
UPDATE TOP (@n) o SET Status = 8 FROM dbo.Orders o WHERE o.Status = 9;
UPDATE TOP (10) PERCENT dbo.Orders SET Status = 7;
GO
-- UPDATE ... OUTPUT deleted/inserted values, and OUTPUT INTO
DECLARE @changes TABLE (id int, old_status tinyint, new_status tinyint);
UPDATE dbo.Orders
SET Status = 3
OUTPUT deleted.Status, inserted.Status
WHERE OrderID = 1;
UPDATE dbo.Orders
SET Status = 4
OUTPUT inserted.OrderID, deleted.Status, inserted.Status INTO @changes (id, old_status, new_status)
WHERE OrderID < 10;
UPDATE dbo.Orders SET Status = 5 OUTPUT deleted.*, inserted.* WHERE OrderID = 2;
GO
-- DELETE: with and without FROM, WHERE, hints, memory-optimized target
DELETE FROM dbo.Orders WHERE OrderID = 1;
DELETE dbo.Orders WHERE Status = 0
DELETE FROM dbo.Orders;
DELETE Sales.SalesOrderDetail_inmem WITH (SNAPSHOT) WHERE SalesOrderID = 75124;
DELETE FROM dbo.Orders WITH (TABLOCK) WHERE OrderDate < DATEADD(year, -5, GETDATE());
GO
-- DELETE t FROM t JOIN ..., alias as target, second FROM with subquery
DELETE o
FROM dbo.Orders AS o
JOIN dbo.Customers AS c ON c.CustomerID = o.CustomerID
WHERE c.Active = 0;
DELETE FROM o FROM dbo.Orders o LEFT JOIN dbo.OrderLines l ON l.OrderID = o.OrderID WHERE l.OrderID IS NULL;
DELETE dbo.Orders FROM dbo.Orders INNER JOIN dbo.Blocked b ON b.CustomerID = dbo.Orders.CustomerID;
DELETE FROM dbo.Orders WHERE OrderID IN (SELECT OrderID FROM dbo.Returns);
GO
-- DELETE TOP and DELETE with OUTPUT
DECLARE @gone TABLE (OrderID int, CustomerID int);
DELETE TOP (10) FROM dbo.Orders WHERE Status = 9;
DELETE TOP (1) dbo.Orders;
DELETE FROM dbo.Orders OUTPUT deleted.OrderID WHERE OrderID = 5;
DELETE FROM dbo.Orders
OUTPUT deleted.* INTO dbo.OrdersArchive
WHERE OrderDate < '20200101';
DELETE dbo.Orders
OUTPUT deleted.OrderID, deleted.CustomerID INTO @gone (OrderID, CustomerID)
WHERE Status = 8;
GO
-- Batched delete loop
WHILE 1 = 1
BEGIN
    DELETE TOP (1000) FROM dbo.AuditLog WHERE LoggedAt < '20200101';
    IF @@ROWCOUNT < 1000 BREAK;
END
GO
-- TRUNCATE TABLE
TRUNCATE TABLE dbo.Staging;
TRUNCATE TABLE [dbo].[Staging 2]
truncate table Staging3;
GO
-- MERGE (kept last: the parser may reject MERGE with an error)
MERGE INTO dbo.Customers AS t
USING (SELECT CustomerID, Name FROM dbo.CustomerStaging) AS s (CustomerID, Name)
ON t.CustomerID = s.CustomerID
WHEN MATCHED AND t.Name <> s.Name THEN
    UPDATE SET t.Name = s.Name, t.Modified = SYSDATETIME()
WHEN NOT MATCHED BY TARGET THEN
    INSERT (CustomerID, Name) VALUES (s.CustomerID, s.Name)
WHEN NOT MATCHED BY SOURCE THEN
    DELETE
OUTPUT $action, inserted.CustomerID, deleted.CustomerID;
GO
MERGE dbo.Inventory t USING dbo.Receipts s ON t.ProductID = s.ProductID
WHEN MATCHED THEN UPDATE SET t.Qty += s.Qty
WHEN NOT MATCHED THEN INSERT (ProductID, Qty) VALUES (s.ProductID, s.Qty);
GO
