-- sys.dm_resource_governor_resource_pools: the default pool holds the
-- memory of the memory-optimized tables (its limit is the database's
-- memory budget); the internal pool's memory is not told apart (NULL).
-- hekla is latch-free and has no spinlocks or SQLOS schedulers of its own.
SELECT pool_id, name, min_cpu_percent, max_cpu_percent, min_memory_percent, max_memory_percent, cap_cpu_percent,
       CASE WHEN used_memory_kb IS NULL AND max_memory_kb IS NULL AND target_memory_kb IS NULL THEN 'NULL'
            WHEN used_memory_kb <= max_memory_kb AND target_memory_kb = max_memory_kb AND max_memory_kb > 0 THEN 'within the limit'
       END AS memory
FROM sys.dm_resource_governor_resource_pools ORDER BY pool_id
GO
CREATE TABLE dbo.big (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024), pad char(1000) NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
DECLARE @before bigint = (SELECT used_memory_kb FROM sys.dm_resource_governor_resource_pools WHERE name = 'default')
DECLARE @i int = 0
SET NOCOUNT ON
WHILE @i < 500 BEGIN INSERT INTO dbo.big VALUES (@i, 'x') SET @i += 1 END
SELECT CASE WHEN used_memory_kb - @before >= 400 THEN 'grew by the rows' END AS after_insert
FROM sys.dm_resource_governor_resource_pools WHERE name = 'default'
GO
SELECT session_id - @@SPID AS this_session, scheduler_id FROM sys.dm_exec_requests WHERE session_id = @@SPID
SELECT COUNT(*) AS latch_classes FROM sys.dm_os_latch_stats
SELECT COUNT(*) AS spinlocks FROM sys.dm_os_spinlock_stats
GO
