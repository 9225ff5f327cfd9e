-- The in-memory OLTP sales-order sample, script 4 of 4: the demo reset,
-- the data generator, and the load.
--
-- AdventureWorks' data is not part of hekla: Demo.usp_LoadSampleData
-- makes data of the same shape and size, the same on every run (every
-- "random" choice is arithmetic on row numbers): 504 products, 16 special
-- offers, 540 special-offer products, 31,465 orders with about 121,000
-- lines, and the 106 five-line sample orders of the workload.

-------------------------------------------------------------------------------
-- Reset the demo: empty the order tables (_inmem and _ondisk) and copy the
-- loaded orders back from Sales.SalesOrderHeader and Sales.SalesOrderDetail,
-- keeping their ids; then a checkpoint. The identity of the _inmem tables
-- goes on from its highest value, so new orders never reuse an id.
-------------------------------------------------------------------------------
CREATE PROCEDURE Demo.usp_DemoReset
AS
BEGIN
    SET NOCOUNT ON;

    DELETE FROM Sales.SalesOrderDetail_inmem;
    DELETE FROM Sales.SalesOrderHeader_inmem;
    TRUNCATE TABLE Sales.SalesOrderDetail_ondisk;
    TRUNCATE TABLE Sales.SalesOrderHeader_ondisk;

    SET IDENTITY_INSERT Sales.SalesOrderHeader_inmem ON;
    INSERT INTO Sales.SalesOrderHeader_inmem
        (SalesOrderID, RevisionNumber, OrderDate, DueDate, ShipDate, [Status], OnlineOrderFlag,
         PurchaseOrderNumber, AccountNumber, CustomerID, SalesPersonID, TerritoryID, BillToAddressID,
         ShipToAddressID, ShipMethodID, CreditCardID, CreditCardApprovalCode, CurrencyRateID,
         SubTotal, TaxAmt, Freight, Comment, ModifiedDate)
    SELECT SalesOrderID, RevisionNumber, OrderDate, DueDate, ShipDate, [Status], OnlineOrderFlag,
           PurchaseOrderNumber, AccountNumber, CustomerID, ISNULL(SalesPersonID, -1), TerritoryID, BillToAddressID,
           ShipToAddressID, ShipMethodID, CreditCardID, CreditCardApprovalCode, CurrencyRateID,
           SubTotal, TaxAmt, Freight, Comment, ModifiedDate
    FROM Sales.SalesOrderHeader;
    SET IDENTITY_INSERT Sales.SalesOrderHeader_inmem OFF;

    SET IDENTITY_INSERT Sales.SalesOrderDetail_inmem ON;
    INSERT INTO Sales.SalesOrderDetail_inmem
        (SalesOrderID, SalesOrderDetailID, CarrierTrackingNumber, OrderQty, ProductID, SpecialOfferID,
         UnitPrice, UnitPriceDiscount, ModifiedDate)
    SELECT SalesOrderID, SalesOrderDetailID, CarrierTrackingNumber, OrderQty, ProductID, SpecialOfferID,
           UnitPrice, UnitPriceDiscount, ModifiedDate
    FROM Sales.SalesOrderDetail;
    SET IDENTITY_INSERT Sales.SalesOrderDetail_inmem OFF;

    SET IDENTITY_INSERT Sales.SalesOrderHeader_ondisk ON;
    INSERT INTO Sales.SalesOrderHeader_ondisk
        (SalesOrderID, RevisionNumber, OrderDate, DueDate, ShipDate, [Status], OnlineOrderFlag,
         PurchaseOrderNumber, AccountNumber, CustomerID, SalesPersonID, TerritoryID, BillToAddressID,
         ShipToAddressID, ShipMethodID, CreditCardID, CreditCardApprovalCode, CurrencyRateID,
         SubTotal, TaxAmt, Freight, Comment, ModifiedDate)
    SELECT SalesOrderID, RevisionNumber, OrderDate, DueDate, ShipDate, [Status], OnlineOrderFlag,
           PurchaseOrderNumber, AccountNumber, CustomerID, ISNULL(SalesPersonID, -1), TerritoryID, BillToAddressID,
           ShipToAddressID, ShipMethodID, CreditCardID, CreditCardApprovalCode, CurrencyRateID,
           SubTotal, TaxAmt, Freight, Comment, ModifiedDate
    FROM Sales.SalesOrderHeader;
    SET IDENTITY_INSERT Sales.SalesOrderHeader_ondisk OFF;

    SET IDENTITY_INSERT Sales.SalesOrderDetail_ondisk ON;
    INSERT INTO Sales.SalesOrderDetail_ondisk
        (SalesOrderID, SalesOrderDetailID, CarrierTrackingNumber, OrderQty, ProductID, SpecialOfferID,
         UnitPrice, UnitPriceDiscount, ModifiedDate)
    SELECT SalesOrderID, SalesOrderDetailID, CarrierTrackingNumber, OrderQty, ProductID, SpecialOfferID,
           UnitPrice, UnitPriceDiscount, ModifiedDate
    FROM Sales.SalesOrderDetail;
    SET IDENTITY_INSERT Sales.SalesOrderDetail_ondisk OFF;

    CHECKPOINT;
END
GO

-------------------------------------------------------------------------------
-- Generate the sample's data: products, special offers and the products
-- they are for (into the _inmem tables, then copied to the _ondisk ones),
-- @Orders orders into Sales.SalesOrderHeader and Sales.SalesOrderDetail,
-- the workload's sample orders; then Demo.usp_DemoReset fills the order
-- tables. Run once, on empty tables.
-------------------------------------------------------------------------------
CREATE PROCEDURE Demo.usp_LoadSampleData
    @Orders int = 31465
AS
BEGIN
    SET NOCOUNT ON;

    -- The workload's 106 five-line sample orders come from these orders.
    IF @Orders IS NULL OR @Orders < 1000
        THROW 51010, N'Demo.usp_LoadSampleData makes at least 1,000 orders.', 1;
    IF EXISTS (SELECT * FROM Production.Product_inmem)
        THROW 51011, N'The sample data is already loaded; Demo.usp_DemoReset resets the orders.', 1;

    DECLARE @Loaded datetime2(7) = '2014-06-30T00:00:00';

    -- 1 to @Orders, doubling
    CREATE TABLE #Numbers (n int NOT NULL PRIMARY KEY);
    INSERT INTO #Numbers (n) VALUES (1);
    DECLARE @have int = 1;
    WHILE @have < @Orders
    BEGIN
        INSERT INTO #Numbers (n) SELECT n + @have FROM #Numbers WHERE n + @have <= @Orders;
        SET @have = @have * 2;
    END

    ---------------------------------------------------------------------------
    -- 504 products: 42 of each of twelve kinds, in five colours, priced from
    -- the kind's base price up to 3.2 times it
    ---------------------------------------------------------------------------
    SET IDENTITY_INSERT Production.Product_inmem ON;
    INSERT INTO Production.Product_inmem
        (ProductID, [Name], ProductNumber, MakeFlag, FinishedGoodsFlag, Color, SafetyStockLevel,
         ReorderPoint, StandardCost, ListPrice, [Size], SizeUnitMeasureCode, WeightUnitMeasureCode,
         [Weight], DaysToManufacture, ProductLine, Class, Style, ProductSubcategoryID, ProductModelID,
         SellStartDate, SellEndDate, DiscontinuedDate, ModifiedDate)
    SELECT p.n,
           p.Kind + N' ' + p.Color + N', ' + CAST(p.n AS nvarchar(3)),
           p.Code + N'-' + RIGHT(N'00' + CAST(p.n AS nvarchar(3)), 3),
           p.Made,
           p.Finished,
           p.Color,
           CASE WHEN p.Finished = 1 THEN 100 ELSE 500 END,
           CASE WHEN p.Finished = 1 THEN 75 ELSE 375 END,
           ROUND(p.ListPrice * 0.6, 4),
           p.ListPrice,
           CASE p.Sizing WHEN N'CM' THEN CAST(40 + 2 * (p.n / 12 % 6) AS nvarchar(5))
                         WHEN N'SML' THEN CHOOSE(1 + p.n / 12 % 4, N'S', N'M', N'L', N'XL') END,
           CASE p.Sizing WHEN N'CM' THEN N'CM' END,
           CASE WHEN p.BaseWeight IS NOT NULL THEN N'LB' END,
           p.BaseWeight + p.n / 12 % 5,
           CASE WHEN p.Made = 1 THEN 1 + p.n % 4 ELSE 0 END,
           p.Line,
           CHOOSE(1 + p.n % 3, N'L', N'M', N'H'),
           CHOOSE(1 + p.n / 3 % 3, N'W', N'M', N'U'),
           p.KindNo + 1,
           1 + p.n % 119,
           DATEADD(month, p.n * 7 % 36, CAST('2011-05-01' AS datetime2(7))),
           NULL,
           NULL,
           @Loaded
    FROM (SELECT nb.n, k.KindNo, k.Kind, k.Code, k.Line, k.Made, k.Finished, k.Sizing, k.BaseWeight,
                 CHOOSE(1 + nb.n / 12 % 5, N'Black', N'Red', N'Silver', N'Blue', N'Yellow') AS Color,
                 ROUND(k.BasePrice * (1 + nb.n * 37 % 23 / 10.0), 2) AS ListPrice
          FROM #Numbers AS nb
              INNER JOIN (VALUES
                  (0,  N'Road Frame',     N'FR-R', N'R', 1, 0, N'CM',  2.50, 330.00),
                  (1,  N'Mountain Frame', N'FR-M', N'M', 1, 0, N'CM',  2.80, 350.00),
                  (2,  N'Touring Frame',  N'FR-T', N'T', 1, 0, N'CM',  3.00, 340.00),
                  (3,  N'Road Bike',      N'BK-R', N'R', 1, 1, N'CM',  17.00, 780.00),
                  (4,  N'Mountain Bike',  N'BK-M', N'M', 1, 1, N'CM',  21.00, 650.00),
                  (5,  N'Touring Bike',   N'BK-T', N'T', 1, 1, N'CM',  25.00, 740.00),
                  (6,  N'Sport Helmet',   N'HL-U', N'S', 0, 1, NULL,   NULL,  34.99),
                  (7,  N'Jersey',         N'LJ-U', N'S', 0, 1, N'SML', NULL,  49.99),
                  (8,  N'Gloves',         N'GL-U', N'S', 0, 1, N'SML', NULL,  24.49),
                  (9,  N'Tire',           N'TI-U', NULL, 0, 1, NULL,   NULL,  21.49),
                  (10, N'Tube',           N'TT-U', NULL, 0, 1, NULL,   NULL,  4.99),
                  (11, N'Pedal',          N'PD-U', N'M', 0, 1, NULL,   NULL,  40.49)
              ) AS k (KindNo, Kind, Code, Line, Made, Finished, Sizing, BaseWeight, BasePrice)
                  ON k.KindNo = nb.n % 12
          WHERE nb.n <= 504) AS p;
    SET IDENTITY_INSERT Production.Product_inmem OFF;

    ---------------------------------------------------------------------------
    -- 16 special offers: none, five volume discounts, ten promotions
    ---------------------------------------------------------------------------
    SET IDENTITY_INSERT Sales.SpecialOffer_inmem ON;
    INSERT INTO Sales.SpecialOffer_inmem
        (SpecialOfferID, [Description], DiscountPct, [Type], Category, StartDate, EndDate, MinQty, MaxQty, ModifiedDate)
    VALUES
        (1,  N'No Discount',             0.00, N'No Discount',          N'No Discount', '2011-05-01', '2014-11-30', 0,  NULL, @Loaded),
        (2,  N'Volume Discount 5 to 9',   0.02, N'Volume Discount',      N'Reseller',    '2011-05-31', '2014-05-30', 5,  9,    @Loaded),
        (3,  N'Volume Discount 10 to 19', 0.05, N'Volume Discount',      N'Reseller',    '2011-05-31', '2014-05-30', 10, 19,   @Loaded),
        (4,  N'Volume Discount 20 to 39', 0.10, N'Volume Discount',      N'Reseller',    '2011-05-31', '2014-05-30', 20, 39,   @Loaded),
        (5,  N'Volume Discount 40 to 59', 0.15, N'Volume Discount',      N'Reseller',    '2011-05-31', '2014-05-30', 40, 59,   @Loaded),
        (6,  N'Volume Discount over 60',  0.20, N'Volume Discount',      N'Reseller',    '2011-05-31', '2014-05-30', 60, NULL, @Loaded),
        (7,  N'Road Frame Clearance',     0.35, N'Discontinued Product', N'Reseller',    '2012-04-13', '2012-05-29', 0,  NULL, @Loaded),
        (8,  N'Helmet Promotion 2012',    0.10, N'Seasonal Discount',    N'Reseller',    '2012-05-30', '2012-06-29', 0,  NULL, @Loaded),
        (9,  N'Touring Bike Overstock',   0.30, N'Excess Inventory',     N'Reseller',    '2012-07-01', '2012-08-30', 0,  NULL, @Loaded),
        (10, N'Tire Sale',                0.50, N'Excess Inventory',     N'Customer',    '2013-06-14', '2013-07-14', 0,  NULL, @Loaded),
        (11, N'Helmet Promotion 2013',    0.15, N'Seasonal Discount',    N'Reseller',    '2013-05-30', '2013-06-29', 0,  NULL, @Loaded),
        (12, N'Mountain Frame Sale',      0.35, N'Excess Inventory',     N'Reseller',    '2013-05-30', '2013-07-29', 0,  NULL, @Loaded),
        (13, N'Touring Bike Promotion',   0.15, N'New Product',          N'Customer',    '2013-05-30', '2013-08-29', 0,  NULL, @Loaded),
        (14, N'Road Bike Promotion',      0.20, N'New Product',          N'Customer',    '2013-05-30', '2013-08-29', 0,  NULL, @Loaded),
        (15, N'Half-Price Pedals',        0.50, N'Seasonal Discount',    N'Customer',    '2013-07-14', '2013-08-14', 0,  NULL, @Loaded),
        (16, N'Mountain Bike Clearance',  0.40, N'Discontinued Product', N'Reseller',    '2013-05-30', '2013-07-30', 0,  NULL, @Loaded);
    SET IDENTITY_INSERT Sales.SpecialOffer_inmem OFF;

    ---------------------------------------------------------------------------
    -- 540 special-offer products: every product with no discount, and two
    -- or three products of one kind for each other offer
    ---------------------------------------------------------------------------
    INSERT INTO Sales.SpecialOfferProduct_inmem (SpecialOfferID, ProductID, ModifiedDate)
    SELECT 1, ProductID, @Loaded FROM Production.Product_inmem;

    INSERT INTO Sales.SpecialOfferProduct_inmem (SpecialOfferID, ProductID, ModifiedDate)
    SELECT o.SpecialOfferID, o.KindNo + 12 * (o.SpecialOfferID + k.k), @Loaded
    FROM (VALUES (2, 3, 3), (3, 4, 3), (4, 5, 3), (5, 7, 3), (6, 8, 3), (7, 0, 2), (8, 6, 2), (9, 5, 2),
                 (10, 9, 2), (11, 6, 2), (12, 1, 2), (13, 5, 2), (14, 3, 2), (15, 11, 2), (16, 4, 3))
             AS o (SpecialOfferID, KindNo, Products)
        INNER JOIN (VALUES (0), (1), (2)) AS k (k) ON k.k < o.Products;

    ---------------------------------------------------------------------------
    -- The same products and offers in the _ondisk tables
    ---------------------------------------------------------------------------
    SET IDENTITY_INSERT Production.Product_ondisk ON;
    INSERT INTO Production.Product_ondisk
        (ProductID, [Name], ProductNumber, MakeFlag, FinishedGoodsFlag, Color, SafetyStockLevel,
         ReorderPoint, StandardCost, ListPrice, [Size], SizeUnitMeasureCode, WeightUnitMeasureCode,
         [Weight], DaysToManufacture, ProductLine, Class, Style, ProductSubcategoryID, ProductModelID,
         SellStartDate, SellEndDate, DiscontinuedDate, ModifiedDate)
    SELECT ProductID, [Name], ProductNumber, MakeFlag, FinishedGoodsFlag, Color, SafetyStockLevel,
           ReorderPoint, StandardCost, ListPrice, [Size], SizeUnitMeasureCode, WeightUnitMeasureCode,
           [Weight], DaysToManufacture, ProductLine, Class, Style, ProductSubcategoryID, ProductModelID,
           SellStartDate, SellEndDate, DiscontinuedDate, ModifiedDate
    FROM Production.Product_inmem;
    SET IDENTITY_INSERT Production.Product_ondisk OFF;

    SET IDENTITY_INSERT Sales.SpecialOffer_ondisk ON;
    INSERT INTO Sales.SpecialOffer_ondisk
        (SpecialOfferID, [Description], DiscountPct, [Type], Category, StartDate, EndDate, MinQty, MaxQty, ModifiedDate)
    SELECT SpecialOfferID, [Description], DiscountPct, [Type], Category, StartDate, EndDate, MinQty, MaxQty, ModifiedDate
    FROM Sales.SpecialOffer_inmem;
    SET IDENTITY_INSERT Sales.SpecialOffer_ondisk OFF;

    INSERT INTO Sales.SpecialOfferProduct_ondisk (SpecialOfferID, ProductID, ModifiedDate)
    SELECT SpecialOfferID, ProductID, ModifiedDate FROM Sales.SpecialOfferProduct_inmem;

    ---------------------------------------------------------------------------
    -- @Orders orders from 2011-05-31 to 2014-06-30, 88% of them online
    -- (one customer, a credit card, no sales person), 1 to 7 lines each
    -- (3.85 on average), a line's product and offer one of the 540 pairs
    ---------------------------------------------------------------------------
    CREATE TABLE #Orders
    (
        n              int NOT NULL PRIMARY KEY,
        SalesOrderID   int NOT NULL,
        OrderDate      datetime NOT NULL,
        Online         bit NOT NULL,
        CustomerID     int NOT NULL,
        Lines          int NOT NULL
    );
    INSERT INTO #Orders (n, SalesOrderID, OrderDate, Online, CustomerID, Lines)
    SELECT n,
           43658 + n,
           DATEADD(day, CAST((CAST(n AS bigint) - 1) * 1127 / @Orders AS int), CAST('2011-05-31' AS datetime)),
           CASE WHEN g % 100 < 88 THEN 1 ELSE 0 END,
           CASE WHEN g % 100 < 88 THEN 11000 + h % 19119 ELSE 29485 + h % 635 END,
           1 + h % 6 + CASE WHEN g % 20 < 7 THEN 1 ELSE 0 END
    FROM (SELECT n,
                 (CAST(n AS bigint) * 7919 + 13) % 10007 AS h,
                 (CAST(n AS bigint) * 104729 + 7) % 10009 AS g
          FROM #Numbers) AS hashed;

    CREATE TABLE #Pairs
    (
        PairNo          int NOT NULL PRIMARY KEY,
        SpecialOfferID  int NOT NULL,
        ProductID       int NOT NULL,
        MinQty          int NOT NULL,
        MaxQty          int NULL,
        ListPrice       money NOT NULL,
        DiscountPct     smallmoney NOT NULL
    );
    INSERT INTO #Pairs (PairNo, SpecialOfferID, ProductID, MinQty, MaxQty, ListPrice, DiscountPct)
    SELECT ROW_NUMBER() OVER (ORDER BY sop.SpecialOfferID, sop.ProductID),
           sop.SpecialOfferID, sop.ProductID, so.MinQty, so.MaxQty, p.ListPrice, so.DiscountPct
    FROM Sales.SpecialOfferProduct_inmem AS sop
        INNER JOIN Sales.SpecialOffer_inmem AS so ON so.SpecialOfferID = sop.SpecialOfferID
        INNER JOIN Production.Product_inmem AS p ON p.ProductID = sop.ProductID;
    DECLARE @Pairs int = (SELECT COUNT(*) FROM #Pairs);

    -- A volume discount's line orders a quantity in the offer's range.
    INSERT INTO Sales.SalesOrderDetail
        (SalesOrderID, SalesOrderDetailID, CarrierTrackingNumber, OrderQty, ProductID, SpecialOfferID,
         UnitPrice, UnitPriceDiscount, ModifiedDate)
    SELECT o.SalesOrderID,
           ROW_NUMBER() OVER (ORDER BY o.n, l.j),
           CASE WHEN o.Online = 0 THEN N'TRK-' + CAST(1000000 + o.n * 17 % 9000000 AS nvarchar(7)) END,
           CASE WHEN pr.MinQty > 1 THEN pr.MinQty + (o.n + l.j) % (ISNULL(pr.MaxQty, pr.MinQty + 9) - pr.MinQty + 1)
                ELSE 1 + (o.n * 3 + l.j) % 4 END,
           pr.ProductID,
           pr.SpecialOfferID,
           pr.ListPrice,
           pr.DiscountPct,
           o.OrderDate
    FROM #Orders AS o
        INNER JOIN (VALUES (1), (2), (3), (4), (5), (6), (7)) AS l (j) ON l.j <= o.Lines
        INNER JOIN #Pairs AS pr ON pr.PairNo = 1 + (CAST(o.n AS bigint) * 131 + l.j * 37) % @Pairs;

    INSERT INTO Sales.SalesOrderHeader
        (SalesOrderID, RevisionNumber, OrderDate, DueDate, ShipDate, [Status], OnlineOrderFlag,
         PurchaseOrderNumber, AccountNumber, CustomerID, SalesPersonID, TerritoryID, BillToAddressID,
         ShipToAddressID, ShipMethodID, CreditCardID, CreditCardApprovalCode, CurrencyRateID,
         SubTotal, TaxAmt, Freight, Comment, ModifiedDate)
    SELECT o.SalesOrderID,
           1,
           o.OrderDate,
           DATEADD(day, 12, o.OrderDate),
           DATEADD(day, 7, o.OrderDate),
           5,
           o.Online,
           CASE WHEN o.Online = 0 THEN N'PO' + CAST(100000000 + o.n * 7 AS nvarchar(12)) END,
           N'10-4030-' + RIGHT(N'00000' + CAST(o.CustomerID AS nvarchar(6)), 6),
           o.CustomerID,
           CASE WHEN o.Online = 0 THEN 274 + o.CustomerID % 17 END,
           1 + o.CustomerID % 10,
           1 + o.CustomerID * 7 % 29000,
           1 + o.CustomerID * 7 % 29000,
           CASE WHEN o.Online = 1 THEN 1 ELSE 5 END,
           CASE WHEN o.Online = 1 THEN 1 + o.CustomerID % 19118 END,
           CASE WHEN o.Online = 1 THEN CAST(100000 + o.n % 900000 AS varchar(6)) + 'Vi' + CAST(10000 + o.CustomerID % 90000 AS varchar(5)) END,
           NULL,
           t.SubTotal,
           ROUND(t.SubTotal * 0.08, 4),
           ROUND(t.SubTotal * 0.025, 4),
           NULL,
           DATEADD(day, 7, o.OrderDate)
    FROM #Orders AS o
        INNER JOIN (SELECT SalesOrderID, SUM(LineTotal) AS SubTotal
                    FROM Sales.SalesOrderDetail
                    GROUP BY SalesOrderID) AS t ON t.SalesOrderID = o.SalesOrderID;

    ---------------------------------------------------------------------------
    -- The workload's sample orders: the lines of the first 106 orders with
    -- five lines, numbered 1 to 106
    ---------------------------------------------------------------------------
    INSERT INTO Demo.DemoSalesOrderDetailSeed (OrderQty, ProductID, SpecialOfferID, OrderID)
    SELECT d.OrderQty, d.ProductID, d.SpecialOfferID, f.OrderID
    FROM (SELECT TOP (106) SalesOrderID, ROW_NUMBER() OVER (ORDER BY SalesOrderID) AS OrderID
          FROM Sales.SalesOrderDetail
          GROUP BY SalesOrderID
          HAVING COUNT(*) = 5
          ORDER BY SalesOrderID) AS f
        INNER JOIN Sales.SalesOrderDetail AS d ON d.SalesOrderID = f.SalesOrderID
    ORDER BY f.OrderID, d.SalesOrderDetailID;

    EXEC Demo.usp_DemoReset;
END
GO

-------------------------------------------------------------------------------
-- The load, at the sample's size
-------------------------------------------------------------------------------
EXEC Demo.usp_LoadSampleData @Orders = 31465;
GO
SELECT N'Production.Product_inmem' AS [table], COUNT(*) AS [rows] FROM Production.Product_inmem
UNION ALL SELECT N'Sales.SpecialOffer_inmem', COUNT(*) FROM Sales.SpecialOffer_inmem
UNION ALL SELECT N'Sales.SpecialOfferProduct_inmem', COUNT(*) FROM Sales.SpecialOfferProduct_inmem
UNION ALL SELECT N'Sales.SalesOrderHeader_inmem', COUNT(*) FROM Sales.SalesOrderHeader_inmem
UNION ALL SELECT N'Sales.SalesOrderDetail_inmem', COUNT(*) FROM Sales.SalesOrderDetail_inmem
UNION ALL SELECT N'Demo.DemoSalesOrderDetailSeed', COUNT(*) FROM Demo.DemoSalesOrderDetailSeed;
GO
