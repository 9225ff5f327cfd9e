-- Seed 001, "Row Compression and Non-string Data": the row compressed table,
-- loaded through a join with an empty columnstore table (the article's trick
-- to get batch mode). Scaled: 1,024 rows.
-- refused: 10794 clustered columnstore indexes are out of scope (docs/sql.md)
-- error: 208 #BATCH_MODE was not created, because of the refusal above
DROP TABLE IF EXISTS #BATCH_MODE;
CREATE TABLE #BATCH_MODE (
	ID INT,
	INDEX C CLUSTERED COLUMNSTORE
);
GO
DROP TABLE IF EXISTS dbo.RS_2_COLUMN_ROW_COMPRESSED;
GO
CREATE TABLE dbo.RS_2_COLUMN_ROW_COMPRESSED (
	ID1 BIGINT,
	ID2 BIGINT
) WITH (DATA_COMPRESSION = ROW);

INSERT INTO dbo.RS_2_COLUMN_ROW_COMPRESSED WITH (TABLOCK)
SELECT
  SUM(q.ID) OVER (ORDER BY q.ID)
, SUM(q.ID) OVER (ORDER BY q.ID)
FROM
(
	SELECT TOP (1024) ROW_NUMBER()
		OVER (ORDER BY (SELECT NULL)) ID
	FROM master..spt_values t1
	CROSS JOIN master..spt_values t2
) q
LEFT OUTER JOIN #BATCH_MODE ON 1 = 0
OPTION (MAXDOP 1);
GO
EXEC sp_spaceused 'RS_2_COLUMN_ROW_COMPRESSED';
