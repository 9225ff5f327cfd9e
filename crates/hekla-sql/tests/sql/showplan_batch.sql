-- Under SET SHOWPLAN_TEXT ON nothing runs: SQL Server compiles the batch
-- and shows each statement's text (and plan, for queries and DML). Control
-- flow is walked, not followed (both IF branches, a loop's body once);
-- DDL, SET @v, PRINT and transactions show their text and do nothing; a
-- procedure called by EXEC shows its statements; SET SHOWPLAN must be
-- alone in its batch (Msg 1067).
CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int) WITH (MEMORY_OPTIMIZED = ON)
INSERT dbo.t VALUES (1, 10)
GO
CREATE PROCEDURE dbo.p AS
BEGIN
    UPDATE dbo.t SET v = v + 1 WHERE id = 1
    CREATE TABLE dbo.made_by_p (a int)
END
GO
SET SHOWPLAN_TEXT ON
GO
DECLARE @i int = 0
WHILE @i < 3
BEGIN
    SELECT v FROM dbo.t WHERE id = @i
    SET @i += 1
END
IF @i > 100 DROP TABLE dbo.t ELSE PRINT 'kept'
CREATE TABLE dbo.never (a int)
EXEC dbo.p
BEGIN TRAN
DELETE FROM dbo.t
COMMIT
CHECKPOINT
GO
SELECT nope FROM dbo.t
DROP TABLE dbo.t
GO
SET SHOWPLAN_TEXT OFF
GO
-- Nothing ran: the row is unchanged, no table was made or dropped.
SELECT id, v FROM dbo.t
SELECT OBJECT_ID('dbo.never') AS never, OBJECT_ID('dbo.made_by_p') AS made_by_p
GO
SET SHOWPLAN_TEXT ON
SELECT 1 AS one
GO
SELECT 2 AS two
GO
