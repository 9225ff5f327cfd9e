-- Seed: querying the memory-optimized table (interop COUNT(*), buffer descriptors, sys.dm_db_xtp_memory_consumers, bucket math), a natively compiled procedure and cleanup, from article 003 (in-memory OLTP design principles: IO reads and memory allocation).
-- Article listings are transcribed with their own GO separators.
USE MemoryOptimized;
GO

-- Interpreted code
-- Costs : 6.40351 (25.8056)
-- Index Scan (Estimated I/O Costs) : 0 (23.652)
-- CPU time = 2000 (2016) ms,  elapsed time = 379 (504) ms.
SELECT COUNT(*)
FROM
	Sales.SalesOrderDetailMedium;
GO
-- No pages are saved in buffer pool 
SELECT
	bd.is_modified
  , DB_NAME(DB_ID()) AS db_name
  , OBJECT_SCHEMA_NAME(object_id, DB_ID()) AS schema_name
  , OBJECT_NAME(object_id) AS object_name
  , file_id
  , page_id
  , page_level
  , page_type
  , row_count
  , (free_space_in_bytes)
  , (read_microsec) AS read_microsec
FROM
	sys.dm_os_buffer_descriptors AS bd
INNER JOIN
	(
		SELECT
			object_id, index_id, allocation_unit_id
		FROM
			sys.allocation_units AS au
		INNER JOIN
			sys.partitions AS p
		ON
			au.container_id = p.hobt_id
			AND
				(
					au.type = 1
					OR au.type = 3
				)
		UNION ALL
		SELECT
			object_id, index_id, allocation_unit_id
		FROM
			sys.allocation_units AS au
		INNER JOIN
			sys.partitions AS p
		ON
			au.container_id = p.partition_id
			AND au.type = 2
	) AS obj
ON
	bd.allocation_unit_id = obj.allocation_unit_id
WHERE
	database_id = DB_ID()
	AND obj.object_id = OBJECT_ID('Sales.SalesOrderDetailMedium', 'U');
GO
-- Allocated_bytes:
-- 8388608 bucktes x 8 bytes : 64MB
-- Hash index : 67108864 : 64MB  
-- Table heap : 400687104 : 382.125MB 
-- row-store : 250MB | in-memory : 446MB
-- FIX: the article prints 'sys.dm_db_xtp_memory_consumers AS mec;' with a stray ';' before INNER JOIN,
-- which would end the statement early; the ';' was removed.
SELECT
	obj.name AS object_name
  , ind.index_id
  , ind.type_desc
  , mec.memory_consumer_desc
  , mec.allocated_bytes
  , mec.used_bytes
  , mec.allocation_count
FROM
	sys.dm_db_xtp_memory_consumers AS mec
INNER JOIN
	sys.objects AS obj
ON
	mec.object_id = obj.object_id
LEFT JOIN
	sys.indexes AS ind
ON
	mec.index_id = ind.index_id
	AND ind.object_id = mec.object_id
WHERE
	obj.object_id = OBJECT_ID('Sales.SalesOrderDetailMedium', 'U');
GO

-- A hash index with a definiton of 5,000,000 buckets actually creates 
-- 8,388,608 buckets 
SELECT POWER(2, CEILING(LOG(5000000) / LOG(2))) AS bucket_count;
GO

-- Every bucket needs 8 bytes
-- 67,108,864 bytes
SELECT POWER(2, CEILING(LOG(5000000) / LOG(2))) * 8 AS bucket_size;
GO

-- Create a natively compiled stored procedure
DROP PROCEDURE IF EXISTS test;
GO

CREATE PROCEDURE test
WITH SCHEMABINDING, NATIVE_COMPILATION
AS
	BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
		SELECT COUNT(*)
		FROM
			Sales.SalesOrderDetailMedium;
	END;
GO

-- SQL Server Execution Times:
-- CPU time = 297 (2000) (2016) ms,  elapsed time = 296 (379) (504) ms.
EXECUTE test;
GO

-- Housekeeping
USE AdventureWorks2017;
DROP TABLE IF EXISTS Sales.SalesOrderDetailMedium;
USE master;
ALTER DATABASE MemoryOptimized SET SINGLE_USER WITH ROLLBACK IMMEDIATE;
DROP DATABASE MemoryOptimized;
GO
