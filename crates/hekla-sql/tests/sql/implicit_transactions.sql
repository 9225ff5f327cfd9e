-- SET IMPLICIT_TRANSACTIONS ON: outside a transaction, ALTER TABLE, BEGIN
-- TRANSACTION, CREATE, DELETE, DROP, GRANT, INSERT, REVOKE, SELECT from a
-- table, TRUNCATE TABLE and UPDATE first run an unseen BEGIN TRANSACTION,
-- which stays open (across batches) until COMMIT or ROLLBACK.
ALTER DATABASE CURRENT SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON
CREATE TABLE dbo.item (id int NOT NULL PRIMARY KEY NONCLUSTERED, qty int NOT NULL CHECK (qty >= 0)) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.item VALUES (1, 10), (2, 20)
CREATE USER reader WITHOUT LOGIN
GO
CREATE PROCEDURE dbo.count_items AS SELECT COUNT(*) AS items FROM dbo.item
GO
CREATE PROCEDURE dbo.nothing AS PRINT 'nothing read'
GO
CREATE PROCEDURE dbo.add_item @id int, @qty int
WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    INSERT INTO dbo.item (id, qty) VALUES (@id, @qty)
END
GO
-- Off by default; @@OPTIONS bit 2 shows it.
SELECT @@OPTIONS & 2 AS implicit_off, @@TRANCOUNT AS trancount
SET IMPLICIT_TRANSACTIONS ON
SELECT @@OPTIONS & 2 AS implicit_on, @@TRANCOUNT AS trancount
GO
-- Statements that read no table begin nothing.
SELECT 1 AS one, GETDATE() - GETDATE() AS nothing
DECLARE @n int = 5
SET @n = @n + 1
SELECT @n = @n + 1
PRINT CONCAT(N'@n = ', @n)
IF @n > 0 PRINT 'if reads no table'
SELECT @@TRANCOUNT AS after_computing
GO
-- SAVE TRANSACTION and COMMIT are not on the list: they need an open
-- transaction.
SAVE TRANSACTION s
COMMIT
ROLLBACK
SELECT @@TRANCOUNT AS still_none
GO
-- A SELECT from a table begins one; it stays open after the batch.
SELECT id, qty FROM dbo.item ORDER BY id
SELECT @@TRANCOUNT AS after_select
GO
SELECT @@TRANCOUNT AS next_batch
COMMIT
SELECT @@TRANCOUNT AS after_commit
GO
-- So does one that reads a table only in a subquery, a join, a derived
-- table or an assignment.
SELECT (SELECT COUNT(*) FROM dbo.item) AS items
SELECT @@TRANCOUNT AS subquery
COMMIT
DECLARE @q int
SELECT @q = qty FROM dbo.item WHERE id = 1
SELECT @@TRANCOUNT AS assignment
COMMIT
SELECT v.a FROM (VALUES (1)) AS v (a)
SELECT @@TRANCOUNT AS values_only
WITH numbers (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM numbers WHERE n < 3)
SELECT COUNT(*) AS n FROM numbers
SELECT @@TRANCOUNT AS cte_of_no_table
WITH stock AS (SELECT qty FROM dbo.item) SELECT SUM(qty) AS stock FROM stock
SELECT @@TRANCOUNT AS cte_of_a_table
COMMIT
GO
-- SELECT INTO creates a table: it begins one even without reading any.
SELECT 1 AS n INTO #made
SELECT @@TRANCOUNT AS after_select_into
COMMIT
DROP TABLE #made
COMMIT
GO
-- INSERT, UPDATE, DELETE: each begins one when none is open; the next
-- statements join it, and ROLLBACK undoes them all.
INSERT INTO dbo.item VALUES (3, 30)
SELECT @@TRANCOUNT AS after_insert
UPDATE dbo.item SET qty = qty + 1 WHERE id = 1
DELETE FROM dbo.item WHERE id = 2
SELECT @@TRANCOUNT AS still_one
ROLLBACK
SELECT @@TRANCOUNT AS after_rollback
GO
SET IMPLICIT_TRANSACTIONS OFF
SELECT id, qty FROM dbo.item ORDER BY id
SET IMPLICIT_TRANSACTIONS ON
GO
UPDATE dbo.item SET qty = 11 WHERE id = 1
SELECT @@TRANCOUNT AS after_update
COMMIT
DELETE FROM dbo.item WHERE id = 99
SELECT @@TRANCOUNT AS after_delete_of_nothing
COMMIT
GO
-- TRUNCATE TABLE begins one too (and is undone by its ROLLBACK).
CREATE TABLE #scratch (n int)
SELECT @@TRANCOUNT AS after_create_temp
COMMIT
INSERT INTO #scratch VALUES (1), (2)
COMMIT
TRUNCATE TABLE #scratch
SELECT @@TRANCOUNT AS after_truncate
ROLLBACK
SELECT COUNT(*) AS scratch_rows FROM #scratch
ROLLBACK
DROP TABLE #scratch
SELECT @@TRANCOUNT AS after_drop_temp
COMMIT
GO
-- BEGIN TRANSACTION begins the unseen one first, so it nests: @@TRANCOUNT
-- is 2 and one COMMIT leaves the implicit one open.
BEGIN TRANSACTION
SELECT @@TRANCOUNT AS after_begin
INSERT INTO dbo.item VALUES (4, 40)
COMMIT
SELECT @@TRANCOUNT AS after_one_commit
COMMIT
SELECT @@TRANCOUNT AS after_two_commits
GO
-- CREATE, ALTER TABLE, DROP, GRANT and REVOKE begin one too; with
-- memory-optimized tables DDL is then refused inside it (12331), as are
-- hekla's security statements, and the transaction stays open.
CREATE TABLE dbo.other (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
SELECT @@TRANCOUNT AS after_create
ROLLBACK
ALTER TABLE dbo.item ADD note int NULL
SELECT @@TRANCOUNT AS after_alter
ROLLBACK
DROP TABLE dbo.item
SELECT @@TRANCOUNT AS after_drop
ROLLBACK
GRANT SELECT ON dbo.item TO reader
SELECT @@TRANCOUNT AS after_grant
COMMIT
REVOKE SELECT ON dbo.item TO reader
SELECT @@TRANCOUNT AS after_revoke
COMMIT
CREATE PROCEDURE dbo.later AS RETURN 0
GO
SELECT @@TRANCOUNT AS after_create_procedure
COMMIT
GO
-- A statement that fails still began the transaction; without XACT_ABORT
-- only the statement is undone and the transaction stays open.
INSERT INTO dbo.item VALUES (1, 0)
SELECT @@TRANCOUNT AS after_key_violation, XACT_STATE() AS state
INSERT INTO dbo.item VALUES (5, 50)
COMMIT
SELECT id FROM dbo.item ORDER BY id
COMMIT
GO
-- With XACT_ABORT ON the error rolls the transaction back and ends the
-- batch.
SET XACT_ABORT ON
INSERT INTO dbo.item VALUES (6, 60)
UPDATE dbo.item SET qty = -1 WHERE id = 1
PRINT 'not reached'
GO
SELECT @@TRANCOUNT AS after_abort
SELECT id FROM dbo.item ORDER BY id
COMMIT
SET XACT_ABORT OFF
GO
-- In TRY/CATCH a rolling-back error dooms it; the CATCH block rolls back.
BEGIN TRY
    SET XACT_ABORT ON
    INSERT INTO dbo.item VALUES (7, 70)
    INSERT INTO dbo.item VALUES (7, 70)
END TRY
BEGIN CATCH
    SELECT ERROR_NUMBER() AS error, XACT_STATE() AS state, @@TRANCOUNT AS trancount
    ROLLBACK
END CATCH
SET XACT_ABORT OFF
SELECT @@TRANCOUNT AS after_catch
GO
-- A doomed transaction left at the end of a batch is rolled back with
-- 3998; an open, healthy one is not.
BEGIN TRY
    SET XACT_ABORT ON
    INSERT INTO dbo.item VALUES (1, 1)
END TRY
BEGIN CATCH
    PRINT CONCAT('caught ', ERROR_NUMBER(), ', state ', XACT_STATE())
END CATCH
GO
SET XACT_ABORT OFF
SELECT @@TRANCOUNT AS after_3998
GO
-- A procedure's statements begin one as the batch's would; EXEC itself
-- does not.
EXEC dbo.nothing
SELECT @@TRANCOUNT AS after_exec_nothing
EXEC dbo.count_items
SELECT @@TRANCOUNT AS after_exec_select
COMMIT
GO
-- A natively compiled procedure inside an implicit transaction is a
-- savepoint of it, as inside an explicit one: its failure undoes only
-- itself, and ROLLBACK undoes what it did.
UPDATE dbo.item SET qty = 12 WHERE id = 1
EXEC dbo.add_item 8, 80
EXEC dbo.add_item 9, -1
SELECT @@TRANCOUNT AS after_native, XACT_STATE() AS state
SELECT id, qty FROM dbo.item ORDER BY id
ROLLBACK
SELECT id, qty FROM dbo.item ORDER BY id
COMMIT
GO
-- Outside a transaction a natively compiled procedure's block is its own
-- transaction, as without IMPLICIT_TRANSACTIONS.
EXEC dbo.add_item 8, 80
SELECT @@TRANCOUNT AS after_native_alone
GO
-- mssql-jdbc: setAutoCommit(false), work, commit(), rollback(),
-- setAutoCommit(true).
SET IMPLICIT_TRANSACTIONS OFF
GO
SET IMPLICIT_TRANSACTIONS ON
GO
INSERT INTO dbo.item VALUES (10, 100)
GO
IF @@TRANCOUNT > 0 COMMIT TRAN
GO
SELECT @@TRANCOUNT AS after_driver_commit
GO
UPDATE dbo.item SET qty = 0 WHERE id = 10
GO
IF @@TRANCOUNT > 0 ROLLBACK TRAN
GO
IF @@TRANCOUNT > 0 COMMIT TRAN
GO
SET IMPLICIT_TRANSACTIONS OFF
GO
SELECT id, qty FROM dbo.item WHERE id >= 8 ORDER BY id
SELECT @@TRANCOUNT AS autocommit_again, @@OPTIONS & 2 AS implicit_off
GO
-- SET ANSI_DEFAULTS ON turns IMPLICIT_TRANSACTIONS on with ANSI_NULLS,
-- ANSI_WARNINGS and CURSOR_CLOSE_ON_COMMIT (hekla refuses OFF, which
-- would turn QUOTED_IDENTIFIER off).
SET ANSI_DEFAULTS ON
SELECT @@OPTIONS & (2 | 4 | 8 | 32) AS ansi_bits
SELECT ansi_defaults FROM sys.dm_exec_sessions WHERE session_id = @@SPID
SELECT @@TRANCOUNT AS after_session_view
ROLLBACK
SET IMPLICIT_TRANSACTIONS OFF
SELECT ansi_defaults FROM sys.dm_exec_sessions WHERE session_id = @@SPID
SELECT @@TRANCOUNT AS autocommit, @@OPTIONS & (2 | 4 | 8 | 32) AS ansi_bits
GO
-- An implicit transaction is no autocommit one: without
-- MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT a READ COMMITTED read of a
-- memory-optimized table in it is 41368 (the transaction stays open),
-- and needs a hint. ALTER DATABASE begins none.
SET IMPLICIT_TRANSACTIONS ON
ALTER DATABASE CURRENT SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = OFF
SELECT @@TRANCOUNT AS after_alter_database
SELECT COUNT(*) AS items FROM dbo.item
SELECT @@TRANCOUNT AS after_41368
SELECT COUNT(*) AS items FROM dbo.item WITH (SNAPSHOT)
COMMIT
SET IMPLICIT_TRANSACTIONS OFF
SELECT COUNT(*) AS autocommit_items FROM dbo.item
GO
