-- Seed 003: the count through interpreted T-SQL (the query interop).
-- refused: 911 USE of the database the article created: hekla serves one database per data directory ('hekla'); other databases do not exist
USE MemoryOptimized;
GO

-- hekla: the article's session had SET STATISTICS IO, TIME ON from
-- before; this one started with the fresh database.
SET STATISTICS TIME ON;
GO

-- Interpreted code
-- Costs : 6.40351 (25.8056)
-- Index Scan (Estimated I/O Costs) : 0 (23.652)
-- CPU time = 2000 (2016) ms,  elapsed time = 379 (504) ms.
SELECT COUNT(*)
FROM
	Sales.SalesOrderDetailMedium;
GO
