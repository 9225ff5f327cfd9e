-- Seed 002, appendix: the database option set for the memory-optimized runs.
ALTER DATABASE CURRENT SET memory_optimized_elevate_to_snapshot ON;
GO
SELECT is_memory_optimized_elevate_to_snapshot_on FROM sys.databases WHERE database_id = DB_ID()
GO
