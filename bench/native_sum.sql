-- Issue 19's interpreted baseline, small: SUM(UnitPrice), a filtered SUM and
-- COUNT(*) over 4,194,304 rows of a SCHEMA_ONLY table, the first two in
-- natively compiled procedures, each timed with SYSDATETIME().
-- Run: hekla sql --data-dir $(mktemp -d) -i bench/native_sum.sql
CREATE TABLE dbo.sod (id int IDENTITY(1,1) NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 8388608), ProductID int NOT NULL, OrderQty smallint NOT NULL, UnitPrice money NOT NULL, Note varchar(20) NULL) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
GO
INSERT INTO dbo.sod (ProductID, OrderQty, UnitPrice) VALUES (707, 1, 34.99), (708, 2, 20.10), (709, 3, 5.70), (710, 1, 8.99)
GO
INSERT INTO dbo.sod (ProductID, OrderQty, UnitPrice) SELECT ProductID + 1, OrderQty, UnitPrice FROM dbo.sod
GO 20
CREATE PROCEDURE dbo.s WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  SELECT SUM(UnitPrice) FROM dbo.sod
END
GO
CREATE PROCEDURE dbo.f @p int WITH NATIVE_COMPILATION, SCHEMABINDING AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  SELECT SUM(OrderQty) FROM dbo.sod WHERE ProductID = @p
END
GO
DECLARE @t datetime2 = SYSDATETIME()
EXEC dbo.s
SELECT DATEDIFF(ms, @t, SYSDATETIME()) AS sum_ms
SET @t = SYSDATETIME()
EXEC dbo.f 720
SELECT DATEDIFF(ms, @t, SYSDATETIME()) AS filtered_ms
SET @t = SYSDATETIME()
SELECT COUNT(*) FROM dbo.sod
SELECT DATEDIFF(ms, @t, SYSDATETIME()) AS count_ms
GO
