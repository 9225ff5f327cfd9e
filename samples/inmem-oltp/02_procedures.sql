-- The in-memory OLTP sales-order sample, script 2 of 4: the procedures on
-- the memory-optimized tables.
--
-- Sales.usp_InsertSalesOrder_inmem is the workload's procedure. The ship
-- info update comes as a natively compiled procedure and an interpreted
-- wrapper that retries it on conflicts. The product and special-offer
-- procedures keep the integrity rules that no constraint keeps (unique
-- names; no delete of a product or offer that order lines name).

-------------------------------------------------------------------------------
-- Insert one sales order and its lines; the new order's id comes back in
-- @SalesOrderID. The lines are priced from Production.Product_inmem and
-- discounted by their Sales.SpecialOffer_inmem; the system time is read
-- once and used for every date of the order.
-------------------------------------------------------------------------------
CREATE PROCEDURE Sales.usp_InsertSalesOrder_inmem
    @SalesOrderID            int OUTPUT,
    @DueDate                 datetime2(7) NOT NULL,
    @CustomerID              int NOT NULL,
    @BillToAddressID         int NOT NULL,
    @ShipToAddressID         int NOT NULL,
    @ShipMethodID            int NOT NULL,
    @SalesOrderDetails       Sales.SalesOrderDetailType_inmem READONLY,
    @Status                  tinyint NOT NULL = 1,
    @OnlineOrderFlag         bit NOT NULL = 1,
    @PurchaseOrderNumber     nvarchar(25) = NULL,
    @AccountNumber           nvarchar(15) = NULL,
    @SalesPersonID           int NOT NULL = -1,
    @TerritoryID             int = NULL,
    @CreditCardID            int = NULL,
    @CreditCardApprovalCode  varchar(15) = NULL,
    @CurrencyRateID          int = NULL,
    @Comment                 nvarchar(128) = NULL
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @OrderDate datetime2(7) NOT NULL = SYSDATETIME();
    DECLARE @SubTotal money NOT NULL = 0;

    -- Outer joins: a line naming a product or an offer that does not exist
    -- gets a NULL price or discount, which the lines' NOT NULL columns
    -- refuse (Msg 515), undoing the whole order.
    SELECT @SubTotal = ISNULL(SUM(p.ListPrice * (1.0 - so.DiscountPct) * od.OrderQty), 0)
    FROM @SalesOrderDetails AS od
        LEFT JOIN Production.Product_inmem AS p ON p.ProductID = od.ProductID
        LEFT JOIN Sales.SpecialOffer_inmem AS so ON so.SpecialOfferID = od.SpecialOfferID;

    INSERT INTO Sales.SalesOrderHeader_inmem
        (DueDate, [Status], OnlineOrderFlag, PurchaseOrderNumber, AccountNumber, CustomerID,
         SalesPersonID, TerritoryID, BillToAddressID, ShipToAddressID, ShipMethodID, CreditCardID,
         CreditCardApprovalCode, CurrencyRateID, Comment, OrderDate, SubTotal, ModifiedDate)
    VALUES
        (@DueDate, @Status, @OnlineOrderFlag, @PurchaseOrderNumber, @AccountNumber, @CustomerID,
         @SalesPersonID, @TerritoryID, @BillToAddressID, @ShipToAddressID, @ShipMethodID, @CreditCardID,
         @CreditCardApprovalCode, @CurrencyRateID, @Comment, @OrderDate, @SubTotal, @OrderDate);

    SET @SalesOrderID = SCOPE_IDENTITY();

    INSERT INTO Sales.SalesOrderDetail_inmem
        (SalesOrderID, OrderQty, ProductID, SpecialOfferID, UnitPrice, UnitPriceDiscount, ModifiedDate)
    SELECT @SalesOrderID, od.OrderQty, od.ProductID, od.SpecialOfferID, p.ListPrice, so.DiscountPct, @OrderDate
    FROM @SalesOrderDetails AS od
        LEFT JOIN Production.Product_inmem AS p ON p.ProductID = od.ProductID
        LEFT JOIN Sales.SpecialOffer_inmem AS so ON so.SpecialOfferID = od.SpecialOfferID;
END
GO

-------------------------------------------------------------------------------
-- Ship an order: the shipping details of the header and its lines, the tax
-- from the order's subtotal. Fails on a conflict with a concurrent update
-- of the same order (41302 and the like): call it through
-- Sales.usp_UpdateSalesOrderShipInfo_inmem, or retry it yourself.
-------------------------------------------------------------------------------
CREATE PROCEDURE Sales.usp_UpdateSalesOrderShipInfo_native
    @SalesOrderID           int NOT NULL,
    @ShipDate               datetime2(7) NOT NULL,
    @Comment                nvarchar(128),
    @Status                 tinyint NOT NULL,
    @TaxRate                smallmoney NOT NULL,
    @Freight                money NOT NULL,
    @CarrierTrackingNumber  nvarchar(25)
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @ModifiedDate datetime2(7) NOT NULL = SYSDATETIME();

    UPDATE Sales.SalesOrderHeader_inmem
    SET RevisionNumber = RevisionNumber + 1,
        ShipDate = @ShipDate,
        [Status] = @Status,
        TaxAmt = SubTotal * @TaxRate,
        Freight = @Freight,
        Comment = @Comment,
        ModifiedDate = @ModifiedDate
    WHERE SalesOrderID = @SalesOrderID;

    IF @@ROWCOUNT = 0
        THROW 51000, N'The sales order does not exist.', 1;

    UPDATE Sales.SalesOrderDetail_inmem
    SET CarrierTrackingNumber = @CarrierTrackingNumber,
        ModifiedDate = @ModifiedDate
    WHERE SalesOrderID = @SalesOrderID;
END
GO

-------------------------------------------------------------------------------
-- The retrying wrapper: write conflicts (41302), repeatable-read (41305)
-- and serializable (41325) validation failures, commit dependency
-- failures (41301) and deadlocks (1205) are tried again, up to ten times;
-- any other error goes to the caller.
-------------------------------------------------------------------------------
CREATE PROCEDURE Sales.usp_UpdateSalesOrderShipInfo_inmem
    @SalesOrderID           int,
    @ShipDate               datetime2(7),
    @Comment                nvarchar(128),
    @Status                 tinyint,
    @TaxRate                smallmoney,
    @Freight                money,
    @CarrierTrackingNumber  nvarchar(25)
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @retry int = 10;

    WHILE (@retry > 0)
    BEGIN
        BEGIN TRY
            EXEC Sales.usp_UpdateSalesOrderShipInfo_native
                @SalesOrderID = @SalesOrderID,
                @ShipDate = @ShipDate,
                @Comment = @Comment,
                @Status = @Status,
                @TaxRate = @TaxRate,
                @Freight = @Freight,
                @CarrierTrackingNumber = @CarrierTrackingNumber;

            SET @retry = 0;
        END TRY
        BEGIN CATCH
            SET @retry -= 1;

            IF (@retry > 0 AND ERROR_NUMBER() IN (41302, 41305, 41325, 41301, 1205))
            BEGIN
                -- A doomed transaction of the caller's cannot go on.
                IF XACT_STATE() = -1
                    ROLLBACK TRANSACTION;

                WAITFOR DELAY '00:00:00.001';
            END
            ELSE
            BEGIN
                THROW;
            END
        END CATCH;
    END
END
GO

-------------------------------------------------------------------------------
-- Products: names and product numbers are unique (the indexes on them are
-- not), and a product that order lines name is not deleted (the order
-- tables have no foreign keys); a deleted product leaves the special
-- offers it was on.
-------------------------------------------------------------------------------
CREATE PROCEDURE Production.usp_InsertProduct_inmem
    @ProductID              int OUTPUT,
    @Name                   nvarchar(50) NOT NULL,
    @ProductNumber          nvarchar(25) NOT NULL,
    @SafetyStockLevel       smallint NOT NULL,
    @ReorderPoint           smallint NOT NULL,
    @StandardCost           money NOT NULL,
    @ListPrice              money NOT NULL,
    @DaysToManufacture      int NOT NULL,
    @SellStartDate          datetime2(7) NOT NULL,
    @MakeFlag               bit NOT NULL = 1,
    @FinishedGoodsFlag      bit NOT NULL = 1,
    @Color                  nvarchar(15) = NULL,
    @Size                   nvarchar(5) = NULL,
    @SizeUnitMeasureCode    nchar(3) = NULL,
    @WeightUnitMeasureCode  nchar(3) = NULL,
    @Weight                 decimal(8, 2) = NULL,
    @ProductLine            nchar(2) = NULL,
    @Class                  nchar(2) = NULL,
    @Style                  nchar(2) = NULL,
    @ProductSubcategoryID   int = NULL,
    @ProductModelID         int = NULL,
    @SellEndDate            datetime2(7) = NULL,
    @DiscontinuedDate       datetime2(7) = NULL
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SERIALIZABLE, LANGUAGE = N'us_english')
    DECLARE @taken int = 0;

    SELECT TOP (1) @taken = 1
    FROM Production.Product_inmem
    WHERE [Name] = @Name OR ProductNumber = @ProductNumber;

    IF @taken = 1
        THROW 51001, N'A product with this name or product number already exists.', 1;

    INSERT INTO Production.Product_inmem
        ([Name], ProductNumber, MakeFlag, FinishedGoodsFlag, Color, SafetyStockLevel, ReorderPoint,
         StandardCost, ListPrice, [Size], SizeUnitMeasureCode, WeightUnitMeasureCode, [Weight],
         DaysToManufacture, ProductLine, Class, Style, ProductSubcategoryID, ProductModelID,
         SellStartDate, SellEndDate, DiscontinuedDate)
    VALUES
        (@Name, @ProductNumber, @MakeFlag, @FinishedGoodsFlag, @Color, @SafetyStockLevel, @ReorderPoint,
         @StandardCost, @ListPrice, @Size, @SizeUnitMeasureCode, @WeightUnitMeasureCode, @Weight,
         @DaysToManufacture, @ProductLine, @Class, @Style, @ProductSubcategoryID, @ProductModelID,
         @SellStartDate, @SellEndDate, @DiscontinuedDate);

    SET @ProductID = SCOPE_IDENTITY();
END
GO
CREATE PROCEDURE Production.usp_DeleteProduct_inmem
    @ProductID int NOT NULL
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SERIALIZABLE, LANGUAGE = N'us_english')
    DECLARE @referenced int = 0;

    SELECT TOP (1) @referenced = 1
    FROM Sales.SalesOrderDetail_inmem
    WHERE ProductID = @ProductID;

    IF @referenced = 1
        THROW 51002, N'The product is named by sales order lines and cannot be deleted.', 1;

    DELETE FROM Sales.SpecialOfferProduct_inmem WHERE ProductID = @ProductID;
    DELETE FROM Production.Product_inmem WHERE ProductID = @ProductID;
END
GO

-------------------------------------------------------------------------------
-- Special offers and the products they are for: an offer that order lines
-- name is not deleted; the foreign keys of Sales.SpecialOfferProduct_inmem
-- refuse an offer or a product that does not exist (Msg 547).
-------------------------------------------------------------------------------
CREATE PROCEDURE Sales.usp_InsertSpecialOffer_inmem
    @SpecialOfferID  int OUTPUT,
    @Description     nvarchar(255) NOT NULL,
    @DiscountPct     smallmoney NOT NULL = 0,
    @Type            nvarchar(50) NOT NULL,
    @Category        nvarchar(50) NOT NULL,
    @StartDate       datetime2(7) NOT NULL,
    @EndDate         datetime2(7) NOT NULL,
    @MinQty          int NOT NULL = 0,
    @MaxQty          int = NULL
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    INSERT INTO Sales.SpecialOffer_inmem
        ([Description], DiscountPct, [Type], Category, StartDate, EndDate, MinQty, MaxQty)
    VALUES
        (@Description, @DiscountPct, @Type, @Category, @StartDate, @EndDate, @MinQty, @MaxQty);

    SET @SpecialOfferID = SCOPE_IDENTITY();
END
GO
CREATE PROCEDURE Sales.usp_DeleteSpecialOffer_inmem
    @SpecialOfferID int NOT NULL
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SERIALIZABLE, LANGUAGE = N'us_english')
    DECLARE @referenced int = 0;

    SELECT TOP (1) @referenced = 1
    FROM Sales.SalesOrderDetail_inmem
    WHERE SpecialOfferID = @SpecialOfferID;

    IF @referenced = 1
        THROW 51003, N'The special offer is named by sales order lines and cannot be deleted.', 1;

    -- The offer's product list goes with it.
    DELETE FROM Sales.SpecialOfferProduct_inmem WHERE SpecialOfferID = @SpecialOfferID;
    DELETE FROM Sales.SpecialOffer_inmem WHERE SpecialOfferID = @SpecialOfferID;
END
GO
CREATE PROCEDURE Sales.usp_InsertSpecialOfferProduct_inmem
    @SpecialOfferID  int NOT NULL,
    @ProductID       int NOT NULL
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    INSERT INTO Sales.SpecialOfferProduct_inmem (SpecialOfferID, ProductID)
    VALUES (@SpecialOfferID, @ProductID);
END
GO
