-- Seed 004: the same script for the disk-based table, in a new session
-- (hekla restarted: the in-memory table comes back from its checkpoint).
-- new session
-- mask: time:
-- refused: 911 USE of a database the article created: hekla serves one database per data directory ('hekla'); other databases do not exist; the statements run in hekla's one database
Print 'Start time:  ' + convert(varchar,getdate(),113)
use DiskDB;
GO
Insert into [Disk_tbl](data,dt) Select NEWID(),getdate()
GO 100
Insert into [Disk_tbl](data,dt)
 Select newid(),getdate() from [Disk_tbl]
GO 5
delete [Disk_tbl] where id between 1000 and 2000
delete [Disk_tbl] where id between 25000 and 26000
delete [Disk_tbl] where id between 555555 and 556555
delete [Disk_tbl] where id between 6666666 and 6667666
delete [Disk_tbl] where id between 333 and 1333
GO
Checkpoint
GO
Print 'End time:  ' + convert(varchar,getdate(),113)
GO
-- Checks (not in the article): the disk-based table's rows, and the
-- in-memory table's, recovered by this new session from the checkpoint.
SET NOCOUNT ON
SELECT COUNT(*) AS [rows], MIN(ID) AS min_id, MAX(ID) AS max_id FROM Disk_tbl
SELECT COUNT(*) AS hk_rows, COUNT(DISTINCT ID) AS hk_distinct_ids FROM HK_tbl
GO
