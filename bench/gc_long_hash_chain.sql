-- The collector and a long hash chain: 100,000 rows share one value of a
-- hash-indexed column, then are deleted. Time it with
--   /usr/bin/time hekla sql --data-dir D -i bench/gc_long_hash_chain.sql
-- (docs/benchmarks.md, "Garbage collection of a long hash chain").
SET NOCOUNT ON
CREATE TABLE dbo.dup (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 131072), g int NOT NULL INDEX ix_g HASH WITH (BUCKET_COUNT = 1024)) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
GO
DECLARE @i int = 0
WHILE @i < 100
BEGIN
  INSERT INTO dbo.dup (id, g) SELECT @i * 1000 + number, -1 FROM master.dbo.spt_values WHERE type = 'P' AND number < 1000
  SET @i += 1
END
GO
DELETE FROM dbo.dup
GO
SELECT COUNT(*) FROM dbo.dup
GO
