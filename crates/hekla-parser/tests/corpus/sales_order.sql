-- In-memory OLTP sales-order sample, part 1 (written in the style of the AdventureWorks in-memory OLTP sample): schemas, memory-optimized tables Production.Product_inmem, Sales.SpecialOffer_inmem, Sales.SpecialOfferProduct_inmem, Sales.SalesOrderHeader_inmem, Sales.SalesOrderDetail_inmem, Demo.DemoSalesOrderDetailSeed, the order-number sequence and the table type Sales.SalesOrderDetailType_inmem. Procedures and the demo driver are in sales_order_procs.sql.
CREATE SCHEMA Sales AUTHORIZATION dbo;
GO
CREATE SCHEMA Production AUTHORIZATION dbo;
GO
CREATE SCHEMA Demo AUTHORIZATION dbo;
GO
CREATE TABLE Production.Product_inmem
(
    ProductID             int IDENTITY NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1048576),
    [Name]                nvarchar(50) NOT NULL,
    ProductNumber         nvarchar(25) NOT NULL,
    MakeFlag              bit NOT NULL CONSTRAINT IMDF_Product_MakeFlag DEFAULT ((1)),
    FinishedGoodsFlag     bit NOT NULL CONSTRAINT IMDF_Product_FinishedGoodsFlag DEFAULT ((1)),
    Color                 nvarchar(15) NULL,
    SafetyStockLevel      smallint NOT NULL,
    ReorderPoint          smallint NOT NULL,
    StandardCost          money NOT NULL,
    ListPrice             money NOT NULL,
    [Size]                nvarchar(5) NULL,
    Weight                decimal(8, 2) NULL,
    DaysToManufacture     int NOT NULL,
    ProductSubcategoryID  int NULL,
    SellStartDate         datetime2(7) NOT NULL,
    SellEndDate           datetime2(7) NULL,
    ModifiedDate          datetime2(7) NOT NULL CONSTRAINT IMDF_Product_ModifiedDate DEFAULT (SYSDATETIME()),
    CONSTRAINT IMCK_Product_ListPrice CHECK (ListPrice >= 0.00),
    CONSTRAINT IMCK_Product_SellEndDate CHECK (SellEndDate >= SellStartDate OR SellEndDate IS NULL),
    INDEX IX_Name NONCLUSTERED ([Name]),
    INDEX IX_ProductNumber NONCLUSTERED (ProductNumber)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
CREATE TABLE Sales.SpecialOffer_inmem
(
    SpecialOfferID  int IDENTITY (1, 1) NOT NULL,
    [Description]   nvarchar(255) NOT NULL,
    DiscountPct     smallmoney NOT NULL CONSTRAINT IMDF_SpecialOffer_DiscountPct DEFAULT ((0.00)),
    [Type]          nvarchar(50) NOT NULL,
    Category        nvarchar(50) NOT NULL,
    StartDate       datetime2(7) NOT NULL,
    EndDate         datetime2(7) NOT NULL,
    MinQty          int NOT NULL CONSTRAINT IMDF_SpecialOffer_MinQty DEFAULT ((0)),
    MaxQty          int NULL,
    ModifiedDate    datetime2(7) NOT NULL CONSTRAINT IMDF_SpecialOffer_ModifiedDate DEFAULT (SYSDATETIME()),
    CONSTRAINT IMPK_SpecialOffer_SpecialOfferID PRIMARY KEY NONCLUSTERED HASH (SpecialOfferID) WITH (BUCKET_COUNT = 1048576),
    CONSTRAINT IMCK_SpecialOffer_EndDate CHECK (EndDate >= StartDate)
) WITH (MEMORY_OPTIMIZED = ON);
GO
CREATE TABLE Sales.SpecialOfferProduct_inmem
(
    SpecialOfferID  int NOT NULL,
    ProductID       int NOT NULL,
    ModifiedDate    datetime2(7) NOT NULL CONSTRAINT IMDF_SpecialOfferProduct_ModifiedDate DEFAULT (SYSDATETIME()),
    CONSTRAINT IMPK_SpecialOfferProduct PRIMARY KEY NONCLUSTERED (SpecialOfferID, ProductID),
    CONSTRAINT IMFK_SpecialOfferProduct_SpecialOffer FOREIGN KEY (SpecialOfferID) REFERENCES Sales.SpecialOffer_inmem (SpecialOfferID),
    CONSTRAINT IMFK_SpecialOfferProduct_Product FOREIGN KEY (ProductID) REFERENCES Production.Product_inmem (ProductID),
    INDEX IX_ProductID NONCLUSTERED (ProductID)
) WITH (MEMORY_OPTIMIZED = ON);
GO
CREATE TABLE Sales.SalesOrderHeader_inmem
(
    SalesOrderID            int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 16777216),
    RevisionNumber          tinyint NOT NULL CONSTRAINT IMDF_SalesOrderHeader_RevisionNumber DEFAULT ((0)),
    OrderDate               datetime2(7) NOT NULL,
    DueDate                 datetime2(7) NOT NULL,
    ShipDate                datetime2(7) NULL,
    [Status]                tinyint NOT NULL CONSTRAINT IMDF_SalesOrderHeader_Status DEFAULT ((1)),
    OnlineOrderFlag         bit NOT NULL CONSTRAINT IMDF_SalesOrderHeader_OnlineOrderFlag DEFAULT ((1)),
    PurchaseOrderNumber     nvarchar(25) NULL,
    AccountNumber           nvarchar(15) NULL,
    CustomerID              int NOT NULL,
    SalesPersonID           int NOT NULL CONSTRAINT IMDF_SalesOrderHeader_SalesPersonID DEFAULT ((-1)),
    TerritoryID             int NULL,
    BillToAddressID         int NOT NULL,
    ShipToAddressID         int NOT NULL,
    ShipMethodID            int NOT NULL,
    CreditCardID            int NULL,
    CreditCardApprovalCode  varchar(15) NULL,
    CurrencyRateID          int NULL,
    SubTotal                money NOT NULL CONSTRAINT IMDF_SalesOrderHeader_SubTotal DEFAULT ((0.00)),
    TaxAmt                  money NOT NULL CONSTRAINT IMDF_SalesOrderHeader_TaxAmt DEFAULT ((0.00)),
    Freight                 money NOT NULL CONSTRAINT IMDF_SalesOrderHeader_Freight DEFAULT ((0.00)),
    Comment                 nvarchar(128) NULL,
    ModifiedDate            datetime2(7) NOT NULL,
    CONSTRAINT IMCK_SalesOrderHeader_Status CHECK ([Status] >= 0 AND [Status] <= 8),
    INDEX IX_CustomerID HASH (CustomerID) WITH (BUCKET_COUNT = 1048576),
    INDEX IX_SalesPersonID HASH (SalesPersonID) WITH (BUCKET_COUNT = 1048576)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
CREATE TABLE Sales.SalesOrderDetail_inmem
(
    SalesOrderID           int NOT NULL,
    SalesOrderDetailID     bigint IDENTITY NOT NULL,
    CarrierTrackingNumber  nvarchar(25) NULL,
    OrderQty               smallint NOT NULL,
    ProductID              int NOT NULL,
    SpecialOfferID         int NOT NULL,
    UnitPrice              money NOT NULL,
    UnitPriceDiscount      money NOT NULL CONSTRAINT IMDF_SalesOrderDetail_UnitPriceDiscount DEFAULT ((0.0)),
    ModifiedDate           datetime2(7) NOT NULL,
    CONSTRAINT IMPK_SalesOrderDetail_SalesOrderID_SalesOrderDetailID
        PRIMARY KEY NONCLUSTERED HASH (SalesOrderID, SalesOrderDetailID) WITH (BUCKET_COUNT = 67108864),
    CONSTRAINT IMCK_SalesOrderDetail_OrderQty CHECK (OrderQty > (0)),
    CONSTRAINT IMCK_SalesOrderDetail_UnitPrice CHECK (UnitPrice >= (0.00)),
    INDEX IX_SalesOrderID HASH (SalesOrderID) WITH (BUCKET_COUNT = 16777216),
    INDEX IX_ProductID HASH (ProductID) WITH (BUCKET_COUNT = 1048576)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
CREATE TABLE Demo.DemoSalesOrderDetailSeed
(
    OrderQty        smallint NOT NULL,
    ProductID       int NOT NULL,
    SpecialOfferID  int NOT NULL,
    OrderID         int NOT NULL,
    LocalID         int IDENTITY NOT NULL PRIMARY KEY NONCLUSTERED,
    INDEX IX_OrderID NONCLUSTERED (OrderID)
) WITH (MEMORY_OPTIMIZED = ON);
GO
CREATE SEQUENCE Sales.SQ_SalesOrderID_inmem AS int START WITH 75124 INCREMENT BY 1 CACHE 10000;
GO
CREATE TYPE Sales.SalesOrderDetailType_inmem AS TABLE
(
    OrderQty        smallint NOT NULL,
    ProductID       int NOT NULL,
    SpecialOfferID  int NOT NULL,
    INDEX IX_ProductID NONCLUSTERED (ProductID),
    INDEX IX_SpecialOfferID NONCLUSTERED (SpecialOfferID)
) WITH (MEMORY_OPTIMIZED = ON);
GO
