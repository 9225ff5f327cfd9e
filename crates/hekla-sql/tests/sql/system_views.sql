-- Catalog views, DMVs and master..spt_values, queried like tables.
CREATE TABLE dbo.kv (
    k int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1000),
    v varchar(20) NULL,
    INDEX ix_v NONCLUSTERED (v)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
INSERT INTO dbo.kv VALUES (1, 'a'), (2, 'b')
GO
SELECT COUNT(*) AS p_rows, MIN(number) AS low, MAX(number) AS high FROM master..spt_values WHERE type = 'P'
GO
SELECT COUNT(*) AS million FROM master..spt_values a CROSS JOIN master..spt_values b WHERE a.type = 'P' AND b.type = 'P' AND a.number < 1000 AND b.number < 1000
GO
SELECT t.name, t.is_memory_optimized, t.durability, t.durability_desc, s.name AS schema_name
FROM sys.tables t JOIN sys.schemas s ON s.schema_id = t.schema_id
GO
SELECT c.name, c.column_id, ty.name AS type_name, c.max_length, c.is_nullable
FROM sys.columns c JOIN sys.types ty ON ty.user_type_id = c.user_type_id
JOIN sys.tables t ON t.object_id = c.object_id
WHERE t.name = 'kv' ORDER BY c.column_id
GO
SELECT i.name, i.type_desc, h.bucket_count
FROM sys.indexes i LEFT JOIN sys.hash_indexes h ON h.object_id = i.object_id AND h.index_id = i.index_id
WHERE i.object_id = (SELECT object_id FROM sys.tables WHERE name = 'kv') AND i.index_id > 0
ORDER BY i.index_id
GO
SELECT total_bucket_count, empty_bucket_count FROM sys.dm_db_xtp_hash_index_stats
GO
SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM INFORMATION_SCHEMA.TABLES
GO
SELECT name, type, type_desc FROM sys.filegroups
GO
SELECT COUNT(*) AS sessions FROM sys.dm_exec_sessions WHERE session_id >= 51
GO
SELECT * FROM sys.no_such_view
GO
