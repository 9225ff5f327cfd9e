-- SET SHOWPLAN_TEXT ON shows the access path each query would take: a
-- hash or range index seek when the WHERE clause fixes the whole key, a
-- scan otherwise.
CREATE TABLE dbo.t (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    region int NOT NULL,
    v int NULL,
    INDEX ix_region NONCLUSTERED (region)
) WITH (MEMORY_OPTIMIZED = ON)
GO
SET SHOWPLAN_TEXT ON
GO
SELECT * FROM dbo.t WHERE id = 3
SELECT TOP (5) v FROM dbo.t WHERE region = 2 AND v > 1
SELECT v FROM dbo.t WHERE id = 3 OR region = 2
SELECT 1 + 1
GO
SET SHOWPLAN_TEXT OFF
GO
SELECT * FROM dbo.t WHERE id = 3
GO
