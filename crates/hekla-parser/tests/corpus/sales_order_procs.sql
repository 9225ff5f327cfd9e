-- In-memory OLTP sales-order sample, part 2 (written in the style of the AdventureWorks in-memory OLTP sample): natively compiled Sales.usp_InsertSalesOrder_inmem and Sales.usp_UpdateSalesOrderShipInfo_native, the retry wrapper Sales.usp_UpdateSalesOrderShipInfo_inmem, Demo.usp_DemoReset and the demo driver scripts. Schema objects are in sales_order.sql.
-- Insert a sales order: header first, then one detail row per TVP row, priced from Product_inmem
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
    -- retrieve the system time once and use it for every datetime column of the order
    DECLARE @OrderDate datetime2(7) NOT NULL = SYSDATETIME();
    DECLARE @SubTotal money NOT NULL = 0;

    SELECT @SubTotal = ISNULL(SUM(p.ListPrice * (1 - ISNULL(so.DiscountPct, 0)) * od.OrderQty), 0)
    FROM @SalesOrderDetails AS od
        INNER JOIN Production.Product_inmem AS p ON od.ProductID = p.ProductID
        LEFT JOIN Sales.SpecialOffer_inmem AS so ON od.SpecialOfferID = so.SpecialOfferID;

    SET @SalesOrderID = NEXT VALUE FOR Sales.SQ_SalesOrderID_inmem;

    INSERT INTO Sales.SalesOrderHeader_inmem
        (SalesOrderID, DueDate, [Status], OnlineOrderFlag, PurchaseOrderNumber, AccountNumber,
         CustomerID, SalesPersonID, TerritoryID, BillToAddressID, ShipToAddressID, ShipMethodID,
         CreditCardID, CreditCardApprovalCode, CurrencyRateID, Comment, OrderDate, SubTotal, ModifiedDate)
    VALUES
        (@SalesOrderID, @DueDate, @Status, @OnlineOrderFlag, @PurchaseOrderNumber, @AccountNumber,
         @CustomerID, @SalesPersonID, @TerritoryID, @BillToAddressID, @ShipToAddressID, @ShipMethodID,
         @CreditCardID, @CreditCardApprovalCode, @CurrencyRateID, @Comment, @OrderDate, @SubTotal, @OrderDate);

    INSERT INTO Sales.SalesOrderDetail_inmem
        (SalesOrderID, OrderQty, ProductID, SpecialOfferID, UnitPrice, UnitPriceDiscount, ModifiedDate)
    SELECT @SalesOrderID,
           od.OrderQty,
           od.ProductID,
           od.SpecialOfferID,
           p.ListPrice,
           p.ListPrice * ISNULL(so.DiscountPct, 0),
           @OrderDate
    FROM @SalesOrderDetails AS od
        INNER JOIN Production.Product_inmem AS p ON od.ProductID = p.ProductID
        LEFT JOIN Sales.SpecialOffer_inmem AS so ON od.SpecialOfferID = so.SpecialOfferID;
END
GO
-- Update the shipping information of one order and all of its lines (no retry logic)
CREATE PROCEDURE Sales.usp_UpdateSalesOrderShipInfo_native
    @SalesOrderID           int,
    @ShipDate               datetime2(7),
    @Comment                nvarchar(128),
    @Status                 tinyint,
    @TaxRate                smallmoney,
    @Freight                money,
    @CarrierTrackingNumber  nvarchar(25)
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @now datetime2(7) = SYSDATETIME();

    UPDATE Sales.SalesOrderDetail_inmem
    SET CarrierTrackingNumber = @CarrierTrackingNumber,
        ModifiedDate = @now
    WHERE SalesOrderID = @SalesOrderID;

    UPDATE Sales.SalesOrderHeader_inmem
    SET RevisionNumber = RevisionNumber + 1,
        ShipDate = @ShipDate,
        [Status] = @Status,
        TaxAmt = SubTotal * @TaxRate,
        Freight = @Freight,
        Comment = @Comment,
        ModifiedDate = @now
    WHERE SalesOrderID = @SalesOrderID;

    IF @@ROWCOUNT = 0
        THROW 51000, N'The sales order does not exist.', 1;
END
GO
-- Interpreted wrapper that retries the native procedure on write conflicts, validation failures and deadlocks
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
                IF XACT_STATE() = -1
                    ROLLBACK TRANSACTION;

                WAITFOR DELAY '00:00:00.001';
            END
            ELSE
            BEGIN
                PRINT 'Suffered an error for which a retry is inappropriate.';
                THROW;
            END
        END CATCH;
    END
END
GO
-- Reset the demo: empty the order tables and start the order numbers over
CREATE PROCEDURE Demo.usp_DemoReset
AS
BEGIN
    SET NOCOUNT ON;
    DELETE FROM Sales.SalesOrderDetail_inmem;
    DELETE FROM Sales.SalesOrderHeader_inmem;
    ALTER SEQUENCE Sales.SQ_SalesOrderID_inmem RESTART WITH 75124;
    CHECKPOINT;
END
GO
-- Demo driver: build one sample order in a TVP and insert it 20 times
SET NOCOUNT ON;
DECLARE @i                int = 0,
        @od               Sales.SalesOrderDetailType_inmem,
        @SalesOrderID     int,
        @DueDate          datetime2 = SYSDATETIME(),
        @CustomerID       int = RAND() * 8000,
        @BillToAddressID  int = RAND() * 10000,
        @ShipToAddressID  int = RAND() * 10000,
        @ShipMethodID     int = (RAND() * 5) + 1;

INSERT INTO @od
SELECT OrderQty, ProductID, SpecialOfferID
FROM Demo.DemoSalesOrderDetailSeed
WHERE OrderID = CAST((RAND() * 106) + 1 AS int);

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
    SET @i += 1;
END
GO
-- Ship the most recent order through the retry wrapper, using named parameters
DECLARE @id int = (SELECT MAX(SalesOrderID) FROM Sales.SalesOrderHeader_inmem);
EXEC Sales.usp_UpdateSalesOrderShipInfo_inmem
    @SalesOrderID = @id,
    @ShipDate = '2024-06-01T10:00:00',
    @Comment = N'shipped',
    @Status = 5,
    @TaxRate = 0.08,
    @Freight = $12.50,
    @CarrierTrackingNumber = N'4911-403C-98';
SELECT h.SalesOrderID, h.[Status], h.ShipDate, COUNT(d.SalesOrderDetailID) AS lines
FROM Sales.SalesOrderHeader_inmem AS h WITH (SNAPSHOT)
    LEFT JOIN Sales.SalesOrderDetail_inmem AS d WITH (SNAPSHOT) ON d.SalesOrderID = h.SalesOrderID
WHERE h.SalesOrderID = @id
GROUP BY h.SalesOrderID, h.[Status], h.ShipDate;
GO
-- Reset
EXEC Demo.usp_DemoReset;
GO
