-- The in-memory sales-order schema of the AdventureWorks demo (seed 000),
-- cut to the columns its insert procedure uses.
CREATE SCHEMA Sales
GO
CREATE SCHEMA Production
GO
CREATE TABLE Production.Product_inmem (
    ProductID int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024),
    Name nvarchar(50) NOT NULL,
    ListPrice money NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE Sales.SpecialOffer_inmem (
    SpecialOfferID int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    DiscountPct smallmoney NOT NULL DEFAULT 0
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE Sales.SalesOrderHeader_inmem (
    SalesOrderID int IDENTITY NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 65536),
    OrderDate datetime2(7) NOT NULL,
    DueDate datetime2(7) NOT NULL,
    Status tinyint NOT NULL DEFAULT 1,
    CustomerID int NOT NULL INDEX IX_CustomerID HASH WITH (BUCKET_COUNT = 16384),
    ShipMethodID int NOT NULL,
    SubTotal money NOT NULL DEFAULT 0,
    Comment nvarchar(128) NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE Sales.SalesOrderDetail_inmem (
    SalesOrderID int NOT NULL INDEX IX_SalesOrderID HASH WITH (BUCKET_COUNT = 65536),
    SalesOrderDetailID bigint IDENTITY NOT NULL,
    OrderQty smallint NOT NULL CONSTRAINT CK_SalesOrderDetail_OrderQty CHECK (OrderQty > 0),
    ProductID int NOT NULL,
    SpecialOfferID int NOT NULL,
    UnitPrice money NOT NULL,
    UnitPriceDiscount money NOT NULL DEFAULT 0,
    CONSTRAINT PK_SalesOrderDetail_inmem PRIMARY KEY NONCLUSTERED HASH (SalesOrderID, SalesOrderDetailID) WITH (BUCKET_COUNT = 262144)
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TYPE Sales.SalesOrderDetailType_inmem AS TABLE (
    OrderQty smallint NOT NULL,
    ProductID int NOT NULL,
    SpecialOfferID int NOT NULL,
    INDEX IX_ProductID NONCLUSTERED HASH (ProductID) WITH (BUCKET_COUNT = 8)
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE PROCEDURE Sales.usp_InsertSalesOrder_inmem
    @SalesOrderID int OUTPUT,
    @DueDate datetime2(7) NOT NULL,
    @CustomerID int NOT NULL,
    @ShipMethodID int NOT NULL,
    @SalesOrderDetails Sales.SalesOrderDetailType_inmem READONLY,
    @Status tinyint NOT NULL = 1,
    @Comment nvarchar(128) = NULL
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @OrderDate datetime2 NOT NULL = SYSDATETIME()
    DECLARE @SubTotal money NOT NULL = 0

    SELECT @SubTotal = ISNULL(SUM(p.ListPrice * (1 - ISNULL(so.DiscountPct, 0)) * od.OrderQty), 0)
    FROM @SalesOrderDetails AS od
        JOIN Production.Product_inmem AS p ON od.ProductID = p.ProductID
        LEFT JOIN Sales.SpecialOffer_inmem AS so ON od.SpecialOfferID = so.SpecialOfferID

    INSERT INTO Sales.SalesOrderHeader_inmem (OrderDate, DueDate, Status, CustomerID, ShipMethodID, SubTotal, Comment)
    VALUES (@OrderDate, @DueDate, @Status, @CustomerID, @ShipMethodID, @SubTotal, @Comment)

    SET @SalesOrderID = SCOPE_IDENTITY()

    INSERT INTO Sales.SalesOrderDetail_inmem (SalesOrderID, OrderQty, ProductID, SpecialOfferID, UnitPrice, UnitPriceDiscount)
    SELECT @SalesOrderID, od.OrderQty, od.ProductID, od.SpecialOfferID, p.ListPrice, p.ListPrice * ISNULL(so.DiscountPct, 0)
    FROM @SalesOrderDetails AS od
        JOIN Production.Product_inmem AS p ON od.ProductID = p.ProductID
        LEFT JOIN Sales.SpecialOffer_inmem AS so ON od.SpecialOfferID = so.SpecialOfferID
END
GO
INSERT INTO Production.Product_inmem VALUES (1, N'Bike', 1000), (2, N'Helmet', 50), (3, N'Bottle', 5), (4, N'Tire', 30), (5, N'Lamp', 20)
INSERT INTO Sales.SpecialOffer_inmem VALUES (1, 0), (2, 0.1)
GO
