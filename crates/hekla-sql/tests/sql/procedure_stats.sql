-- sys.dm_exec_procedure_stats: a row per cached plan of a stored procedure
-- that has counted calls since it was compiled. Interpreted procedures are
-- always counted; natively compiled ones only while
-- sys.sp_xtp_control_proc_exec_stats has collection on (off at startup).
-- Times differ from run to run: the queries compare them instead of
-- printing them.
SET NOCOUNT ON
CREATE TABLE dbo.ps (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.ps VALUES (1, 10), (2, 20)
GO
CREATE PROCEDURE dbo.interpreted @id int AS
SELECT v FROM dbo.ps WHERE id = @id
GO
CREATE PROCEDURE dbo.native_sum WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT SUM(v) AS total FROM dbo.ps
END
GO
CREATE PROCEDURE dbo.outer_call AS
EXEC dbo.interpreted 2
GO
CREATE PROCEDURE dbo.failing AS
SELECT 1 / 0 AS never
GO
CREATE VIEW dbo.stats AS
SELECT OBJECT_NAME(ps.object_id) AS name, ps.type, ps.type_desc, ps.execution_count,
    CASE WHEN ps.database_id = DB_ID()
        AND ps.min_worker_time <= ps.last_worker_time AND ps.last_worker_time <= ps.max_worker_time
        AND ps.max_worker_time <= ps.total_worker_time
        AND ps.min_elapsed_time <= ps.last_elapsed_time AND ps.last_elapsed_time <= ps.max_elapsed_time
        AND ps.max_elapsed_time <= ps.total_elapsed_time
        AND ps.min_worker_time >= 0 AND ps.min_elapsed_time >= 0
        AND ps.last_execution_time >= ps.cached_time
        THEN 'consistent' ELSE 'inconsistent' END AS times,
    ps.total_physical_reads + ps.total_logical_writes + ps.total_logical_reads + ps.total_spills
        + ps.total_num_physical_reads + ps.total_page_server_reads + ps.total_num_page_server_reads AS pages
FROM sys.dm_exec_procedure_stats AS ps
GO
EXEC dbo.interpreted 1
GO
SELECT * FROM dbo.stats ORDER BY name
GO
EXEC dbo.interpreted 1
GO 2
-- One more per EXEC.
SELECT * FROM dbo.stats ORDER BY name
GO
-- The handles lead to the procedure's text and its plan cache entry.
SELECT cp.objtype, st.objectid - OBJECT_ID(N'dbo.interpreted') AS object_offset,
    LEFT(st.text, 31) AS text
FROM sys.dm_exec_procedure_stats AS ps
JOIN sys.dm_exec_cached_plans AS cp ON cp.plan_handle = ps.plan_handle
CROSS APPLY sys.dm_exec_sql_text(ps.sql_handle) AS st
WHERE ps.object_id = OBJECT_ID(N'dbo.interpreted')
GO
-- Collection of natively compiled procedures' calls is off: no row.
EXEC dbo.native_sum
EXEC dbo.native_sum
DECLARE @collecting bit = NULL
EXEC sys.sp_xtp_control_proc_exec_stats @old_collection_value = @collecting OUTPUT
SELECT @collecting AS collecting
SELECT * FROM dbo.stats ORDER BY name
GO
DECLARE @status int, @collecting bit
EXEC @status = sys.sp_xtp_control_proc_exec_stats @new_collection_value = 1
EXEC sys.sp_xtp_control_proc_exec_stats @old_collection_value = @collecting OUTPUT
SELECT @status AS status, @collecting AS collecting
GO
-- On: counted from now.
EXEC dbo.native_sum
EXEC dbo.native_sum
SELECT * FROM dbo.stats ORDER BY name
GO
-- A nested call counts for both procedures; a call whose body fails
-- counts; a call refused before its body starts (a missing argument) does
-- not.
EXEC dbo.outer_call
EXEC dbo.failing
EXEC dbo.interpreted
GO
SELECT * FROM dbo.stats ORDER BY name
GO
-- Off again: the old value comes back, and the native procedure's counts
-- stay as they were.
DECLARE @collecting bit
EXEC sp_xtp_control_proc_exec_stats 0, @collecting OUTPUT
SELECT @collecting AS was_collecting
EXEC dbo.native_sum
SELECT name, execution_count FROM dbo.stats WHERE name = N'native_sum'
GO
-- Its arguments are checked as any procedure's.
EXEC sys.sp_xtp_control_proc_exec_stats @collection = 1
GO
EXEC sys.sp_xtp_control_proc_exec_stats 1, NULL, 2
GO
EXEC sys.sp_xtp_control_proc_exec_stats @new_collection_value = 1 OUTPUT
GO
DECLARE @collecting bit
EXEC sys.sp_xtp_control_proc_exec_stats @old_collection_value = @collecting OUTPUT
SELECT @collecting AS still_off
GO
-- A dropped procedure's row goes; an altered one's too, until it is
-- called again (compiled anew, its counts start over).
DROP PROCEDURE dbo.interpreted
GO
ALTER PROCEDURE dbo.failing AS
SELECT 1 AS fixed
GO
SELECT * FROM dbo.stats ORDER BY name
GO
EXEC dbo.failing
SELECT name, execution_count FROM dbo.stats WHERE name = N'failing'
GO
-- DBCC FREEPROCCACHE empties the plan cache, and the view with it.
DBCC FREEPROCCACHE WITH NO_INFOMSGS
SELECT COUNT(*) AS rows_left FROM sys.dm_exec_procedure_stats
GO
