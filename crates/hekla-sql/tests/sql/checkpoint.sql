-- CHECKPOINT in a database without a data directory: nothing to write,
-- so it does nothing, succeeds, and no checkpoint file appears.
CREATE TABLE dbo.cp (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.cp VALUES (1, 10), (2, 20)
DELETE FROM dbo.cp WHERE id = 1
CHECKPOINT
SELECT @@ERROR AS error
GO
-- checkpoint_duration: seconds, an int above zero.
CHECKPOINT 10
GO
CHECKPOINT 0
GO
-- Allowed inside a transaction, which goes on.
BEGIN TRANSACTION
INSERT INTO dbo.cp VALUES (3, 30)
CHECKPOINT
COMMIT
SELECT id, v FROM dbo.cp ORDER BY id
GO
SELECT state_desc, file_type_desc, COUNT(*) AS [count], SUM(CASE WHEN state = 5 AND file_type = 0 THEN 128 * 1024 * 1024 WHEN state = 5 AND file_type = 1 THEN 8 * 1024 * 1024 WHEN state IN (6, 7) THEN 68 * 1024 * 1024 ELSE file_size_in_bytes END) / 1024 / 1024 AS [on-disk size MB] FROM sys.dm_db_xtp_checkpoint_files GROUP BY state, state_desc, file_type, file_type_desc ORDER BY state, file_type;
GO
DROP TABLE dbo.cp
