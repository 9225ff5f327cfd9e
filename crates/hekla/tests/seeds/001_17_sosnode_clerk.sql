-- Seed 001: the MEMORYCLERK_SOSNODE memory clerk rows.
-- mask: result rows
SELECT *
FROM sys.dm_os_memory_clerks c
where c.type = 'MEMORYCLERK_SOSNODE';
