-- Seed: checkpoint performance test scripts (insert/delete/checkpoint, PRINT with CONVERT style 113) and the fn_dblog checkpoint-duration query, from article 004 (In-Memory OLTP Table Checkpoint Processes Performance Comparison).
-- The article uses the sqlcmd/SSMS repeat form 'GO 10000' and 'GO 12'; our batch separator is a line holding only
-- 'GO', so each was changed to a plain 'GO' (the repeat count is noted in a comment at the end of that batch).
-- The final PRINT of each script had no GO after it in the article; one was added.
-- Hekaton (memory-optimized) table run
Print 'Start time:  ' + convert(varchar,getdate(),113)
use hkdb;
GO
Insert into HK_tbl(data,dt) Select NEWID(),getdate()
-- (article: GO 10000)
GO
Insert into HK_tbl(data,dt)
 Select newid(),getdate() from HK_tbl
-- (article: GO 12)
GO
delete HK_tbl where id between 1000 and 2000
delete HK_tbl where id between 25000 and 26000
delete HK_tbl where id between 555555 and 556555
delete HK_tbl where id between 6666666 and 6667666
delete HK_tbl where id between 333 and 1333
checkpoint;
GO
Print 'End time:  ' + convert(varchar,getdate(),113)
GO
-- Disk-based table run
Print 'Start time:  ' + convert(varchar,getdate(),113)
use DiskDB;
GO
Insert into [Disk_tbl](data,dt) Select NEWID(),getdate()
-- (article: GO 10000)
GO
Insert into [Disk_tbl](data,dt)
 Select newid(),getdate() from [Disk_tbl]
-- (article: GO 12)
GO
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
-- Finding Checkpoint Duration (the article's listing has no GO; one was added)
SELECT 
     f1.[Checkpoint Begin]
   , f1.[Current LSN]
   , f2.[Checkpoint End]
   , datediff(ms,f1.[Checkpoint Begin],f2.[Checkpoint End]) as duration
 FROM    fn_dblog(NULL, NULL) f1
      Inner Join fn_dblog(NULL, NULL) f2
            On f1.[Current LSN] = f2.[Previous LSN]
WHERE   f2.Operation IN (N'LOP_BEGIN_CKPT', N'LOP_END_CKPT')
    and f1.[Checkpoint Begin] > convert(Datetime,'Start time' )
    and f2.[Checkpoint End] < convert(Datetime, 'End time')
GO
