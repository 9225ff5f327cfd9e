-- Seed 003: housekeeping.
-- refused: 911 hekla serves one database per data directory ('hekla'); other databases do not exist
-- refused: 10794 USE master (hekla builds no catalog for master)
-- error: 3729 the USE above failed, so the DROP TABLE meant for AdventureWorks2017 names the in-memory table, which procedure test is bound to
-- error: 5011 ALTER DATABASE of the database the article created, which hekla refused to create
-- error: 5069 ALTER DATABASE of the database the article created, which hekla refused to create
-- error: 3701 DROP DATABASE of the database the article created, which hekla refused to create

-- Housekeeping
USE AdventureWorks2017;
DROP TABLE IF EXISTS Sales.SalesOrderDetailMedium;
USE master;
ALTER DATABASE MemoryOptimized SET SINGLE_USER WITH ROLLBACK IMMEDIATE;
DROP DATABASE MemoryOptimized;
GO
