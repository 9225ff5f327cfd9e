-- The DBCC commands that empty caches: FREEPROCCACHE and FREESYSTEMCACHE
-- ('ALL') empty the plan cache (see plan_cache.sql); hekla has no buffer
-- pool to drop. Each says it completed (Msg 2528) and the batch goes on.
DBCC DROPCLEANBUFFERS
DBCC FREEPROCCACHE
DBCC FREESYSTEMCACHE ('ALL')
DBCC FREESYSTEMCACHE ('ALL') WITH MARK_IN_USE_FOR_REMOVAL
dbcc freeproccache with no_infomsgs
DBCC FREESYSTEMCACHE (N'all') WITH MARK_IN_USE_FOR_REMOVAL, NO_INFOMSGS
PRINT 'the batch goes on'
GO
DBCC FREESYSTEMCACHE
PRINT 'after 2583'
GO
DBCC DROPCLEANBUFFERS WITH MARK_IN_USE_FOR_REMOVAL
GO
-- One plan, or one cache by name: not supported.
DBCC FREEPROCCACHE (0x06000700CA920912307B86)
GO
DBCC FREESYSTEMCACHE ('SQL Plans')
GO
-- Any other DBCC command is refused when the batch is parsed.
DBCC CHECKDB
PRINT 'not reached'
GO
