-- A natively compiled procedure is compiled whole at CREATE: a statement
-- that does not bind is the CREATE's error (an interpreted procedure defers
-- a missing table to run time). Compiled modules show in
-- sys.dm_os_loaded_modules (as SQL Server's native DLLs) and in
-- sys.dm_hekla_native_modules (statements, machine code, what ran compiled).
CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024), v int NOT NULL, m money NULL) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
GO
INSERT INTO dbo.t VALUES (1, 10, 1.5), (2, 20, NULL), (3, 30, 2.25)
GO
CREATE PROCEDURE dbo.missing_table WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  SELECT SUM(v) FROM dbo.nope
END
GO
CREATE PROCEDURE dbo.deferred AS
  SELECT SUM(v) FROM dbo.nope
GO
CREATE PROCEDURE dbo.missing_column WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  DECLARE @n int = 0
  IF @n = 0
    UPDATE dbo.t SET nope = 1 WHERE id = @n
END
GO
CREATE PROCEDURE dbo.undeclared WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  WHILE @i < 3 SELECT 1
END
GO
-- A conversion of a value is checked when it runs (Msg 245), not at CREATE.
CREATE PROCEDURE dbo.converts_when_run WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  DECLARE @d int = 0
  SELECT @d = 'not a number' + 1
END
GO
SELECT name FROM sys.procedures ORDER BY name
EXEC dbo.converts_when_run
GO
DROP PROCEDURE dbo.converts_when_run
GO
-- So is a natively compiled scalar function's body.
CREATE FUNCTION dbo.f_missing_table (@a int) RETURNS int WITH NATIVE_COMPILATION, SCHEMABINDING AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  DECLARE @s int = 0
  SELECT @s = SUM(v) FROM dbo.nope
  RETURN @s
END
GO
CREATE FUNCTION dbo.f_undeclared (@a int) RETURNS int WITH NATIVE_COMPILATION, SCHEMABINDING AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  RETURN @b
END
GO
CREATE FUNCTION dbo.f_total (@a int) RETURNS int WITH NATIVE_COMPILATION, SCHEMABINDING AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  DECLARE @s int = 0
  SELECT @s = SUM(v) FROM dbo.t WHERE v > @a
  RETURN @s
END
GO
SELECT name FROM sys.objects WHERE type = 'FN' ORDER BY name
SELECT dbo.f_total(5) AS above_5, dbo.f_total(15) AS above_15
GO
-- Two statements with row kernels, one interpreted (the variable's value).
CREATE PROCEDURE dbo.totals @p int NOT NULL WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  DECLARE @s int = 0
  SELECT @s = SUM(v) FROM dbo.t WHERE v > @p
  SET @s = @s + 1
  IF @s > 0 SELECT @s AS s, COUNT(*) AS n, MIN(m) AS low FROM dbo.t
END
GO
SELECT m.name, m.generation, m.statements, m.compiled_statements, m.kernels,
       CASE WHEN m.code_bytes > 0 THEN 'yes' ELSE 'no' END AS has_code,
       m.late_kernels, m.statement_executions, m.kernel_executions,
       s.uses_native_compilation
FROM sys.dm_hekla_native_modules AS m JOIN sys.sql_modules AS s ON s.object_id = m.object_id
SELECT COUNT(*) AS loaded FROM sys.dm_os_loaded_modules
WHERE description = 'XTP Native DLL' AND name LIKE 'xtp[_]p[_]5[_]%[_]1'
GO
EXEC dbo.totals 5
EXEC dbo.totals 15
SELECT statement_executions, kernel_executions, late_kernels FROM sys.dm_hekla_native_modules
GO
-- A column added moves the row layout: the kernels compiled at CREATE no
-- longer fit, and are never run again. The next run compiles kernels for
-- the new layout as its statements first need them (late_kernels); the
-- run after reuses them.
ALTER TABLE dbo.t ADD a1 int NULL, a2 int NULL, a3 int NULL, a4 int NULL, a5 int NULL, a6 int NULL, a7 int NULL, a8 int NULL
GO
EXEC dbo.totals 5
SELECT generation, kernels, late_kernels, kernel_executions FROM sys.dm_hekla_native_modules
EXEC dbo.totals 5
SELECT generation, kernels, late_kernels, kernel_executions FROM sys.dm_hekla_native_modules
GO
-- ALTER PROCEDURE compiles again; DROP frees the code. Until its next
-- EXEC, the cached plan still counts the old text's statements (as
-- sys.dm_exec_query_stats does): statement_executions shows them.
ALTER PROCEDURE dbo.totals @p int NOT NULL WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  SELECT COUNT(*) AS n FROM dbo.t WHERE v = @p
END
GO
SELECT generation, statements, compiled_statements, kernels, statement_executions FROM sys.dm_hekla_native_modules
EXEC dbo.totals 20
GO
DROP PROCEDURE dbo.totals
GO
SELECT COUNT(*) AS modules FROM sys.dm_hekla_native_modules
SELECT COUNT(*) AS loaded FROM sys.dm_os_loaded_modules WHERE description = 'XTP Native DLL'
GO
-- Kernels also aggregate what an index seek finds, and compare a narrower
-- integer column widened to the other side's type (smallint > int).
CREATE TABLE dbo.lines (id int NOT NULL PRIMARY KEY NONCLUSTERED, order_id int NOT NULL INDEX ix_order NONCLUSTERED HASH WITH (BUCKET_COUNT = 64), qty smallint NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.lines VALUES (1, 7, 1), (2, 7, 3), (3, 8, 2)
GO
CREATE PROCEDURE dbo.order_lines @o int WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  SELECT SUM(qty) AS q FROM dbo.lines WHERE order_id = @o
  SELECT COUNT(*) AS n FROM dbo.lines WHERE id BETWEEN 1 AND 2 AND qty > 1
END
GO
EXEC dbo.order_lines 7
SELECT statements, compiled_statements, kernels, late_kernels, kernel_executions FROM sys.dm_hekla_native_modules
GO
-- sp_recompile of a native procedure: its next EXEC compiles it anew.
EXEC sp_recompile 'dbo.order_lines'
SELECT generation, statement_executions FROM sys.dm_hekla_native_modules
EXEC dbo.order_lines 8
SELECT generation, kernels, statement_executions FROM sys.dm_hekla_native_modules
GO
