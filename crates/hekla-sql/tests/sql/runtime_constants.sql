-- RAND() and the clock functions are runtime constants, as in SQL
-- Server: each reference is evaluated once per statement execution, not
-- once per row, so an index seek and the predicate it re-tests see one
-- value. NEWID() and RAND(seed) are evaluated per row.
SELECT COUNT(DISTINCT RAND()) AS rand, COUNT(DISTINCT SYSDATETIME()) AS sysdatetime,
       COUNT(DISTINCT GETDATE()) AS getdate, COUNT(DISTINCT CURRENT_TIMESTAMP) AS current_timestamp_,
       COUNT(DISTINCT GETUTCDATE()) AS getutcdate, COUNT(DISTINCT SYSUTCDATETIME()) AS sysutcdatetime,
       COUNT(DISTINCT SYSDATETIMEOFFSET()) AS sysdatetimeoffset
FROM master..spt_values
GO
-- Per row: NEWID(), and RAND(seed) with a seed that changes per row.
SELECT COUNT(*) AS rows_, COUNT(DISTINCT NEWID()) AS newid, COUNT(DISTINCT RAND(number)) AS rand_seeded
FROM master..spt_values
GO
-- Two references are two runtime constants.
SELECT CASE WHEN RAND() = RAND() THEN 'same' ELSE 'different' END AS two_rands
GO
-- RAND(seed) reseeds the session's sequence: RAND() then continues it.
DECLARE @first float, @second float
SELECT RAND(42)
SELECT @first = RAND()
SELECT RAND(42)
SELECT @second = RAND()
SELECT CASE WHEN @first = @second THEN 'repeats' ELSE 'differs' END AS after_seed
GO
-- A statement run again gets a new value: a loop draws afresh each pass.
SET NOCOUNT ON
DECLARE @i int = 0
DECLARE @draws TABLE (r float)
WHILE @i < 20
BEGIN
    INSERT @draws SELECT RAND()
    SET @i += 1
END
SELECT COUNT(DISTINCT r) AS distinct_draws FROM @draws
SET NOCOUNT OFF
GO
-- A DEFAULT of a clock function: one value for every row of the INSERT.
CREATE TABLE #stamped (n int, at datetime2 DEFAULT SYSDATETIME())
INSERT #stamped (n) SELECT number FROM master..spt_values
SELECT COUNT(*) AS rows_, COUNT(DISTINCT at) AS stamps FROM #stamped
DROP TABLE #stamped
GO
-- The sales-order workload picks a random order's lines: through a hash
-- index seek and through a scan, every pass gets one whole order.
CREATE TABLE dbo.order_lines (
    OrderID int NOT NULL,
    line int NOT NULL,
    CONSTRAINT pk_order_lines PRIMARY KEY NONCLUSTERED (OrderID, line),
    INDEX ix_order HASH (OrderID) WITH (BUCKET_COUNT = 128)
) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.order_lines_heap (OrderID int NOT NULL, line int NOT NULL)
GO
SET NOCOUNT ON
DECLARE @o int = 1
WHILE @o <= 106
BEGIN
    INSERT dbo.order_lines VALUES (@o, 1), (@o, 2), (@o, 3)
    SET @o += 1
END
INSERT dbo.order_lines_heap SELECT OrderID, line FROM dbo.order_lines
SET NOCOUNT OFF
GO
SET SHOWPLAN_TEXT ON
GO
SELECT OrderID, line FROM dbo.order_lines WHERE OrderID = CAST((RAND()*106)+1 AS INT)
SELECT OrderID, line FROM dbo.order_lines_heap WHERE OrderID = CAST((RAND()*106)+1 AS INT)
GO
SET SHOWPLAN_TEXT OFF
GO
SET NOCOUNT ON
DECLARE @i int = 0
DECLARE @picked TABLE (pass int, source char(4), OrderID int, line int)
WHILE @i < 50
BEGIN
    INSERT @picked SELECT @i, 'seek', OrderID, line FROM dbo.order_lines WHERE OrderID = CAST((RAND()*106)+1 AS INT)
    INSERT @picked SELECT @i, 'scan', OrderID, line FROM dbo.order_lines_heap WHERE OrderID = CAST((RAND()*106)+1 AS INT)
    SET @i += 1
END
SET NOCOUNT OFF
SELECT source, COUNT(DISTINCT pass) AS passes, MIN(lines) AS min_lines, MAX(lines) AS max_lines, MAX(orders) AS max_orders
FROM (SELECT pass, source, COUNT(*) AS lines, COUNT(DISTINCT OrderID) AS orders FROM @picked GROUP BY pass, source) AS per_pass
GROUP BY source
ORDER BY source
GO
