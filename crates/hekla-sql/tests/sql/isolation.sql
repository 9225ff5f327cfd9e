-- Isolation of memory-optimized tables as SQL Server defines it: isolation
-- table hints, Msg 41368 in explicit transactions under READ COMMITTED,
-- the database option MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT, the session
-- levels SNAPSHOT (41332) and REPEATABLE READ / SERIALIZABLE (41333), and
-- the hints memory-optimized tables refuse.
CREATE TABLE dbo.mo (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.disk (id int NOT NULL PRIMARY KEY, v int NOT NULL)
INSERT INTO dbo.mo VALUES (1, 10), (2, 20)
INSERT INTO dbo.disk VALUES (1, 100), (2, 200)
GO
CREATE VIEW dbo.mo_view AS SELECT id, v FROM dbo.mo
GO
CREATE PROCEDURE dbo.count_mo WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT COUNT(*) AS in_native_procedure FROM dbo.mo
END
GO
-- Autocommit statements read memory-optimized tables at SNAPSHOT, hint or not.
SELECT id, v FROM dbo.mo ORDER BY id
UPDATE dbo.mo SET v = v + 1 WHERE id = 1
GO
-- In an explicit transaction under READ COMMITTED every read of a
-- memory-optimized table needs an isolation hint: 41368 without one, which
-- ends the statement and leaves the transaction open.
BEGIN TRANSACTION
SELECT id, v FROM dbo.mo
SELECT COUNT(*) AS snapshot_hint FROM dbo.mo WITH (SNAPSHOT)
SELECT m.v AS repeatable_read_hint FROM dbo.mo AS m WITH (REPEATABLEREAD) WHERE m.id = 1
SELECT COUNT(*) AS legacy_serializable_hint FROM dbo.mo (SERIALIZABLE)
SELECT COUNT(*) AS in_subquery FROM dbo.disk WHERE id IN (SELECT id FROM dbo.mo)
SELECT COUNT(*) AS hinted_subquery FROM dbo.disk WHERE id IN (SELECT id FROM dbo.mo WITH (SNAPSHOT))
UPDATE dbo.mo SET v = v + 1 WHERE id = 1
UPDATE dbo.mo WITH (SNAPSHOT) SET v = v + 1 WHERE id = 1
UPDATE m SET v = d.v FROM dbo.mo AS m WITH (SNAPSHOT) JOIN dbo.disk AS d ON d.id = m.id WHERE m.id = 2
UPDATE dbo.mo WITH (SNAPSHOT) SET v = d.v + 1 FROM dbo.mo JOIN dbo.disk AS d ON d.id = mo.id WHERE mo.id = 2
DELETE dbo.mo WHERE id = 2
SELECT @@TRANCOUNT AS trancount, XACT_STATE() AS xact_state
COMMIT
SELECT id, v FROM dbo.mo ORDER BY id
GO
-- What needs no hint in an explicit transaction: an INSERT (it reads
-- nothing), disk-based tables, #temp tables and table variables (tempdb is
-- disk-based), and a natively compiled procedure (its atomic block names
-- its level).
CREATE TABLE #t (id int)
DECLARE @tv TABLE (id int)
BEGIN TRANSACTION
INSERT INTO dbo.mo VALUES (3, 30)
INSERT INTO #t VALUES (1)
INSERT INTO @tv VALUES (1)
SELECT COUNT(*) AS disk_rows FROM dbo.disk
SELECT COUNT(*) AS temp_rows FROM #t
SELECT COUNT(*) AS variable_rows FROM @tv
EXEC dbo.count_mo
COMMIT
DROP TABLE #t
GO
-- A hint on a view reaches the tables it reads.
BEGIN TRANSACTION
SELECT COUNT(*) AS through_view FROM dbo.mo_view
SELECT COUNT(*) AS through_view_with_hint FROM dbo.mo_view WITH (SNAPSHOT)
COMMIT
GO
-- READ UNCOMMITTED is refused alike.
SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED
BEGIN TRANSACTION
SELECT COUNT(*) AS read_uncommitted FROM dbo.mo
SELECT COUNT(*) AS read_uncommitted_hinted FROM dbo.mo WITH (SNAPSHOT)
COMMIT
SET TRANSACTION ISOLATION LEVEL READ COMMITTED
GO
-- MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON reads them at SNAPSHOT instead.
ALTER DATABASE CURRENT SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON
SELECT name, is_memory_optimized_elevate_to_snapshot_on FROM sys.databases WHERE database_id = DB_ID()
BEGIN TRANSACTION
SELECT COUNT(*) AS elevated FROM dbo.mo
UPDATE dbo.mo SET v = v + 1 WHERE id = 3
COMMIT
ALTER DATABASE hekla SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT OFF
SELECT is_memory_optimized_elevate_to_snapshot_on AS elevate_after_off FROM sys.databases WHERE database_id = DB_ID()
GO
-- Under the session level SNAPSHOT memory-optimized tables cannot be
-- accessed at all (41332); disk-based ones can. Like a write conflict,
-- the error ends the batch and rolls back the transaction.
SET TRANSACTION ISOLATION LEVEL SNAPSHOT
GO
SELECT COUNT(*) AS snapshot_session_disk FROM dbo.disk
SELECT COUNT(*) AS snapshot_session FROM dbo.mo
SELECT 'not reached' AS after_41332
GO
SELECT COUNT(*) AS snapshot_session_hinted FROM dbo.mo WITH (SNAPSHOT)
GO
INSERT INTO dbo.mo VALUES (4, 40)
GO
-- Under REPEATABLE READ or SERIALIZABLE they must be read at SNAPSHOT
-- (41333), autocommit or not.
SET TRANSACTION ISOLATION LEVEL REPEATABLE READ
SELECT COUNT(*) AS repeatable_read_session_hinted FROM dbo.mo WITH (SNAPSHOT)
SELECT COUNT(*) AS repeatable_read_session FROM dbo.mo
GO
SET TRANSACTION ISOLATION LEVEL SERIALIZABLE
BEGIN TRANSACTION
SELECT COUNT(*) AS serializable_session_hinted FROM dbo.mo WITH (SNAPSHOT)
SELECT COUNT(*) AS serializable_session_disk FROM dbo.disk
SELECT COUNT(*) AS serializable_session FROM dbo.mo WITH (SERIALIZABLE)
COMMIT
GO
SELECT @@TRANCOUNT AS trancount_after_41333
SET TRANSACTION ISOLATION LEVEL READ COMMITTED
GO
-- Locking hints: refused on memory-optimized tables (but NOLOCK, taken and
-- ignored); disk-based tables take HOLDLOCK (SERIALIZABLE) and TABLOCK.
SELECT COUNT(*) AS no_lock FROM dbo.mo WITH (NOLOCK)
SELECT COUNT(*) FROM dbo.mo WITH (UPDLOCK)
SELECT COUNT(*) FROM dbo.mo WITH (HOLDLOCK)
SELECT COUNT(*) FROM dbo.mo WITH (READUNCOMMITTED)
SELECT COUNT(*) FROM dbo.mo WITH (ROWLOCK, SNAPSHOT)
INSERT INTO dbo.mo WITH (TABLOCK) VALUES (5, 50)
SELECT COUNT(*) AS serializable_by_holdlock FROM dbo.disk WITH (HOLDLOCK)
SELECT COUNT(*) AS table_lock FROM dbo.disk WITH (TABLOCK)
GO
BEGIN TRANSACTION
SELECT COUNT(*) AS nolock_is_no_isolation_hint FROM dbo.mo WITH (NOLOCK)
COMMIT
GO
SELECT COUNT(*) FROM dbo.mo WITH (SNAPSHOT, SERIALIZABLE)
GO
SELECT COUNT(*) FROM dbo.mo WITH (NOLOCK, SNAPSHOT)
GO
-- ALTER DATABASE: DELAYED_DURABILITY, the errors around it.
ALTER DATABASE CURRENT SET DELAYED_DURABILITY = FORCED
SELECT delayed_durability, delayed_durability_desc FROM sys.databases WHERE database_id = DB_ID()
ALTER DATABASE CURRENT SET DELAYED_DURABILITY = ALLOWED, MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON WITH NO_WAIT
SELECT delayed_durability_desc, is_memory_optimized_elevate_to_snapshot_on FROM sys.databases WHERE database_id = DB_ID()
ALTER DATABASE CURRENT SET DELAYED_DURABILITY = DISABLED, MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = OFF
ALTER DATABASE CURRENT SET AUTO_CLOSE OFF
ALTER DATABASE nosuchdb SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON
ALTER DATABASE tempdb SET DELAYED_DURABILITY = FORCED
BEGIN TRANSACTION
ALTER DATABASE CURRENT SET DELAYED_DURABILITY = FORCED
ROLLBACK
SELECT delayed_durability_desc, is_memory_optimized_elevate_to_snapshot_on FROM sys.databases WHERE database_id = DB_ID()
GO
-- A value the option does not take is a syntax error, as in SQL Server.
ALTER DATABASE CURRENT SET DELAYED_DURABILITY = ON
