-- Seed 000, memory utilization: the memory clerks just after the sample is created.
-- mask: MEMORYCLERK_XTP
SELECT type,
       name,
       pages_kb / 1024 AS pages_MB
FROM sys.dm_os_memory_clerks
WHERE type LIKE '%xtp%';
