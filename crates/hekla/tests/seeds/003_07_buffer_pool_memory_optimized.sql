-- Seed 003: no pages of the in-memory table are in the buffer pool.

-- No pages are saved in buffer pool 
SELECT
	bd.is_modified
  , DB_NAME(DB_ID()) AS db_name
  , OBJECT_SCHEMA_NAME(object_id, DB_ID()) AS schema_name
  , OBJECT_NAME(object_id) AS object_name
  , file_id
  , page_id
  , page_level
  , page_type
  , row_count
  , (free_space_in_bytes)
  , (read_microsec) AS read_microsec
FROM
	sys.dm_os_buffer_descriptors AS bd
INNER JOIN
	(
		SELECT
			object_id, index_id, allocation_unit_id
		FROM
			sys.allocation_units AS au
		INNER JOIN
			sys.partitions AS p
		ON
			au.container_id = p.hobt_id
			AND
				(
					au.type = 1
					OR au.type = 3
				)
		UNION ALL
		SELECT
			object_id, index_id, allocation_unit_id
		FROM
			sys.allocation_units AS au
		INNER JOIN
			sys.partitions AS p
		ON
			au.container_id = p.partition_id
			AND au.type = 2
	) AS obj
ON
	bd.allocation_unit_id = obj.allocation_unit_id
WHERE
	database_id = DB_ID()
	AND obj.object_id = OBJECT_ID('Sales.SalesOrderDetailMedium', 'U');
GO
