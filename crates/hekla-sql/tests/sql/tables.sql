-- DDL: schemas and memory-optimized tables, and the errors SQL Server
-- gives for bad definitions.
CREATE SCHEMA Sales
GO
CREATE TABLE Sales.SalesOrderHeader_inmem (
    SalesOrderID int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1048576),
    CustomerID int NOT NULL INDEX IX_CustomerID HASH WITH (BUCKET_COUNT = 65536),
    OrderDate datetime2(7) NOT NULL,
    INDEX IX_OrderDate NONCLUSTERED (OrderDate DESC)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
CREATE TABLE Sales.SalesOrderHeader_inmem (a int PRIMARY KEY NONCLUSTERED)
GO
CREATE TABLE dbo.no_key (a int) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE nope.t (a int)
GO
CREATE TABLE dbo.t (a int NULL PRIMARY KEY NONCLUSTERED)
GO
CREATE TABLE dbo.t (a int PRIMARY KEY NONCLUSTERED HASH)
GO
CREATE TABLE dbo.t (a int, b AS a + 1)
GO
CREATE TABLE dbo.session_cache (k int NOT NULL INDEX ix NONCLUSTERED, v varbinary(max)) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
GO
DROP TABLE dbo.session_cache
DROP TABLE IF EXISTS dbo.session_cache
DROP TABLE dbo.session_cache
GO
