-- sp_spaceused 'table': rows counted, sizes from the table's memory (as
-- sys.dm_db_xtp_table_memory_stats reports it), no row counts of its own.
CREATE TABLE dbo.plain (id1 bigint, id2 bigint)
INSERT INTO dbo.plain SELECT TOP (1000) number, number FROM master..spt_values
CREATE TABLE dbo.hot (k int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024), v varchar(100)) WITH (MEMORY_OPTIMIZED = ON)
INSERT dbo.hot VALUES (1, 'a'), (2, 'b')
GO
EXEC sp_spaceused 'plain'
EXEC sp_spaceused @objname = N'dbo.plain', @updateusage = 'true'
EXEC sys.sp_spaceused 'hekla..plain', 'false'
GO
-- The figures agree with the memory DMV.
SELECT memory_allocated_for_table_kb + memory_allocated_for_indexes_kb AS reserved_kb,
       memory_used_by_indexes_kb AS index_kb
FROM sys.dm_db_xtp_table_memory_stats WHERE object_id = OBJECT_ID('dbo.hot')
GO
-- Inside a transaction a memory-optimized table is counted at SNAPSHOT.
BEGIN TRAN
INSERT dbo.hot VALUES (3, 'c')
EXEC sp_spaceused 'hot'
ROLLBACK
EXEC sp_spaceused 'hot'
GO
EXEC sp_spaceused 'nope'
EXEC sp_spaceused 'otherdb.dbo.plain'
EXEC sp_spaceused 42
GO
EXEC sp_spaceused
EXEC sp_spaceused NULL
EXEC sp_spaceused 'plain', 'false', 'ALL'
EXEC sp_spaceused @objname = 'plain', @mode = 'ALL'
GO
