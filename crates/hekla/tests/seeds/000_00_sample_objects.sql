-- Seed 000 (Sample database for in-memory OLTP): the sample's objects.
-- The article describes the sample's tables, indexes, table type and
-- procedures but does not print their code; this script is written from
-- that description, with synthetic rows in place of AdventureWorks data.
-- Scaled: every BUCKET_COUNT is the article's divided by 1,000 (so 10
-- million becomes 10,000, which hekla rounds up to 16,384 as SQL Server
-- rounds 10 million up to 16 million).
-- stand-in
CREATE SCHEMA Sales AUTHORIZATION dbo
GO
CREATE SCHEMA Production AUTHORIZATION dbo
GO
CREATE SCHEMA Demo AUTHORIZATION dbo
GO
CREATE TABLE Production.Product_inmem (
    ProductID int IDENTITY NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1000),
    Name nvarchar(50) NOT NULL INDEX IX_Name NONCLUSTERED,
    ProductNumber nvarchar(25) NOT NULL INDEX IX_ProductNumber NONCLUSTERED,
    MakeFlag bit NOT NULL DEFAULT 1,
    FinishedGoodsFlag bit NOT NULL DEFAULT 1,
    Color nvarchar(15) NULL,
    SafetyStockLevel smallint NOT NULL,
    ReorderPoint smallint NOT NULL,
    StandardCost money NOT NULL,
    ListPrice money NOT NULL,
    DaysToManufacture int NOT NULL,
    SellStartDate datetime2(7) NOT NULL,
    ModifiedDate datetime2(7) NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE Sales.SpecialOffer_inmem (
    SpecialOfferID int IDENTITY NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1000),
    Description nvarchar(255) NOT NULL,
    DiscountPct smallmoney NOT NULL DEFAULT 0.00,
    Type nvarchar(50) NOT NULL,
    Category nvarchar(50) NOT NULL,
    StartDate datetime2(7) NOT NULL,
    EndDate datetime2(7) NOT NULL,
    MinQty int NOT NULL DEFAULT 0,
    MaxQty int NULL,
    ModifiedDate datetime2(7) NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE Sales.SpecialOfferProduct_inmem (
    SpecialOfferID int NOT NULL,
    ProductID int NOT NULL INDEX IX_ProductID NONCLUSTERED,
    ModifiedDate datetime2(7) NOT NULL,
    CONSTRAINT PK_SpecialOfferProduct_inmem PRIMARY KEY NONCLUSTERED (SpecialOfferID, ProductID)
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE Sales.SalesOrderHeader_inmem (
    SalesOrderID int IDENTITY NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 10000),
    RevisionNumber tinyint NOT NULL DEFAULT 0,
    OrderDate datetime2(7) NOT NULL,
    DueDate datetime2(7) NOT NULL,
    ShipDate datetime2(7) NULL,
    Status tinyint NOT NULL DEFAULT 1,
    OnlineOrderFlag bit NOT NULL DEFAULT 1,
    PurchaseOrderNumber nvarchar(25) NULL,
    AccountNumber nvarchar(15) NULL,
    CustomerID int NOT NULL INDEX IX_CustomerID HASH WITH (BUCKET_COUNT = 1000),
    SalesPersonID int NOT NULL DEFAULT -1 INDEX IX_SalesPersonID HASH WITH (BUCKET_COUNT = 1000),
    TerritoryID int NULL,
    BillToAddressID int NOT NULL,
    ShipToAddressID int NOT NULL,
    ShipMethodID int NOT NULL,
    CreditCardID int NULL,
    CreditCardApprovalCode varchar(15) NULL,
    CurrencyRateID int NULL,
    SubTotal money NOT NULL DEFAULT 0.00,
    TaxAmt money NOT NULL DEFAULT 0.00,
    Freight money NOT NULL DEFAULT 0.00,
    Comment nvarchar(128) NULL,
    ModifiedDate datetime2(7) NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE Sales.SalesOrderDetail_inmem (
    SalesOrderID int NOT NULL INDEX IX_SalesOrderID HASH WITH (BUCKET_COUNT = 10000),
    SalesOrderDetailID bigint IDENTITY NOT NULL,
    CarrierTrackingNumber nvarchar(25) NULL,
    OrderQty smallint NOT NULL,
    ProductID int NOT NULL INDEX IX_ProductID HASH WITH (BUCKET_COUNT = 1000),
    SpecialOfferID int NOT NULL,
    UnitPrice money NOT NULL,
    UnitPriceDiscount money NOT NULL DEFAULT 0.0,
    ModifiedDate datetime2(7) NOT NULL,
    CONSTRAINT PK_SalesOrderDetail_inmem PRIMARY KEY NONCLUSTERED HASH (SalesOrderID, SalesOrderDetailID) WITH (BUCKET_COUNT = 50000)
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE Demo.DemoSalesOrderDetailSeed (
    OrderQty smallint NOT NULL,
    ProductID int NOT NULL,
    SpecialOfferID int NOT NULL,
    OrderID int NOT NULL INDEX IX_OrderID NONCLUSTERED,
    LocalID int IDENTITY NOT NULL PRIMARY KEY NONCLUSTERED
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TYPE Sales.SalesOrderDetailType_inmem AS TABLE (
    OrderQty smallint NOT NULL,
    ProductID int NOT NULL,
    SpecialOfferID int NOT NULL,
    INDEX IX_ProductID NONCLUSTERED HASH (ProductID) WITH (BUCKET_COUNT = 8)
) WITH (MEMORY_OPTIMIZED = ON)
GO
-- The disk-based twins, for the article's one-to-one comparison.
CREATE TABLE Production.Product_ondisk (
    ProductID int IDENTITY NOT NULL PRIMARY KEY,
    Name nvarchar(50) NOT NULL,
    ListPrice money NOT NULL
)
GO
CREATE TABLE Sales.SpecialOffer_ondisk (
    SpecialOfferID int IDENTITY NOT NULL PRIMARY KEY,
    DiscountPct smallmoney NOT NULL DEFAULT 0.00
)
GO
CREATE TABLE Sales.SalesOrderHeader_ondisk (
    SalesOrderID int IDENTITY NOT NULL PRIMARY KEY,
    OrderDate datetime2(7) NOT NULL,
    DueDate datetime2(7) NOT NULL,
    Status tinyint NOT NULL DEFAULT 1,
    OnlineOrderFlag bit NOT NULL DEFAULT 1,
    CustomerID int NOT NULL,
    SalesPersonID int NOT NULL DEFAULT -1,
    BillToAddressID int NOT NULL,
    ShipToAddressID int NOT NULL,
    ShipMethodID int NOT NULL,
    SubTotal money NOT NULL DEFAULT 0.00,
    Comment nvarchar(128) NULL,
    ModifiedDate datetime2(7) NOT NULL
)
GO
CREATE TABLE Sales.SalesOrderDetail_ondisk (
    SalesOrderID int NOT NULL,
    SalesOrderDetailID bigint IDENTITY NOT NULL,
    OrderQty smallint NOT NULL,
    ProductID int NOT NULL,
    SpecialOfferID int NOT NULL,
    UnitPrice money NOT NULL,
    UnitPriceDiscount money NOT NULL DEFAULT 0.0,
    ModifiedDate datetime2(7) NOT NULL,
    CONSTRAINT PK_SalesOrderDetail_ondisk PRIMARY KEY (SalesOrderID, SalesOrderDetailID)
)
GO
CREATE TYPE Sales.SalesOrderDetailType_ondisk AS TABLE (
    OrderQty smallint NOT NULL,
    ProductID int NOT NULL,
    SpecialOfferID int NOT NULL
)
GO
-- Inserts one order and its lines, reading the system time once per order
-- (the article's reason for dropping the date defaults) and looking up list
-- prices and special-offer discounts.
CREATE PROCEDURE Sales.usp_InsertSalesOrder_inmem
    @SalesOrderID int OUTPUT,
    @DueDate datetime2(7) NOT NULL,
    @CustomerID int NOT NULL,
    @BillToAddressID int NOT NULL,
    @ShipToAddressID int NOT NULL,
    @ShipMethodID int NOT NULL,
    @SalesOrderDetails Sales.SalesOrderDetailType_inmem READONLY,
    @Status tinyint NOT NULL = 1,
    @OnlineOrderFlag bit NOT NULL = 1,
    @PurchaseOrderNumber nvarchar(25) = NULL,
    @AccountNumber nvarchar(15) = NULL,
    @SalesPersonID int NOT NULL = -1,
    @TerritoryID int = NULL,
    @CreditCardID int = NULL,
    @CreditCardApprovalCode varchar(15) = NULL,
    @CurrencyRateID int = NULL,
    @Comment nvarchar(128) = NULL
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @OrderDate datetime2(7) NOT NULL = SYSDATETIME()
    DECLARE @SubTotal money NOT NULL = 0

    SELECT @SubTotal = ISNULL(SUM(p.ListPrice * (1 - ISNULL(so.DiscountPct, 0)) * od.OrderQty), 0)
    FROM @SalesOrderDetails AS od
        INNER JOIN Production.Product_inmem AS p ON od.ProductID = p.ProductID
        LEFT JOIN Sales.SpecialOffer_inmem AS so ON od.SpecialOfferID = so.SpecialOfferID

    INSERT INTO Sales.SalesOrderHeader_inmem
        (DueDate, Status, OnlineOrderFlag, PurchaseOrderNumber, AccountNumber, CustomerID, SalesPersonID,
         TerritoryID, BillToAddressID, ShipToAddressID, ShipMethodID, CreditCardID, CreditCardApprovalCode,
         CurrencyRateID, Comment, OrderDate, SubTotal, ModifiedDate)
    VALUES
        (@DueDate, @Status, @OnlineOrderFlag, @PurchaseOrderNumber, @AccountNumber, @CustomerID, @SalesPersonID,
         @TerritoryID, @BillToAddressID, @ShipToAddressID, @ShipMethodID, @CreditCardID, @CreditCardApprovalCode,
         @CurrencyRateID, @Comment, @OrderDate, @SubTotal, @OrderDate)

    SET @SalesOrderID = SCOPE_IDENTITY()

    INSERT INTO Sales.SalesOrderDetail_inmem
        (SalesOrderID, OrderQty, ProductID, SpecialOfferID, UnitPrice, UnitPriceDiscount, ModifiedDate)
    SELECT @SalesOrderID, od.OrderQty, od.ProductID, od.SpecialOfferID, p.ListPrice,
           p.ListPrice * ISNULL(so.DiscountPct, 0), @OrderDate
    FROM @SalesOrderDetails AS od
        INNER JOIN Production.Product_inmem AS p ON od.ProductID = p.ProductID
        LEFT JOIN Sales.SpecialOffer_inmem AS so ON od.SpecialOfferID = so.SpecialOfferID
END
GO
CREATE PROCEDURE Sales.usp_InsertSalesOrder_ondisk
    @SalesOrderID int OUTPUT,
    @DueDate datetime2(7),
    @CustomerID int,
    @BillToAddressID int,
    @ShipToAddressID int,
    @ShipMethodID int,
    @SalesOrderDetails Sales.SalesOrderDetailType_ondisk READONLY,
    @Status tinyint = 1,
    @OnlineOrderFlag bit = 1,
    @SalesPersonID int = -1,
    @Comment nvarchar(128) = NULL
AS
BEGIN
    SET NOCOUNT ON
    SET XACT_ABORT ON
    DECLARE @OrderDate datetime2(7) = SYSDATETIME()
    BEGIN TRAN
        INSERT INTO Sales.SalesOrderHeader_ondisk
            (DueDate, Status, OnlineOrderFlag, CustomerID, SalesPersonID, BillToAddressID, ShipToAddressID,
             ShipMethodID, Comment, OrderDate, SubTotal, ModifiedDate)
        SELECT @DueDate, @Status, @OnlineOrderFlag, @CustomerID, @SalesPersonID, @BillToAddressID,
               @ShipToAddressID, @ShipMethodID, @Comment, @OrderDate,
               ISNULL(SUM(p.ListPrice * (1 - ISNULL(so.DiscountPct, 0)) * od.OrderQty), 0), @OrderDate
        FROM @SalesOrderDetails AS od
            INNER JOIN Production.Product_ondisk AS p ON od.ProductID = p.ProductID
            LEFT JOIN Sales.SpecialOffer_ondisk AS so ON od.SpecialOfferID = so.SpecialOfferID

        SET @SalesOrderID = SCOPE_IDENTITY()

        INSERT INTO Sales.SalesOrderDetail_ondisk
            (SalesOrderID, OrderQty, ProductID, SpecialOfferID, UnitPrice, UnitPriceDiscount, ModifiedDate)
        SELECT @SalesOrderID, od.OrderQty, od.ProductID, od.SpecialOfferID, p.ListPrice,
               p.ListPrice * ISNULL(so.DiscountPct, 0), @OrderDate
        FROM @SalesOrderDetails AS od
            INNER JOIN Production.Product_ondisk AS p ON od.ProductID = p.ProductID
            LEFT JOIN Sales.SpecialOffer_ondisk AS so ON od.SpecialOfferID = so.SpecialOfferID
    COMMIT
END
GO
-- Ships an order: the header and every line get the new carrier data.
CREATE PROCEDURE Sales.usp_UpdateSalesOrderShipInfo_native
    @SalesOrderID int NOT NULL,
    @ShipDate datetime2(7) NOT NULL,
    @Comment nvarchar(128) NOT NULL,
    @CarrierTrackingNumber nvarchar(25) NOT NULL
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    UPDATE Sales.SalesOrderHeader_inmem
    SET ShipDate = @ShipDate, Comment = @Comment, Status = 5
    WHERE SalesOrderID = @SalesOrderID

    UPDATE Sales.SalesOrderDetail_inmem
    SET CarrierTrackingNumber = @CarrierTrackingNumber
    WHERE SalesOrderID = @SalesOrderID
END
GO
-- The wrapper: retries the native procedure on the conflicts optimistic
-- concurrency reports (write conflict, validation failures, dependency).
CREATE PROCEDURE Sales.usp_UpdateSalesOrderShipInfo_inmem
    @SalesOrderID int,
    @ShipDate datetime2(7) = NULL,
    @Comment nvarchar(128),
    @CarrierTrackingNumber nvarchar(25)
AS
BEGIN
    SET NOCOUNT ON
    DECLARE @retry int = 10
    IF @ShipDate IS NULL SET @ShipDate = SYSDATETIME()
    WHILE (@retry > 0)
    BEGIN
        BEGIN TRY
            EXEC Sales.usp_UpdateSalesOrderShipInfo_native
                @SalesOrderID = @SalesOrderID,
                @ShipDate = @ShipDate,
                @Comment = @Comment,
                @CarrierTrackingNumber = @CarrierTrackingNumber
            SET @retry = 0
        END TRY
        BEGIN CATCH
            SET @retry -= 1
            IF (@retry > 0 AND ERROR_NUMBER() IN (41302, 41305, 41325, 41301, 1205))
            BEGIN
                IF XACT_STATE() = -1 ROLLBACK TRANSACTION
                WAITFOR DELAY '00:00:00.001'
            END
            ELSE
                THROW
        END CATCH
    END
END
GO
-- Empties the order tables and checkpoints, as the sample's reset does
-- (the sample also reseeds from the original AdventureWorks tables, which
-- this synthetic copy does not have).
CREATE PROCEDURE Demo.usp_DemoReset
AS
BEGIN
    SET NOCOUNT ON
    DELETE FROM Sales.SalesOrderDetail_inmem
    DELETE FROM Sales.SalesOrderHeader_inmem
    TRUNCATE TABLE Sales.SalesOrderDetail_ondisk
    TRUNCATE TABLE Sales.SalesOrderHeader_ondisk
    CHECKPOINT
END
GO
-- Synthetic data: 20 products, two special offers, and 106 seed orders of
-- one to five lines each.
SET NOCOUNT ON
DECLARE @p int = 1
WHILE @p <= 20
BEGIN
    INSERT INTO Production.Product_inmem
        (Name, ProductNumber, SafetyStockLevel, ReorderPoint, StandardCost, ListPrice, DaysToManufacture, SellStartDate, ModifiedDate)
    VALUES (N'Product ' + CAST(@p AS nvarchar(10)), N'PN-' + RIGHT('000' + CAST(@p AS nvarchar(10)), 4),
            100, 75, 10 * @p, 25 * @p, 1, '2020-01-01', '2020-01-01')
    INSERT INTO Production.Product_ondisk (Name, ListPrice) VALUES (N'Product ' + CAST(@p AS nvarchar(10)), 25 * @p)
    SET @p += 1
END
INSERT INTO Sales.SpecialOffer_inmem (Description, DiscountPct, Type, Category, StartDate, EndDate, ModifiedDate)
VALUES (N'No Discount', 0.00, N'No Discount', N'No Discount', '2020-01-01', '2030-12-31', '2020-01-01'),
       (N'Volume Discount', 0.02, N'Volume Discount', N'Reseller', '2020-01-01', '2030-12-31', '2020-01-01')
INSERT INTO Sales.SpecialOffer_ondisk (DiscountPct) VALUES (0.00), (0.02)
INSERT INTO Sales.SpecialOfferProduct_inmem (SpecialOfferID, ProductID, ModifiedDate)
SELECT o.SpecialOfferID, p.ProductID, '2020-01-01' FROM Sales.SpecialOffer_inmem AS o CROSS JOIN Production.Product_inmem AS p
DECLARE @order int = 1, @line int
WHILE @order <= 106
BEGIN
    SET @line = 0
    WHILE @line <= @order % 5
    BEGIN
        INSERT INTO Demo.DemoSalesOrderDetailSeed (OrderQty, ProductID, SpecialOfferID, OrderID)
        VALUES (1 + (@order + @line) % 3, 1 + (@order * 7 + @line) % 20, 1 + @line % 2, @order)
        SET @line += 1
    END
    SET @order += 1
END
SET NOCOUNT OFF
GO
SELECT COUNT(*) AS products FROM Production.Product_inmem
SELECT COUNT(*) AS seed_lines, COUNT(DISTINCT OrderID) AS seed_orders FROM Demo.DemoSalesOrderDetailSeed
SELECT i.name, s.total_bucket_count
FROM sys.hash_indexes AS i
    INNER JOIN sys.dm_db_xtp_hash_index_stats AS s ON s.object_id = i.object_id AND s.index_id = i.index_id
WHERE i.object_id = OBJECT_ID('Sales.SalesOrderHeader_inmem')
ORDER BY i.name
GO
