-- Seed 000, disk utilization: on-disk size of the checkpoint files, initial state.
-- mask: result rows
-- hekla: a pause for the background checkpoint worker's first steps (it
-- precreates a file pair within 20 ms), which the article's server had long
-- taken; without it, what the query sees depends on the machine's speed.
WAITFOR DELAY '00:00:00.300';
SELECT SUM(df.size) * 8 / 1024 AS [On-disk size in MB]
FROM sys.filegroups AS f
     INNER JOIN sys.database_files AS df
         ON f.data_space_id = df.data_space_id
WHERE f.type = N'FX';
