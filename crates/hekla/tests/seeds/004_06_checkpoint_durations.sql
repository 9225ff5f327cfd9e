-- Seed 004: checkpoint durations from the log through fn_dblog.
-- refused: 10794 fn_dblog (reading the log as rows) is not supported; checkpoints are visible in sys.dm_db_xtp_checkpoint_files
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
