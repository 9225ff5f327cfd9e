-- Seed 000, "Disk-based tables": the same -Q text with _ondisk.
-- mask: rows affected
DECLARE @i AS INT = 0, @od AS Sales.SalesOrderDetailType_ondisk, @SalesOrderID AS INT, @DueDate AS DATETIME2 = sysdatetime(), @CustomerID AS INT = RAND() * 8000, @BillToAddressID AS INT = RAND() * 10000, @ShipToAddressID AS INT = RAND() * 10000, @ShipMethodID AS INT = (RAND() * 5) + 1; INSERT INTO @od SELECT OrderQty, ProductID, SpecialOfferID FROM Demo.DemoSalesOrderDetailSeed WHERE OrderID = CAST ((RAND() * 106) + 1 AS INT); WHILE (@i < 20) BEGIN EXECUTE Sales.usp_InsertSalesOrder_ondisk @SalesOrderID OUTPUT, @DueDate, @CustomerID, @BillToAddressID, @ShipToAddressID, @ShipMethodID, @od; SET @i + = 1; END
GO
SELECT COUNT(*) AS orders FROM Sales.SalesOrderHeader_ondisk
SELECT COUNT(*) AS empty_orders
FROM Sales.SalesOrderHeader_ondisk AS h
WHERE NOT EXISTS (SELECT 1 FROM Sales.SalesOrderDetail_ondisk AS d WHERE d.SalesOrderID = h.SalesOrderID)
GO
