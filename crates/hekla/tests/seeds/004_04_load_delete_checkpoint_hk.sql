-- Seed 004: load the in-memory table, delete ranges, checkpoint. Scaled:
-- GO 100 instead of GO 10000 and GO 5 instead of GO 12 (3,200 rows, not
-- 40 million), so the article's later delete ranges find no rows.
-- mask: time:
-- refused: 911 USE of a database the article created: hekla serves one database per data directory ('hekla'); other databases do not exist; the statements run in hekla's one database
Print 'Start time:  ' + convert(varchar,getdate(),113)
use hkdb;
GO
Insert into HK_tbl(data,dt) Select NEWID(),getdate()
GO 100
Insert into HK_tbl(data,dt)
 Select newid(),getdate() from HK_tbl
GO 5
delete HK_tbl where id between 1000 and 2000
delete HK_tbl where id between 25000 and 26000
delete HK_tbl where id between 555555 and 556555
delete HK_tbl where id between 6666666 and 6667666
delete HK_tbl where id between 333 and 1333
checkpoint;
GO
Print 'End time:  ' + convert(varchar,getdate(),113)
GO
-- Checks (not in the article): rows left, identity values without gaps
-- or repeats, and the checkpoint files holding them.
SET NOCOUNT ON
SELECT COUNT(*) AS [rows], MIN(ID) AS min_id, MAX(ID) AS max_id, COUNT(DISTINCT ID) AS distinct_ids FROM HK_tbl
SELECT state_desc, file_type_desc, COUNT(*) AS files
FROM sys.dm_db_xtp_checkpoint_files
WHERE state_desc = 'ACTIVE'
GROUP BY state_desc, file_type_desc
ORDER BY file_type_desc
GO
