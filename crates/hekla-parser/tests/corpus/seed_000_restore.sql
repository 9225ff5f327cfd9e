-- Seed: RESTORE of the in-memory OLTP sample database (incl. the MEMORY_OPTIMIZED_DATA container move) from article 000 (Sample database for in-memory OLTP).
-- Transcribed from the article's 'Example T-SQL script'; the listing's 4-space indentation was removed.
RESTORE DATABASE [AdventureWorks2022]
  FROM DISK = N'C:\temp\AdventureWorks2022.bak'
    WITH FILE = 1,
  MOVE N'AdventureWorks2022_Data' TO N'h:\DATA\AdventureWorks2022_Data.mdf',
  MOVE N'AdventureWorks2022_Log' TO N'i:\DATA\AdventureWorks2022_log.ldf',
  MOVE N'AdventureWorks2022_mod' TO N'h:\data\AdventureWorks2022_mod'
GO
