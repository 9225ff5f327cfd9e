-- Seed 003 (in-memory OLTP design principles): hekla's stand-in (not in the
-- article) for AdventureWorks2017's Sales.SalesOrderDetailBig, which the
-- article copies from: 6,000 synthetic order lines.
-- stand-in
CREATE SCHEMA Sales
GO
CREATE TABLE Sales.SalesOrderDetailBig (
    SalesOrderID int NOT NULL,
    SalesOrderDetailID int NOT NULL,
    CarrierTrackingNumber nvarchar(25) NULL,
    OrderQty smallint NOT NULL,
    ProductID int NOT NULL,
    SpecialOfferID int NOT NULL,
    UnitPrice money NOT NULL,
    UnitPriceDiscount money NOT NULL,
    LineTotal numeric(38, 6) NOT NULL,
    ModifiedDate datetime NOT NULL
)
GO
INSERT INTO Sales.SalesOrderDetailBig
SELECT TOP (6000)
    43659 + rn / 4, rn, CASE WHEN rn % 3 = 0 THEN NULL ELSE N'4911-403C-' + CAST(rn % 98 AS nvarchar(10)) END,
    1 + rn % 5, 707 + rn % 300, 1, 10 + rn % 90, 0, (1 + rn % 5) * (10 + rn % 90), '2014-06-30'
FROM (SELECT ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS rn
      FROM master..spt_values t1 CROSS JOIN master..spt_values t2) AS q
GO
