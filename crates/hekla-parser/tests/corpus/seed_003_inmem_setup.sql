-- Seed: creating the memory-optimized database, schema and SCHEMA_ONLY hash-indexed table and loading it, from article 003 (in-memory OLTP design principles: IO reads and memory allocation).
-- Article listings are transcribed with their own GO separators.
USE master;
GO

IF DB_ID('MemoryOptimized') IS NOT NULL
	BEGIN
		ALTER DATABASE MemoryOptimized SET SINGLE_USER WITH ROLLBACK IMMEDIATE;
		DROP DATABASE MemoryOptimized;
	END;
GO
-- The article's two sqlcmd ':SETVAR DataPath ...' / ':SETVAR LogPath ...' lines preceded this statement;
-- they are sqlcmd commands, not T-SQL, and are omitted. The '$(DataPath)' / '$(LogPath)' references stay
-- inside the string literals unchanged (sqlcmd would substitute them before sending the batch).
CREATE DATABASE MemoryOptimized
ON PRIMARY
	   -- disk based objects
	   (
		   NAME = MemoryOptimized_data
		 , FILENAME = '$(DataPath)MemoryOptimized_data.mdf'
		 , SIZE = 5GB
	   )
-- in-memory objects
-- one filegroup with MEMORY_OPTIMIZED_DATA is needed
, FILEGROUP MemoryOptimized CONTAINS MEMORY_OPTIMIZED_DATA
	  (
		  NAME = MemoryOptimized_file
		, FILENAME = '$(DataPath)MemoryOptimized_file'
		, MAXSIZE = 5GB
	  )
-- disk based objects
LOG ON
	(
		NAME = MemoryOptimized_log
	  , FILENAME = '$(LogPath)MemoryOptimized_log.ldf'
	  , SIZE = 5GB
	);
GO
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
