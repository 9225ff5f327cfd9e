-- Seed 003: memory consumers of the in-memory table, exactly as printed: the
-- `;` after the first FROM ends the statement, so SQL Server rejects the
-- batch with Msg 156 at INNER, and so does hekla. The same query without the
-- stray `;` follows (not in the article) to show the figures it meant.
-- error: 156 the article's stray semicolon before INNER JOIN
-- mask: Table heap

-- Allocated_bytes:
-- 8388608 bucktes x 8 bytes : 64MB
-- Hash index : 67108864 : 64MB  
-- Table heap : 400687104 : 382.125MB 
-- row-store : 250MB | in-memory : 446MB
SELECT
	obj.name AS object_name
  , ind.index_id
  , ind.type_desc
  , mec.memory_consumer_desc
  , mec.allocated_bytes
  , mec.used_bytes
  , mec.allocation_count
FROM
	sys.dm_db_xtp_memory_consumers AS mec;
INNER JOIN
	sys.objects AS obj
ON
	mec.object_id = obj.object_id
LEFT JOIN
	sys.indexes AS ind
ON
	mec.index_id = ind.index_id
	AND ind.object_id = mec.object_id
WHERE
	obj.object_id = OBJECT_ID('Sales.SalesOrderDetailMedium', 'U');
GO
SELECT
	obj.name AS object_name
  , ind.index_id
  , ind.type_desc
  , mec.memory_consumer_desc
  , mec.allocated_bytes
  , mec.used_bytes
  , mec.allocation_count
FROM
	sys.dm_db_xtp_memory_consumers AS mec
INNER JOIN
	sys.objects AS obj
ON
	mec.object_id = obj.object_id
LEFT JOIN
	sys.indexes AS ind
ON
	mec.index_id = ind.index_id
	AND ind.object_id = mec.object_id
WHERE
	obj.object_id = OBJECT_ID('Sales.SalesOrderDetailMedium', 'U')
ORDER BY mec.memory_consumer_desc;
GO
