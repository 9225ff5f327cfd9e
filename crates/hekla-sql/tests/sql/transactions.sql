-- User transactions: BEGIN / COMMIT / ROLLBACK, nesting, savepoints,
-- @@TRANCOUNT and XACT_STATE(); a transaction may span batches. Reads of
-- memory-optimized tables in them are elevated to SNAPSHOT (without the
-- option or a table hint they are Msg 41368: see isolation.sql).
ALTER DATABASE CURRENT SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON
CREATE TABLE dbo.acct (id int NOT NULL PRIMARY KEY NONCLUSTERED, balance int NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.acct VALUES (1, 100), (2, 100)
GO
SELECT @@TRANCOUNT AS before_begin, XACT_STATE() AS state
BEGIN TRANSACTION
UPDATE dbo.acct SET balance -= 30 WHERE id = 1
UPDATE dbo.acct SET balance += 30 WHERE id = 2
SELECT @@TRANCOUNT AS inside, XACT_STATE() AS state
COMMIT
SELECT id, balance FROM dbo.acct ORDER BY id
GO
-- ROLLBACK undoes everything since BEGIN.
BEGIN TRAN
DELETE FROM dbo.acct
SELECT COUNT(*) AS seen_inside FROM dbo.acct
ROLLBACK TRAN
SELECT COUNT(*) AS after_rollback FROM dbo.acct
GO
-- Nested BEGINs only count; the inner COMMIT commits nothing, and any
-- ROLLBACK rolls back the whole transaction.
BEGIN TRAN
BEGIN TRAN
INSERT INTO dbo.acct VALUES (3, 0)
SELECT @@TRANCOUNT AS nested
COMMIT
SELECT @@TRANCOUNT AS after_inner_commit
ROLLBACK
SELECT @@TRANCOUNT AS after_rollback, COUNT(*) AS rows FROM dbo.acct
GO
-- A failing statement inside a transaction undoes only itself.
BEGIN TRAN
INSERT INTO dbo.acct VALUES (4, 0)
INSERT INTO dbo.acct VALUES (5, 0), (1, 0)
COMMIT
SELECT id FROM dbo.acct ORDER BY id
GO
-- Savepoints: ROLLBACK TRAN name goes back to it and keeps the
-- transaction open.
BEGIN TRAN
INSERT INTO dbo.acct VALUES (6, 0)
SAVE TRAN before_seven
INSERT INTO dbo.acct VALUES (7, 0)
ROLLBACK TRAN before_seven
SELECT @@TRANCOUNT AS still_open
INSERT INTO dbo.acct VALUES (8, 0)
COMMIT
SELECT id FROM dbo.acct WHERE id > 5 ORDER BY id
GO
-- A transaction spans batches.
BEGIN TRAN
UPDATE dbo.acct SET balance = 1 WHERE id = 4
GO
SELECT @@TRANCOUNT AS open_across_batches
COMMIT WITH (DELAYED_DURABILITY = ON)
SELECT balance FROM dbo.acct WHERE id = 4
GO
-- Errors of the transaction statements.
COMMIT
ROLLBACK
SAVE TRAN nowhere
BEGIN TRAN a_name_that_is_much_longer_than_thirty_two_characters
GO
-- DDL is refused inside a user transaction, as SQL Server refuses it for
-- memory-optimized tables; #temp tables are allowed.
BEGIN TRAN
CREATE TABLE dbo.inside (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE #inside (id int)
INSERT INTO #inside VALUES (1)
SELECT COUNT(*) AS temp_rows FROM #inside
COMMIT
GO
-- A conversion error ends the batch and rolls back the transaction.
BEGIN TRAN
INSERT INTO dbo.acct VALUES (9, 0)
SELECT CAST('nine' AS int)
PRINT 'not printed'
GO
SELECT @@TRANCOUNT AS trancount, COUNT(*) AS nines FROM dbo.acct WHERE id = 9
GO
-- THROW ends the batch but leaves the transaction open.
BEGIN TRAN
INSERT INTO dbo.acct VALUES (10, 0)
;THROW 50000, 'stop here', 1
GO
SELECT @@TRANCOUNT AS left_open
ROLLBACK
GO
-- A doomed transaction: only ROLLBACK helps; left at the end of the batch
-- it is rolled back with Msg 3998.
SET XACT_ABORT ON
BEGIN TRY
    BEGIN TRAN
    INSERT INTO dbo.acct VALUES (11, 0)
    INSERT INTO dbo.acct VALUES (11, 0)
END TRY
BEGIN CATCH
    PRINT 'doomed: ' + CAST(XACT_STATE() AS varchar(5))
    INSERT INTO dbo.acct VALUES (12, 0)
END CATCH
GO
SET XACT_ABORT OFF
SELECT @@TRANCOUNT AS trancount, COUNT(*) AS elevens FROM dbo.acct WHERE id IN (11, 12)
GO
-- With XACT_ABORT OFF an error that would roll back (a conversion error)
-- dooms the transaction inside TRY; a doomed transaction left open at the
-- end of the batch is rolled back with Msg 3998.
BEGIN TRAN
INSERT INTO dbo.acct VALUES (13, 0)
BEGIN TRY
    SELECT CAST('x' AS int)
END TRY
BEGIN CATCH
    SELECT XACT_STATE() AS xact_state, @@TRANCOUNT AS trancount
END CATCH
GO
SELECT @@TRANCOUNT AS trancount, COUNT(*) AS thirteens FROM dbo.acct WHERE id = 13
GO
-- sys.dm_exec_sessions counts the session's open transactions.
BEGIN TRAN
BEGIN TRAN
SELECT open_transaction_count FROM sys.dm_exec_sessions WHERE session_id = @@SPID
COMMIT
COMMIT
SELECT open_transaction_count FROM sys.dm_exec_sessions WHERE session_id = @@SPID
GO
