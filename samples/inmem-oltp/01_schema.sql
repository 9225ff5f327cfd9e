-- The in-memory OLTP sales-order sample, script 1 of 4: schemas, tables,
-- the table type and the views.
--
-- Five AdventureWorks tables migrated to memory-optimized tables (suffix
-- _inmem), with the sample's index design: HASH indexes sized for 10
-- million orders on the tables the workload inserts into and looks up,
-- NONCLUSTERED (range) indexes where ordered scans are wanted.
-- Sales.SalesOrderHeader and Sales.SalesOrderDetail stand in for
-- AdventureWorks' own order tables: they hold the loaded orders, which
-- Demo.usp_DemoReset copies back into the _inmem and _ondisk tables.
CREATE SCHEMA Sales
GO
CREATE SCHEMA Production
GO
CREATE SCHEMA Demo
GO

-------------------------------------------------------------------------------
-- The original order tables (stand-ins for AdventureWorks' own, with their
-- computed columns SalesOrderNumber, TotalDue and LineTotal)
-------------------------------------------------------------------------------
CREATE TABLE Sales.SalesOrderHeader
(
    SalesOrderID            int NOT NULL CONSTRAINT PK_SalesOrderHeader_SalesOrderID PRIMARY KEY CLUSTERED,
    RevisionNumber          tinyint NOT NULL CONSTRAINT DF_SalesOrderHeader_RevisionNumber DEFAULT (0),
    OrderDate               datetime NOT NULL,
    DueDate                 datetime NOT NULL,
    ShipDate                datetime NULL,
    [Status]                tinyint NOT NULL CONSTRAINT DF_SalesOrderHeader_Status DEFAULT (1),
    OnlineOrderFlag         bit NOT NULL CONSTRAINT DF_SalesOrderHeader_OnlineOrderFlag DEFAULT (1),
    SalesOrderNumber        AS ISNULL(N'SO' + CONVERT(nvarchar(23), SalesOrderID), N'*** ERROR ***'),
    PurchaseOrderNumber     nvarchar(25) NULL,
    AccountNumber           nvarchar(15) NULL,
    CustomerID              int NOT NULL,
    SalesPersonID           int NULL,
    TerritoryID             int NULL,
    BillToAddressID         int NOT NULL,
    ShipToAddressID         int NOT NULL,
    ShipMethodID            int NOT NULL,
    CreditCardID            int NULL,
    CreditCardApprovalCode  varchar(15) NULL,
    CurrencyRateID          int NULL,
    SubTotal                money NOT NULL CONSTRAINT DF_SalesOrderHeader_SubTotal DEFAULT (0.00),
    TaxAmt                  money NOT NULL CONSTRAINT DF_SalesOrderHeader_TaxAmt DEFAULT (0.00),
    Freight                 money NOT NULL CONSTRAINT DF_SalesOrderHeader_Freight DEFAULT (0.00),
    TotalDue                AS ISNULL(SubTotal + TaxAmt + Freight, 0),
    Comment                 nvarchar(128) NULL,
    ModifiedDate            datetime NOT NULL
)
GO
CREATE TABLE Sales.SalesOrderDetail
(
    SalesOrderID           int NOT NULL,
    SalesOrderDetailID     int NOT NULL,
    CarrierTrackingNumber  nvarchar(25) NULL,
    OrderQty               smallint NOT NULL,
    ProductID              int NOT NULL,
    SpecialOfferID         int NOT NULL,
    UnitPrice              money NOT NULL,
    UnitPriceDiscount      money NOT NULL CONSTRAINT DF_SalesOrderDetail_UnitPriceDiscount DEFAULT (0.0),
    LineTotal              AS ISNULL(UnitPrice * (1.0 - UnitPriceDiscount) * OrderQty, 0.0),
    ModifiedDate           datetime NOT NULL,
    CONSTRAINT PK_SalesOrderDetail_SalesOrderID_SalesOrderDetailID
        PRIMARY KEY CLUSTERED (SalesOrderID, SalesOrderDetailID)
)
GO

-------------------------------------------------------------------------------
-- The memory-optimized tables
-------------------------------------------------------------------------------
CREATE TABLE Production.Product_inmem
(
    ProductID              int IDENTITY NOT NULL,
    [Name]                 nvarchar(50) NOT NULL,
    ProductNumber          nvarchar(25) NOT NULL,
    MakeFlag               bit NOT NULL CONSTRAINT IMDF_Product_MakeFlag DEFAULT (1),
    FinishedGoodsFlag      bit NOT NULL CONSTRAINT IMDF_Product_FinishedGoodsFlag DEFAULT (1),
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
    ModifiedDate           datetime2(7) NOT NULL CONSTRAINT IMDF_Product_ModifiedDate DEFAULT (SYSDATETIME()),
    CONSTRAINT IMPK_Product_ProductID PRIMARY KEY NONCLUSTERED HASH (ProductID) WITH (BUCKET_COUNT = 1048576),
    CONSTRAINT IMCK_Product_SafetyStockLevel CHECK (SafetyStockLevel > 0),
    CONSTRAINT IMCK_Product_ReorderPoint CHECK (ReorderPoint > 0),
    CONSTRAINT IMCK_Product_StandardCost CHECK (StandardCost >= 0.00),
    CONSTRAINT IMCK_Product_ListPrice CHECK (ListPrice >= 0.00),
    CONSTRAINT IMCK_Product_Weight CHECK ([Weight] > 0.00),
    CONSTRAINT IMCK_Product_DaysToManufacture CHECK (DaysToManufacture >= 0),
    CONSTRAINT IMCK_Product_ProductLine CHECK (UPPER(ProductLine) IN (N'S', N'T', N'M', N'R') OR ProductLine IS NULL),
    CONSTRAINT IMCK_Product_Class CHECK (UPPER(Class) IN (N'L', N'M', N'H') OR Class IS NULL),
    CONSTRAINT IMCK_Product_Style CHECK (UPPER(Style) IN (N'W', N'M', N'U') OR Style IS NULL),
    CONSTRAINT IMCK_Product_SellEndDate CHECK (SellEndDate >= SellStartDate OR SellEndDate IS NULL),
    INDEX IX_Name NONCLUSTERED ([Name]),
    INDEX IX_ProductNumber NONCLUSTERED (ProductNumber)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
CREATE TABLE Sales.SpecialOffer_inmem
(
    SpecialOfferID  int IDENTITY NOT NULL,
    [Description]   nvarchar(255) NOT NULL,
    DiscountPct     smallmoney NOT NULL CONSTRAINT IMDF_SpecialOffer_DiscountPct DEFAULT (0.00),
    [Type]          nvarchar(50) NOT NULL,
    Category        nvarchar(50) NOT NULL,
    StartDate       datetime2(7) NOT NULL,
    EndDate         datetime2(7) NOT NULL,
    MinQty          int NOT NULL CONSTRAINT IMDF_SpecialOffer_MinQty DEFAULT (0),
    MaxQty          int NULL,
    ModifiedDate    datetime2(7) NOT NULL CONSTRAINT IMDF_SpecialOffer_ModifiedDate DEFAULT (SYSDATETIME()),
    CONSTRAINT IMPK_SpecialOffer_SpecialOfferID PRIMARY KEY NONCLUSTERED HASH (SpecialOfferID) WITH (BUCKET_COUNT = 1048576),
    CONSTRAINT IMCK_SpecialOffer_EndDate CHECK (EndDate >= StartDate),
    CONSTRAINT IMCK_SpecialOffer_DiscountPct CHECK (DiscountPct >= 0.00),
    CONSTRAINT IMCK_SpecialOffer_MinQty CHECK (MinQty >= 0),
    CONSTRAINT IMCK_SpecialOffer_MaxQty CHECK (MaxQty >= 0)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
-- Not in the workload's path, so its indexes are NONCLUSTERED; its foreign
-- keys reference memory-optimized tables, so they are kept.
CREATE TABLE Sales.SpecialOfferProduct_inmem
(
    SpecialOfferID  int NOT NULL,
    ProductID       int NOT NULL,
    ModifiedDate    datetime2(7) NOT NULL CONSTRAINT IMDF_SpecialOfferProduct_ModifiedDate DEFAULT (SYSDATETIME()),
    CONSTRAINT IMPK_SpecialOfferProduct_SpecialOfferID_ProductID PRIMARY KEY NONCLUSTERED (SpecialOfferID, ProductID),
    CONSTRAINT IMFK_SpecialOfferProduct_SpecialOffer_SpecialOfferID
        FOREIGN KEY (SpecialOfferID) REFERENCES Sales.SpecialOffer_inmem (SpecialOfferID),
    CONSTRAINT IMFK_SpecialOfferProduct_Product_ProductID
        FOREIGN KEY (ProductID) REFERENCES Production.Product_inmem (ProductID),
    INDEX IX_ProductID NONCLUSTERED (ProductID)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
-- The hot table of the workload: no foreign keys (the application keeps
-- referential integrity), SalesPersonID NOT NULL with -1 standing for
-- NULL (an index key cannot be nullable), no computed columns (see
-- Sales.vSalesOrderHeader_extended_inmem). AdventureWorks' check that
-- DueDate >= OrderDate is left out: the workload passes the time its batch
-- began as the due date, which is before the order date the procedure
-- reads.
CREATE TABLE Sales.SalesOrderHeader_inmem
(
    SalesOrderID            int IDENTITY NOT NULL,
    RevisionNumber          tinyint NOT NULL CONSTRAINT IMDF_SalesOrderHeader_RevisionNumber DEFAULT (0),
    OrderDate               datetime2(7) NOT NULL,
    DueDate                 datetime2(7) NOT NULL,
    ShipDate                datetime2(7) NULL,
    [Status]                tinyint NOT NULL CONSTRAINT IMDF_SalesOrderHeader_Status DEFAULT (1),
    OnlineOrderFlag         bit NOT NULL CONSTRAINT IMDF_SalesOrderHeader_OnlineOrderFlag DEFAULT (1),
    PurchaseOrderNumber     nvarchar(25) NULL,
    AccountNumber           nvarchar(15) NULL,
    CustomerID              int NOT NULL,
    SalesPersonID           int NOT NULL CONSTRAINT IMDF_SalesOrderHeader_SalesPersonID DEFAULT (-1),
    TerritoryID             int NULL,
    BillToAddressID         int NOT NULL,
    ShipToAddressID         int NOT NULL,
    ShipMethodID            int NOT NULL,
    CreditCardID            int NULL,
    CreditCardApprovalCode  varchar(15) NULL,
    CurrencyRateID          int NULL,
    SubTotal                money NOT NULL CONSTRAINT IMDF_SalesOrderHeader_SubTotal DEFAULT (0.00),
    TaxAmt                  money NOT NULL CONSTRAINT IMDF_SalesOrderHeader_TaxAmt DEFAULT (0.00),
    Freight                 money NOT NULL CONSTRAINT IMDF_SalesOrderHeader_Freight DEFAULT (0.00),
    Comment                 nvarchar(128) NULL,
    ModifiedDate            datetime2(7) NOT NULL,
    CONSTRAINT IMPK_SalesOrderHeader_SalesOrderID PRIMARY KEY NONCLUSTERED HASH (SalesOrderID) WITH (BUCKET_COUNT = 16777216),
    CONSTRAINT IMCK_SalesOrderHeader_Status CHECK ([Status] BETWEEN 0 AND 8),
    CONSTRAINT IMCK_SalesOrderHeader_ShipDate CHECK (ShipDate >= OrderDate OR ShipDate IS NULL),
    CONSTRAINT IMCK_SalesOrderHeader_SubTotal CHECK (SubTotal >= 0.00),
    CONSTRAINT IMCK_SalesOrderHeader_TaxAmt CHECK (TaxAmt >= 0.00),
    CONSTRAINT IMCK_SalesOrderHeader_Freight CHECK (Freight >= 0.00),
    INDEX IX_SalesPersonID HASH (SalesPersonID) WITH (BUCKET_COUNT = 1048576),
    INDEX IX_CustomerID HASH (CustomerID) WITH (BUCKET_COUNT = 1048576)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
-- The lines: UnitPriceDiscount is the discount as a fraction of the unit
-- price, as in AdventureWorks; the line total is in
-- Sales.vSalesOrderDetail_extended_inmem.
CREATE TABLE Sales.SalesOrderDetail_inmem
(
    SalesOrderID           int NOT NULL,
    SalesOrderDetailID     bigint IDENTITY NOT NULL,
    CarrierTrackingNumber  nvarchar(25) NULL,
    OrderQty               smallint NOT NULL,
    ProductID              int NOT NULL,
    SpecialOfferID         int NOT NULL,
    UnitPrice              money NOT NULL,
    UnitPriceDiscount      money NOT NULL CONSTRAINT IMDF_SalesOrderDetail_UnitPriceDiscount DEFAULT (0.0),
    ModifiedDate           datetime2(7) NOT NULL,
    CONSTRAINT IMPK_SalesOrderDetail_SalesOrderID_SalesOrderDetailID
        PRIMARY KEY NONCLUSTERED HASH (SalesOrderID, SalesOrderDetailID) WITH (BUCKET_COUNT = 67108864),
    CONSTRAINT IMCK_SalesOrderDetail_OrderQty CHECK (OrderQty > 0),
    CONSTRAINT IMCK_SalesOrderDetail_UnitPrice CHECK (UnitPrice >= 0.00),
    CONSTRAINT IMCK_SalesOrderDetail_UnitPriceDiscount CHECK (UnitPriceDiscount >= 0.00),
    INDEX IX_SalesOrderID HASH (SalesOrderID) WITH (BUCKET_COUNT = 16777216),
    INDEX IX_ProductID HASH (ProductID) WITH (BUCKET_COUNT = 1048576)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
-- The sample orders the workload inserts again and again (106 orders of
-- five lines each).
CREATE TABLE Demo.DemoSalesOrderDetailSeed
(
    OrderQty        smallint NOT NULL,
    ProductID       int NOT NULL,
    SpecialOfferID  int NOT NULL,
    OrderID         int NOT NULL,
    LocalID         int IDENTITY NOT NULL,
    CONSTRAINT IMPK_DemoSalesOrderDetailSeed_LocalID PRIMARY KEY NONCLUSTERED (LocalID),
    INDEX IX_OrderID NONCLUSTERED HASH (OrderID) WITH (BUCKET_COUNT = 256)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO

-------------------------------------------------------------------------------
-- The lines of an order, as Sales.usp_InsertSalesOrder_inmem takes them
-------------------------------------------------------------------------------
CREATE TYPE Sales.SalesOrderDetailType_inmem AS TABLE
(
    OrderQty        smallint NOT NULL,
    ProductID       int NOT NULL,
    SpecialOfferID  int NOT NULL,
    INDEX IX_ProductID NONCLUSTERED HASH (ProductID) WITH (BUCKET_COUNT = 8),
    INDEX IX_SpecialOfferID NONCLUSTERED HASH (SpecialOfferID) WITH (BUCKET_COUNT = 8)
) WITH (MEMORY_OPTIMIZED = ON)
GO

-------------------------------------------------------------------------------
-- The computed columns the memory-optimized tables leave out
-------------------------------------------------------------------------------
CREATE VIEW Sales.vSalesOrderHeader_extended_inmem
AS
SELECT h.SalesOrderID,
       h.RevisionNumber,
       h.OrderDate,
       h.DueDate,
       h.ShipDate,
       h.[Status],
       h.OnlineOrderFlag,
       ISNULL(N'SO' + CONVERT(nvarchar(23), h.SalesOrderID), N'*** ERROR ***') AS SalesOrderNumber,
       h.PurchaseOrderNumber,
       h.AccountNumber,
       h.CustomerID,
       h.SalesPersonID,
       h.TerritoryID,
       h.BillToAddressID,
       h.ShipToAddressID,
       h.ShipMethodID,
       h.CreditCardID,
       h.CreditCardApprovalCode,
       h.CurrencyRateID,
       h.SubTotal,
       h.TaxAmt,
       h.Freight,
       ISNULL(h.SubTotal + h.TaxAmt + h.Freight, 0) AS TotalDue,
       h.Comment,
       h.ModifiedDate
FROM Sales.SalesOrderHeader_inmem AS h
GO
CREATE VIEW Sales.vSalesOrderDetail_extended_inmem
AS
SELECT d.SalesOrderID,
       d.SalesOrderDetailID,
       d.CarrierTrackingNumber,
       d.OrderQty,
       d.ProductID,
       d.SpecialOfferID,
       d.UnitPrice,
       d.UnitPriceDiscount,
       ISNULL(d.UnitPrice * (1.0 - d.UnitPriceDiscount) * d.OrderQty, 0.0) AS LineTotal,
       d.ModifiedDate
FROM Sales.SalesOrderDetail_inmem AS d
GO
