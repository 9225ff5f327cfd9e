-- Seed 000, Sales.usp_UpdateSalesOrderShipInfo_inmem: the retrying wrapper
-- around the native procedure (the article describes it; this call is ours).
EXEC Sales.usp_UpdateSalesOrderShipInfo_inmem @SalesOrderID = 1, @Comment = N'shipped', @CarrierTrackingNumber = N'TRK-1'
GO
SELECT Status, Comment, CASE WHEN ShipDate IS NULL THEN 'no' ELSE 'yes' END AS shipped
FROM Sales.SalesOrderHeader_inmem WHERE SalesOrderID = 1
SELECT CASE WHEN COUNT(*) > 0 AND COUNT(*) = COUNT(CarrierTrackingNumber) THEN 'every line' ELSE 'not every line' END AS tracked
FROM Sales.SalesOrderDetail_inmem WHERE SalesOrderID = 1
GO
