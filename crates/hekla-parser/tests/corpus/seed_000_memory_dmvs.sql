-- Seed: in-memory OLTP memory-utilization DMV queries (sys.dm_os_memory_clerks, sys.dm_db_xtp_table_memory_stats) from article 000 (Sample database for in-memory OLTP).
-- Every occurrence in the article is kept, in article order (the article repeats the same queries for each snapshot).
-- Overall utilization of the database (fresh install)
SELECT type,
       name,
       pages_kb / 1024 AS pages_MB
FROM sys.dm_os_memory_clerks
WHERE type LIKE '%xtp%';
GO
-- Memory utilization per table (fresh install)
SELECT object_name(t.object_id) AS [Table name],
       memory_allocated_for_table_kb,
       memory_allocated_for_indexes_kb
FROM sys.dm_db_xtp_table_memory_stats AS dms
     INNER JOIN sys.tables AS t
         ON dms.object_id = t.object_id
WHERE t.type = 'U';
GO
-- Memory utilization after running the workload
SELECT type,
       name,
       pages_kb / 1024 AS pages_MB
FROM sys.dm_os_memory_clerks
WHERE type LIKE '%xtp%';
GO
-- Detailed memory usage per table after one example run
SELECT object_name(t.object_id) AS [Table name],
       memory_allocated_for_table_kb,
       memory_allocated_for_indexes_kb
FROM sys.dm_db_xtp_table_memory_stats AS dms
     INNER JOIN sys.tables AS t
         ON dms.object_id = t.object_id
WHERE t.type = 'U';
GO
-- After demo reset
SELECT type,
       name,
       pages_kb / 1024 AS pages_MB
FROM sys.dm_os_memory_clerks
WHERE type LIKE '%xtp%';
GO
-- After a second run of the demo workload
SELECT type,
       name,
       pages_kb / 1024 AS pages_MB
FROM sys.dm_os_memory_clerks
WHERE type LIKE '%xtp%';
GO
