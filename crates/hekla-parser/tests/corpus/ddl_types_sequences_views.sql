-- DDL: CREATE TYPE (memory-optimized table types and alias types), CREATE/ALTER/DROP SEQUENCE, CREATE [OR ALTER] VIEW, DROP VIEW, DROP TYPE.
-- Memory-optimized table type with a hash index and a nonclustered index
CREATE TYPE Sales.SalesOrderDetailType_inmem AS TABLE
(
    OrderQty       smallint NOT NULL,
    ProductID      int NOT NULL,
    SpecialOfferID int NOT NULL,
    INDEX IX_ProductID NONCLUSTERED (ProductID),
    INDEX IX_SpecialOfferID HASH (SpecialOfferID) WITH (BUCKET_COUNT = 8)
)
WITH (MEMORY_OPTIMIZED = ON);
GO
-- Table type with PRIMARY KEY NONCLUSTERED (column- and table-level) and a hash PK
CREATE TYPE dbo.IdList AS TABLE (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON);
CREATE TYPE dbo.KeyValue AS TABLE
(
    k nvarchar(100) COLLATE Latin1_General_100_BIN2 NOT NULL,
    v nvarchar(400) NULL,
    PRIMARY KEY NONCLUSTERED HASH (k) WITH (BUCKET_COUNT = 1024)
) WITH ( MEMORY_OPTIMIZED = ON );
create type dbo.Pair as table (a int not null, b int not null, primary key nonclustered (a, b)) with (memory_optimized = on)
GO
-- Disk-based table type (no table options)
CREATE TYPE dbo.NameList AS TABLE (name sysname NOT NULL PRIMARY KEY, ord int NULL, UNIQUE (ord));
GO
-- Alias types
CREATE TYPE dbo.OrderNumber FROM nvarchar(25) NULL;
CREATE TYPE dbo.AccountNumber FROM nvarchar(15) NULL
CREATE TYPE [dbo].[Flag] FROM [bit] NOT NULL;
CREATE TYPE dbo.Name FROM nvarchar(50) NOT NULL;
CREATE TYPE Phone FROM varchar(20);
CREATE TYPE dbo.Amount FROM decimal(19, 4) NOT NULL;
GO
-- Sequences
CREATE SEQUENCE Sales.SQ_SalesOrderID
    AS bigint
    START WITH 1
    INCREMENT BY 1
    MINVALUE 1
    MAXVALUE 9223372036854775807
    NO CYCLE
    CACHE 1000;
CREATE SEQUENCE dbo.Countdown AS int START WITH 100 INCREMENT BY -1 MINVALUE 0 MAXVALUE 100 CYCLE CACHE 10;
CREATE SEQUENCE dbo.Plain;
CREATE SEQUENCE dbo.NoCache AS smallint START WITH -5 NO MINVALUE NO MAXVALUE NO CACHE
create sequence dbo.Lower as decimal(10, 0) start with 10 increment by 10
GO
-- ALTER / DROP SEQUENCE
ALTER SEQUENCE Sales.SQ_SalesOrderID RESTART WITH 1000;
ALTER SEQUENCE dbo.Countdown RESTART;
ALTER SEQUENCE dbo.Plain INCREMENT BY 5 MINVALUE 0 NO MAXVALUE CYCLE NO CACHE;
DROP SEQUENCE dbo.Plain;
DROP SEQUENCE IF EXISTS dbo.NoCache, dbo.Lower;
GO
-- CREATE VIEW, simple
CREATE VIEW dbo.vOrders
AS
SELECT OrderID, CustomerID, OrderDate FROM dbo.Orders;
GO
-- CREATE OR ALTER VIEW with a column list and SCHEMABINDING
CREATE OR ALTER VIEW Sales.vSalesOrderHeader_extended_inmem (SalesOrderID, SalesOrderNumber, TotalDue)
WITH SCHEMABINDING
AS
SELECT h.SalesOrderID,
       ISNULL(N'SO' + CONVERT(nvarchar(23), h.SalesOrderID), N'*** ERROR ***'),
       ISNULL(h.SubTotal + h.TaxAmt + h.Freight, 0)
FROM Sales.SalesOrderHeader_inmem AS h;
GO
-- View with several view attributes, a CTE, and WITH CHECK OPTION
create or alter view [dbo].[vOpenOrders]
with schemabinding, view_metadata
as
with o as (select OrderID, Status from dbo.Orders)
select OrderID, Status from o where Status = 1
with check option
GO
-- ALTER VIEW
ALTER VIEW dbo.vOrders (id, cust)
AS
    SELECT o.OrderID, o.CustomerID
    FROM dbo.Orders AS o
    WHERE o.OrderDate >= '20200101'
    UNION ALL
    SELECT a.OrderID, a.CustomerID FROM dbo.OrdersArchive a;
GO
-- DROP VIEW / DROP TYPE
DROP VIEW dbo.vOrders;
DROP VIEW IF EXISTS dbo.vOpenOrders, Sales.vSalesOrderHeader_extended_inmem;
DROP TYPE dbo.IdList;
DROP TYPE IF EXISTS dbo.KeyValue;
DROP TYPE [dbo].[Flag]
GO
