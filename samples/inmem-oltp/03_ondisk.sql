-- The in-memory OLTP sales-order sample, script 3 of 4: the disk-based
-- twins of the memory-optimized tables (suffix _ondisk), their table type
-- and their procedures, for the one-to-one comparison of the workload.
--
-- They have the same columns and constraints as the _inmem tables, with
-- the indexes a disk-based table would have: a clustered primary key and
-- nonclustered indexes. In hekla an ordinary table is held in memory too,
-- in the same multiversion engine (no buffer pool, no page latches, no
-- locks): the comparison there measures the two procedures (one atomic
-- block against a user transaction) and hash against range indexes, not
-- disk.

CREATE TABLE Production.Product_ondisk
(
    ProductID              int IDENTITY NOT NULL,
    [Name]                 nvarchar(50) NOT NULL,
    ProductNumber          nvarchar(25) NOT NULL,
    MakeFlag               bit NOT NULL CONSTRAINT ODDF_Product_MakeFlag DEFAULT (1),
    FinishedGoodsFlag      bit NOT NULL CONSTRAINT ODDF_Product_FinishedGoodsFlag DEFAULT (1),
    Color                  nvarchar(15) NULL,
    SafetyStockLevel       smallint NOT NULL,
    ReorderPoint           smallint NOT NULL,
    StandardCost           money NOT NULL,
    ListPrice              money NOT NULL,
    [Size]                 nvarchar(5) NULL,
    SizeUnitMeasureCode    nchar(3) NULL,
    WeightUnitMeasureCode  nchar(3) NULL,
    [Weight]               decimal(8, 2) NULL,
    DaysToManufacture      int NOT NULL,
    ProductLine            nchar(2) NULL,
    Class                  nchar(2) NULL,
    Style                  nchar(2) NULL,
    ProductSubcategoryID   int NULL,
    ProductModelID         int NULL,
    SellStartDate          datetime2(7) NOT NULL,
    SellEndDate            datetime2(7) NULL,
    DiscontinuedDate       datetime2(7) NULL,
    ModifiedDate           datetime2(7) NOT NULL CONSTRAINT ODDF_Product_ModifiedDate DEFAULT (SYSDATETIME()),
    CONSTRAINT ODPK_Product_ProductID PRIMARY KEY CLUSTERED (ProductID),
    CONSTRAINT ODCK_Product_SafetyStockLevel CHECK (SafetyStockLevel > 0),
    CONSTRAINT ODCK_Product_ReorderPoint CHECK (ReorderPoint > 0),
    CONSTRAINT ODCK_Product_StandardCost CHECK (StandardCost >= 0.00),
    CONSTRAINT ODCK_Product_ListPrice CHECK (ListPrice >= 0.00),
    CONSTRAINT ODCK_Product_Weight CHECK ([Weight] > 0.00),
    CONSTRAINT ODCK_Product_DaysToManufacture CHECK (DaysToManufacture >= 0),
    CONSTRAINT ODCK_Product_ProductLine CHECK (UPPER(ProductLine) IN (N'S', N'T', N'M', N'R') OR ProductLine IS NULL),
    CONSTRAINT ODCK_Product_Class CHECK (UPPER(Class) IN (N'L', N'M', N'H') OR Class IS NULL),
    CONSTRAINT ODCK_Product_Style CHECK (UPPER(Style) IN (N'W', N'M', N'U') OR Style IS NULL),
    CONSTRAINT ODCK_Product_SellEndDate CHECK (SellEndDate >= SellStartDate OR SellEndDate IS NULL),
    INDEX IX_Name NONCLUSTERED ([Name]),
    INDEX IX_ProductNumber NONCLUSTERED (ProductNumber)
)
GO
CREATE TABLE Sales.SpecialOffer_ondisk
(
    SpecialOfferID  int IDENTITY NOT NULL,
    [Description]   nvarchar(255) NOT NULL,
    DiscountPct     smallmoney NOT NULL CONSTRAINT ODDF_SpecialOffer_DiscountPct DEFAULT (0.00),
    [Type]          nvarchar(50) NOT NULL,
    Category        nvarchar(50) NOT NULL,
    StartDate       datetime2(7) NOT NULL,
    EndDate         datetime2(7) NOT NULL,
    MinQty          int NOT NULL CONSTRAINT ODDF_SpecialOffer_MinQty DEFAULT (0),
    MaxQty          int NULL,
    ModifiedDate    datetime2(7) NOT NULL CONSTRAINT ODDF_SpecialOffer_ModifiedDate DEFAULT (SYSDATETIME()),
    CONSTRAINT ODPK_SpecialOffer_SpecialOfferID PRIMARY KEY CLUSTERED (SpecialOfferID),
    CONSTRAINT ODCK_SpecialOffer_EndDate CHECK (EndDate >= StartDate),
    CONSTRAINT ODCK_SpecialOffer_DiscountPct CHECK (DiscountPct >= 0.00),
    CONSTRAINT ODCK_SpecialOffer_MinQty CHECK (MinQty >= 0),
    CONSTRAINT ODCK_SpecialOffer_MaxQty CHECK (MaxQty >= 0)
)
GO
CREATE TABLE Sales.SpecialOfferProduct_ondisk
(
    SpecialOfferID  int NOT NULL,
    ProductID       int NOT NULL,
    ModifiedDate    datetime2(7) NOT NULL CONSTRAINT ODDF_SpecialOfferProduct_ModifiedDate DEFAULT (SYSDATETIME()),
    CONSTRAINT ODPK_SpecialOfferProduct_SpecialOfferID_ProductID PRIMARY KEY CLUSTERED (SpecialOfferID, ProductID),
    CONSTRAINT ODFK_SpecialOfferProduct_SpecialOffer_SpecialOfferID
        FOREIGN KEY (SpecialOfferID) REFERENCES Sales.SpecialOffer_ondisk (SpecialOfferID),
    CONSTRAINT ODFK_SpecialOfferProduct_Product_ProductID
        FOREIGN KEY (ProductID) REFERENCES Production.Product_ondisk (ProductID),
    INDEX IX_ProductID NONCLUSTERED (ProductID)
)
GO
CREATE TABLE Sales.SalesOrderHeader_ondisk
(
    SalesOrderID            int IDENTITY NOT NULL,
    RevisionNumber          tinyint NOT NULL CONSTRAINT ODDF_SalesOrderHeader_RevisionNumber DEFAULT (0),
    OrderDate               datetime2(7) NOT NULL,
    DueDate                 datetime2(7) NOT NULL,
    ShipDate                datetime2(7) NULL,
    [Status]                tinyint NOT NULL CONSTRAINT ODDF_SalesOrderHeader_Status DEFAULT (1),
    OnlineOrderFlag         bit NOT NULL CONSTRAINT ODDF_SalesOrderHeader_OnlineOrderFlag DEFAULT (1),
    PurchaseOrderNumber     nvarchar(25) NULL,
    AccountNumber           nvarchar(15) NULL,
    CustomerID              int NOT NULL,
    SalesPersonID           int NOT NULL CONSTRAINT ODDF_SalesOrderHeader_SalesPersonID DEFAULT (-1),
    TerritoryID             int NULL,
    BillToAddressID         int NOT NULL,
    ShipToAddressID         int NOT NULL,
    ShipMethodID            int NOT NULL,
    CreditCardID            int NULL,
    CreditCardApprovalCode  varchar(15) NULL,
    CurrencyRateID          int NULL,
    SubTotal                money NOT NULL CONSTRAINT ODDF_SalesOrderHeader_SubTotal DEFAULT (0.00),
    TaxAmt                  money NOT NULL CONSTRAINT ODDF_SalesOrderHeader_TaxAmt DEFAULT (0.00),
    Freight                 money NOT NULL CONSTRAINT ODDF_SalesOrderHeader_Freight DEFAULT (0.00),
    Comment                 nvarchar(128) NULL,
    ModifiedDate            datetime2(7) NOT NULL,
    CONSTRAINT ODPK_SalesOrderHeader_SalesOrderID PRIMARY KEY CLUSTERED (SalesOrderID),
    CONSTRAINT ODCK_SalesOrderHeader_Status CHECK ([Status] BETWEEN 0 AND 8),
    CONSTRAINT ODCK_SalesOrderHeader_ShipDate CHECK (ShipDate >= OrderDate OR ShipDate IS NULL),
    CONSTRAINT ODCK_SalesOrderHeader_SubTotal CHECK (SubTotal >= 0.00),
    CONSTRAINT ODCK_SalesOrderHeader_TaxAmt CHECK (TaxAmt >= 0.00),
    CONSTRAINT ODCK_SalesOrderHeader_Freight CHECK (Freight >= 0.00),
    INDEX IX_SalesPersonID NONCLUSTERED (SalesPersonID),
    INDEX IX_CustomerID NONCLUSTERED (CustomerID)
)
GO
CREATE TABLE Sales.SalesOrderDetail_ondisk
(
    SalesOrderID           int NOT NULL,
    SalesOrderDetailID     bigint IDENTITY NOT NULL,
    CarrierTrackingNumber  nvarchar(25) NULL,
    OrderQty               smallint NOT NULL,
    ProductID              int NOT NULL,
    SpecialOfferID         int NOT NULL,
    UnitPrice              money NOT NULL,
    UnitPriceDiscount      money NOT NULL CONSTRAINT ODDF_SalesOrderDetail_UnitPriceDiscount DEFAULT (0.0),
    ModifiedDate           datetime2(7) NOT NULL,
    CONSTRAINT ODPK_SalesOrderDetail_SalesOrderID_SalesOrderDetailID
        PRIMARY KEY CLUSTERED (SalesOrderID, SalesOrderDetailID),
    CONSTRAINT ODCK_SalesOrderDetail_OrderQty CHECK (OrderQty > 0),
    CONSTRAINT ODCK_SalesOrderDetail_UnitPrice CHECK (UnitPrice >= 0.00),
    CONSTRAINT ODCK_SalesOrderDetail_UnitPriceDiscount CHECK (UnitPriceDiscount >= 0.00),
    INDEX IX_ProductID NONCLUSTERED (ProductID)
)
GO
CREATE TYPE Sales.SalesOrderDetailType_ondisk AS TABLE
(
    OrderQty        smallint NOT NULL,
    ProductID       int NOT NULL,
    SpecialOfferID  int NOT NULL,
    INDEX IX_ProductID NONCLUSTERED (ProductID),
    INDEX IX_SpecialOfferID NONCLUSTERED (SpecialOfferID)
)
GO

-------------------------------------------------------------------------------
-- Sales.usp_InsertSalesOrder_inmem as an interpreted procedure over the
-- disk-based tables, in a transaction of its own.
-------------------------------------------------------------------------------
CREATE PROCEDURE Sales.usp_InsertSalesOrder_ondisk
    @SalesOrderID            int OUTPUT,
    @DueDate                 datetime2(7),
    @CustomerID              int,
    @BillToAddressID         int,
    @ShipToAddressID         int,
    @ShipMethodID            int,
    @SalesOrderDetails       Sales.SalesOrderDetailType_ondisk READONLY,
    @Status                  tinyint = 1,
    @OnlineOrderFlag         bit = 1,
    @PurchaseOrderNumber     nvarchar(25) = NULL,
    @AccountNumber           nvarchar(15) = NULL,
    @SalesPersonID           int = -1,
    @TerritoryID             int = NULL,
    @CreditCardID            int = NULL,
    @CreditCardApprovalCode  varchar(15) = NULL,
    @CurrencyRateID          int = NULL,
    @Comment                 nvarchar(128) = NULL
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;

    BEGIN TRANSACTION;

    DECLARE @OrderDate datetime2(7) = SYSDATETIME();
    DECLARE @SubTotal money = 0;

    SELECT @SubTotal = ISNULL(SUM(p.ListPrice * (1.0 - so.DiscountPct) * od.OrderQty), 0)
    FROM @SalesOrderDetails AS od
        LEFT JOIN Production.Product_ondisk AS p ON p.ProductID = od.ProductID
        LEFT JOIN Sales.SpecialOffer_ondisk AS so ON so.SpecialOfferID = od.SpecialOfferID;

    INSERT INTO Sales.SalesOrderHeader_ondisk
        (DueDate, [Status], OnlineOrderFlag, PurchaseOrderNumber, AccountNumber, CustomerID,
         SalesPersonID, TerritoryID, BillToAddressID, ShipToAddressID, ShipMethodID, CreditCardID,
         CreditCardApprovalCode, CurrencyRateID, Comment, OrderDate, SubTotal, ModifiedDate)
    VALUES
        (@DueDate, @Status, @OnlineOrderFlag, @PurchaseOrderNumber, @AccountNumber, @CustomerID,
         @SalesPersonID, @TerritoryID, @BillToAddressID, @ShipToAddressID, @ShipMethodID, @CreditCardID,
         @CreditCardApprovalCode, @CurrencyRateID, @Comment, @OrderDate, @SubTotal, @OrderDate);

    SET @SalesOrderID = SCOPE_IDENTITY();

    INSERT INTO Sales.SalesOrderDetail_ondisk
        (SalesOrderID, OrderQty, ProductID, SpecialOfferID, UnitPrice, UnitPriceDiscount, ModifiedDate)
    SELECT @SalesOrderID, od.OrderQty, od.ProductID, od.SpecialOfferID, p.ListPrice, so.DiscountPct, @OrderDate
    FROM @SalesOrderDetails AS od
        LEFT JOIN Production.Product_ondisk AS p ON p.ProductID = od.ProductID
        LEFT JOIN Sales.SpecialOffer_ondisk AS so ON so.SpecialOfferID = od.SpecialOfferID;

    COMMIT TRANSACTION;
END
GO

-------------------------------------------------------------------------------
-- Sales.usp_UpdateSalesOrderShipInfo_native over the disk-based tables. In
-- SQL Server a concurrent update of the same order waits for its locks;
-- hekla has no locks, and there it fails with 41302 as on an _inmem table.
-------------------------------------------------------------------------------
CREATE PROCEDURE Sales.usp_UpdateSalesOrderShipInfo_ondisk
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
    SET XACT_ABORT ON;

    BEGIN TRANSACTION;

    DECLARE @ModifiedDate datetime2(7) = SYSDATETIME();

    UPDATE Sales.SalesOrderHeader_ondisk
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

    UPDATE Sales.SalesOrderDetail_ondisk
    SET CarrierTrackingNumber = @CarrierTrackingNumber,
        ModifiedDate = @ModifiedDate
    WHERE SalesOrderID = @SalesOrderID;

    COMMIT TRANSACTION;
END
GO
