-- Seed 001, "Can Rowstore Compression Beat Columnstore Compression?": a page
-- compressed table of strings. Scaled: 1,024 rows instead of 1,048,576.
DROP TABLE IF EXISTS dbo.RS_VARCHAR33;
GO
CREATE TABLE dbo.RS_VARCHAR33 (
	ID1 VARCHAR(33)
) WITH (DATA_COMPRESSION = PAGE);

INSERT INTO dbo.RS_VARCHAR33 WITH (TABLOCK)
SELECT TOP (1024) ROW_NUMBER()
	OVER (ORDER BY (SELECT NULL)) ID
FROM master..spt_values t1
CROSS JOIN master..spt_values t2
OPTION (MAXDOP 1);
GO
SELECT COUNT(*) AS [rows], MIN(ID1) AS first_id, MAX(ID1) AS last_id FROM dbo.RS_VARCHAR33
