-- Seed 003: the in-memory table with a hash index of 5,000,000 buckets (not
-- scaled: the article's point is its size), filled from the on-disk copy
-- through tempdb.
-- refused: 208 cross-database queries: hekla serves one database, and the copy's source is in AdventureWorks2017
-- refused: 911 USE of the database the article created: hekla serves one database per data directory ('hekla'); other databases do not exist
USE MemoryOptimized;
GO

CREATE SCHEMA Sales AUTHORIZATION dbo;
GO

-- Create an in-memory table with a hash index of 5,000,000 buckets
DROP TABLE IF EXISTS Sales.SalesOrderDetailMedium;
GO

CREATE TABLE Sales.SalesOrderDetailMedium
(
	SalesOrderID int NOT NULL
  , SalesOrderDetailID int NOT NULL
  , CarrierTrackingNumber nvarchar(25) NULL
  , OrderQty smallint NOT NULL
  , ProductID int NOT NULL
  , UnitPrice money NOT NULL
  , INDEX IX HASH (SalesOrderID, SalesOrderDetailID) WITH (BUCKET_COUNT = 5000000)
)
WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY);
GO

DROP TABLE IF EXISTS tempdb.dbo.#SalesOrderDetailMedium;
GO

SELECT *
INTO #SalesOrderDetailMedium
FROM
	AdventureWorks2017.Sales.SalesOrderDetailMedium;
GO

-- hekla stand-in (not in the article) for the cross-database copy above:
-- 5,000 rows of the same shape.
SELECT TOP (5000)
    43659 + rn / 4 AS SalesOrderID, CAST(rn AS int) AS SalesOrderDetailID,
    CAST(NULL AS nvarchar(25)) AS CarrierTrackingNumber, CAST(1 + rn % 5 AS smallint) AS OrderQty,
    CAST(707 + rn % 300 AS int) AS ProductID, CAST(10 + rn % 90 AS money) AS UnitPrice
INTO #SalesOrderDetailMedium
FROM (SELECT ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS rn
      FROM master..spt_values t1 CROSS JOIN master..spt_values t2) AS q;
GO

INSERT Sales.SalesOrderDetailMedium
	(
		SalesOrderID
	  , SalesOrderDetailID
	  , CarrierTrackingNumber
	  , OrderQty
	  , ProductID
	  , UnitPrice
	)
SELECT
	SalesOrderID
  , SalesOrderDetailID
  , CarrierTrackingNumber
  , OrderQty
  , ProductID
  , UnitPrice
FROM
	#SalesOrderDetailMedium;
GO
