-- The plan cache: batches, sp_executesql texts and procedures are compiled
-- once and found again by their text (and parameter declarations, and the
-- SET options that change a compilation), with counters in
-- sys.dm_exec_cached_plans and sys.dm_exec_query_stats. A batch's text is
-- all of it, comments too: the batches measured here have none, and the
-- queries leave out their own batches (the ones naming dm_exec). An ad hoc
-- text is cached from its second use; prepared text and procedures from
-- their first.
DBCC FREEPROCCACHE WITH NO_INFOMSGS
CREATE TABLE dbo.items (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(20) NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.items VALUES (1, 'one'), (2, 'two'), (3, 'three')
GO
SELECT name FROM dbo.items WHERE id = 1
GO 3
SELECT name FROM dbo.items WHERE id = 2
GO
-- The same text three times: cached at its second use, used again at its
-- third. The text run once is not cached.
SELECT cp.objtype, cp.cacheobjtype, cp.usecounts, cp.refcounts,
    RTRIM(REPLACE(st.text, NCHAR(10), N' ')) AS text
FROM sys.dm_exec_cached_plans AS cp
CROSS APPLY sys.dm_exec_sql_text(cp.plan_handle) AS st
WHERE st.text LIKE N'SELECT name FROM dbo.items%'
ORDER BY st.text
GO
EXEC sp_executesql N'SELECT name FROM dbo.items WHERE id = @id', N'@id int', 1
GO 2
EXEC sp_executesql N'SELECT name FROM dbo.items WHERE id = @id', N'@id bigint', 3
GO
-- sp_executesql: one entry per text and parameter declarations, shown
-- with the declarations first; the batches calling it are entries too.
SELECT cp.objtype, cp.usecounts, st.dbid, st.objectid, st.number, st.encrypted,
    RTRIM(REPLACE(st.text, NCHAR(10), N' ')) AS text
FROM sys.dm_exec_cached_plans AS cp
CROSS APPLY sys.dm_exec_sql_text(cp.plan_handle) AS st
WHERE st.text LIKE N'%WHERE id = @id%' AND CHARINDEX(N'dm_exec', st.text) = 0
ORDER BY cp.objtype, st.text
GO
SELECT name FROM dbo.items WHERE id <= 2
UPDATE dbo.items SET name = name WHERE id >= 1
GO 3
-- Per statement: executions (since the batch was cached, at its second
-- run) and rows are exact, times are positive and add up. The offsets pick the statement out of the batch text.
SELECT qs.execution_count, qs.total_rows, qs.last_rows, qs.min_rows, qs.max_rows,
    qs.plan_generation_num,
    SUBSTRING(st.text, qs.statement_start_offset / 2 + 1,
        (qs.statement_end_offset - qs.statement_start_offset) / 2 + 1) AS statement
FROM sys.dm_exec_query_stats AS qs
CROSS APPLY sys.dm_exec_sql_text(qs.sql_handle) AS st
WHERE st.text LIKE N'SELECT name FROM dbo.items WHERE id <= 2%'
    AND qs.total_elapsed_time > 0 AND qs.total_worker_time > 0
    AND qs.min_elapsed_time <= qs.last_elapsed_time AND qs.last_elapsed_time <= qs.max_elapsed_time
    AND qs.max_elapsed_time <= qs.total_elapsed_time
    AND qs.min_worker_time <= qs.max_worker_time AND qs.max_worker_time <= qs.total_worker_time
    AND qs.last_execution_time >= qs.creation_time
ORDER BY qs.statement_start_offset
GO
CREATE PROCEDURE dbo.item_name @id int AS
SELECT name FROM dbo.items WHERE id = @id
GO
EXEC dbo.item_name 1
EXEC dbo.item_name @id = 2
GO
-- A procedure is an entry of its own (objtype Proc) with its object id;
-- its statements count in sys.dm_exec_query_stats. The CREATE PROCEDURE
-- batch is not cached.
SELECT cp.objtype, cp.usecounts, qs.execution_count, qs.total_rows,
    CASE WHEN st.objectid = OBJECT_ID(N'dbo.item_name') THEN 'yes' ELSE 'no' END AS is_item_name,
    SUBSTRING(st.text, qs.statement_start_offset / 2 + 1,
        (qs.statement_end_offset - qs.statement_start_offset) / 2 + 1) AS statement
FROM sys.dm_exec_cached_plans AS cp
JOIN sys.dm_exec_query_stats AS qs ON qs.plan_handle = cp.plan_handle
CROSS APPLY sys.dm_exec_sql_text(cp.plan_handle) AS st
WHERE cp.objtype = 'Proc'
SELECT COUNT(*) AS create_procedure_cached
FROM sys.dm_exec_cached_plans AS cp
CROSS APPLY sys.dm_exec_sql_text(cp.plan_handle) AS st
WHERE st.text LIKE N'CREATE PROCEDURE%' AND cp.objtype = 'Adhoc'
GO
SELECT name FROM dbo.items WHERE id = 3
GO 2
CREATE TABLE dbo.other (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
SELECT name FROM dbo.items WHERE id = 3
GO
ALTER PROCEDURE dbo.item_name @id int AS
SELECT UPPER(name) AS upper_name FROM dbo.items WHERE id = @id
GO
EXEC dbo.item_name 3
GO
-- A schema change: the next use compiles again, under the same plan
-- handle, with plan_generation_num 2 and its counters started over. An
-- altered procedure runs its new body.
SELECT cp.objtype, cp.usecounts, qs.plan_generation_num, qs.execution_count,
    SUBSTRING(st.text, qs.statement_start_offset / 2 + 1,
        (qs.statement_end_offset - qs.statement_start_offset) / 2 + 1) AS statement
FROM sys.dm_exec_cached_plans AS cp
JOIN sys.dm_exec_query_stats AS qs ON qs.plan_handle = cp.plan_handle
CROSS APPLY sys.dm_exec_sql_text(cp.plan_handle) AS st
WHERE st.text LIKE N'SELECT name FROM dbo.items WHERE id = 3%' OR cp.objtype = 'Proc'
ORDER BY cp.objtype
GO
SET ANSI_NULLS OFF
GO
SELECT name FROM dbo.items WHERE id = 3
GO 2
SET ANSI_NULLS ON
GO
-- Different SET options that change a compilation: another entry.
SELECT cp.usecounts
FROM sys.dm_exec_cached_plans AS cp
CROSS APPLY sys.dm_exec_sql_text(cp.plan_handle) AS st
WHERE st.text LIKE N'SELECT name FROM dbo.items WHERE id = 3%'
ORDER BY cp.usecounts
GO
SELEC name FROM dbo.items
GO
SELECT 1 AS one
CREATE VIEW dbo.v AS SELECT 1 AS one
GO
-- A batch that does not compile (a syntax error, a batch rule) is not
-- cached.
SELECT COUNT(*) AS not_cached
FROM sys.dm_exec_cached_plans AS cp
CROSS APPLY sys.dm_exec_sql_text(cp.plan_handle) AS st
WHERE st.text LIKE N'SELEC name%' OR st.text LIKE N'SELECT 1 AS one%'
GO
-- sys.dm_exec_sql_text of a handle no plan has (or NULL): no row. A
-- plan's SQL handle names its text as its plan handle does.
SELECT COUNT(*) AS no_rows FROM sys.dm_exec_sql_text(0x0600050000000000DEADBEEF)
SELECT COUNT(*) AS no_rows FROM sys.dm_exec_sql_text(NULL)
SELECT COUNT(*) AS statements, SUM(CASE WHEN by_sql.text = by_plan.text THEN 1 ELSE 0 END) AS same_text
FROM sys.dm_exec_query_stats AS qs
CROSS APPLY sys.dm_exec_sql_text(qs.sql_handle) AS by_sql
CROSS APPLY sys.dm_exec_sql_text(qs.plan_handle) AS by_plan
GO
-- DBCC FREEPROCCACHE empties the cache (and the batch counting is run for
-- the first time, so it is not cached).
DBCC FREEPROCCACHE
GO
SELECT COUNT(*) AS cached_plans FROM sys.dm_exec_cached_plans
GO
SELECT name FROM dbo.items WHERE id = 1
GO 2
EXEC sp_recompile N'dbo.items'
GO
SELECT name FROM dbo.items WHERE id = 1
GO
-- sp_recompile marks plans for recompilation: the next use compiles again.
SELECT cp.usecounts, qs.plan_generation_num, qs.execution_count
FROM sys.dm_exec_cached_plans AS cp
JOIN sys.dm_exec_query_stats AS qs ON qs.plan_handle = cp.plan_handle
CROSS APPLY sys.dm_exec_sql_text(cp.plan_handle) AS st
WHERE st.text LIKE N'SELECT name FROM dbo.items WHERE id = 1%'
GO
