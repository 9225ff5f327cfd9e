-- Seed 000, demo workload: the script ostress runs on every connection,
-- exactly as the article prints it (`SET @i + = 1` included). One run
-- inserts one sample order 20 times.
-- new session
-- mask: rows affected
DECLARE @i AS INT = 0, @od AS Sales.SalesOrderDetailType_inmem, @SalesOrderID AS INT, @DueDate AS DATETIME2 = sysdatetime(), @CustomerID AS INT = RAND() * 8000, @BillToAddressID AS INT = RAND() * 10000, @ShipToAddressID AS INT = RAND() * 10000, @ShipMethodID AS INT = (RAND() * 5) + 1;
INSERT INTO @od
SELECT OrderQty,
       ProductID,
       SpecialOfferID
FROM Demo.DemoSalesOrderDetailSeed
WHERE OrderID = CAST ((RAND() * 106) + 1 AS INT);
WHILE (@i < 20)
    BEGIN
        EXECUTE Sales.usp_InsertSalesOrder_inmem
            @SalesOrderID OUTPUT,
            @DueDate,
            @CustomerID,
            @BillToAddressID,
            @ShipToAddressID,
            @ShipMethodID,
            @od;
        SET @i + = 1;
    END
GO
-- Checks (not in the article): 20 orders, each with the lines of one seed
-- order (RAND() is evaluated once per query, so every line comes from the
-- same seed order and no order is empty).
SET NOCOUNT ON
SELECT COUNT(*) AS orders FROM Sales.SalesOrderHeader_inmem
SELECT COUNT(*) AS empty_orders
FROM Sales.SalesOrderHeader_inmem AS h
WHERE NOT EXISTS (SELECT 1 FROM Sales.SalesOrderDetail_inmem AS d WHERE d.SalesOrderID = h.SalesOrderID)
SELECT COUNT(DISTINCT lines) AS distinct_line_counts
FROM (SELECT COUNT(*) AS lines FROM Sales.SalesOrderDetail_inmem GROUP BY SalesOrderID) AS per_order
SELECT COUNT(*) AS orders_with_wrong_subtotal
FROM Sales.SalesOrderHeader_inmem AS h
WHERE h.SubTotal <> (SELECT SUM((d.UnitPrice - d.UnitPriceDiscount) * d.OrderQty)
                     FROM Sales.SalesOrderDetail_inmem AS d WHERE d.SalesOrderID = h.SalesOrderID)
GO
