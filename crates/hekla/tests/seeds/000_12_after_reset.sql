-- Seed 000, after demo reset: memory clerks, on-disk size and checkpoint files.
-- new session
-- mask: MEMORYCLERK_XTP
-- mask: DATA
-- mask: DELTA
-- mask: result rows
-- hekla: a pause for the background checkpoint worker's first steps (it
-- precreates a file pair within 20 ms), which the article's server had long
-- taken; without it, what the query sees depends on the machine's speed.
WAITFOR DELAY '00:00:00.300';
SELECT type,
       name,
       pages_kb / 1024 AS pages_MB
FROM sys.dm_os_memory_clerks
WHERE type LIKE '%xtp%';

SELECT SUM(df.size) * 8 / 1024 AS [On-disk size in MB]
FROM sys.filegroups AS f
     INNER JOIN sys.database_files AS df
         ON f.data_space_id = df.data_space_id
WHERE f.type = N'FX';

SELECT state_desc,
       file_type_desc,
       COUNT(*) AS [count],
       SUM(CASE WHEN state = 5 AND file_type = 0 THEN 128 * 1024 * 1024
                WHEN state = 5 AND file_type = 1 THEN 8 * 1024 * 1024
                WHEN state IN (6, 7) THEN 68 * 1024 * 1024
           ELSE file_size_in_bytes END) / 1024 / 1024 AS [on-disk size MB]
FROM sys.dm_db_xtp_checkpoint_files
GROUP BY state, state_desc, file_type, file_type_desc
ORDER BY state, file_type;
