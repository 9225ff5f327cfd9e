-- SET XACT_ABORT: OFF (the default) ends only the failing statement; ON
-- ends the rest of the batch as well, without "terminated". Each
-- statement is its own transaction, so nothing of the failing one stays.
CREATE TABLE dbo.k (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.k VALUES (1)
GO
INSERT INTO dbo.k VALUES (2), (1)
PRINT 'after the error, XACT_ABORT OFF: the batch goes on'
GO
SET XACT_ABORT ON
GO
INSERT INTO dbo.k VALUES (3), (1)
PRINT 'not printed: XACT_ABORT ON ended the batch'
GO
SELECT id FROM dbo.k ORDER BY id
SET XACT_ABORT OFF
GO
