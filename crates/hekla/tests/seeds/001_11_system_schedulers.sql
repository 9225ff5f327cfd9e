-- Seed 001, "The NESTING_TRANSACTION_FULL Latch": schedulers of system processes.
-- mask: result rows
SELECT scheduler_id, command
FROM sys.dm_exec_requests r
INNER JOIN sys.dm_exec_sessions s
	ON r.session_id = s.session_id
WHERE s.is_user_process = 0
AND scheduler_id IS NOT NULL
ORDER BY scheduler_id;
