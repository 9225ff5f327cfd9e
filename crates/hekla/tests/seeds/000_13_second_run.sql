-- Seed 000, a second run of the workload after the demo reset, then the
-- article's memory query once more (it shows memory from the deleted rows
-- reclaimed as the workload runs). The checkpoint-file query is left out
-- here: which pairs are UNDER CONSTRUCTION or PRECREATED at this moment
-- depends on the background checkpoint's timing (000_05 and 000_12 show it).
-- mask: rows affected
-- mask: MEMORYCLERK_XTP
DECLARE @i AS INT = 0, @od AS Sales.SalesOrderDetailType_inmem, @SalesOrderID AS INT, @DueDate AS DATETIME2 = SYSDATETIME(), @CustomerID AS INT = RAND() * 8000, @BillToAddressID AS INT = RAND() * 10000, @ShipToAddressID AS INT = RAND() * 10000, @ShipMethodID AS INT = (RAND() * 5) + 1; INSERT INTO @od SELECT OrderQty, ProductID, SpecialOfferID FROM Demo.DemoSalesOrderDetailSeed WHERE OrderID = CAST ((RAND() * 106) + 1 AS INT); WHILE (@i < 20) BEGIN EXECUTE Sales.usp_InsertSalesOrder_inmem @SalesOrderID OUTPUT, @DueDate, @CustomerID, @BillToAddressID, @ShipToAddressID, @ShipMethodID, @od; SET @i + = 1; END
GO
SELECT type,
       name,
       pages_kb / 1024 AS pages_MB
FROM sys.dm_os_memory_clerks
WHERE type LIKE '%xtp%';
GO
-- Check (not in the article): the reset emptied the tables, so this run's
-- 20 orders are all there are.
SELECT COUNT(*) AS orders FROM Sales.SalesOrderHeader_inmem
GO
