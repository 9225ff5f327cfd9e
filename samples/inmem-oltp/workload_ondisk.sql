-- The sample's workload on the disk-based tables (workload_inmem.sql with
-- its two _inmem names made _ondisk): build one of the 106 sample orders
-- in a table-valued parameter and insert it 20 times through the
-- interpreted Sales.usp_InsertSalesOrder_ondisk. Run it on many
-- connections at once, as the article runs it with ostress:
--   hekla stress -S host,port -U login -P password -n 100 -r 5000 -i workload_ondisk.sql
--   ostress.exe -n100 -r5000 -S. -E -dSampleDatabase -q -i workload_ondisk.sql
-- (100 connections x 5,000 runs x 20 orders = 10 million orders). The
-- article prints the increment as "SET @i + = 1;", which hekla accepts
-- too; it is written "+=" here, as T-SQL spells the operator.
DECLARE @i AS INT = 0, @od AS Sales.SalesOrderDetailType_ondisk, @SalesOrderID AS INT, @DueDate AS DATETIME2 = sysdatetime(), @CustomerID AS INT = RAND() * 8000, @BillToAddressID AS INT = RAND() * 10000, @ShipToAddressID AS INT = RAND() * 10000, @ShipMethodID AS INT = (RAND() * 5) + 1;
INSERT INTO @od
SELECT OrderQty,
       ProductID,
       SpecialOfferID
FROM Demo.DemoSalesOrderDetailSeed
WHERE OrderID = CAST ((RAND() * 106) + 1 AS INT);
WHILE (@i < 20)
    BEGIN
        EXECUTE Sales.usp_InsertSalesOrder_ondisk
            @SalesOrderID OUTPUT,
            @DueDate,
            @CustomerID,
            @BillToAddressID,
            @ShipToAddressID,
            @ShipMethodID,
            @od;
        SET @i += 1;
    END
