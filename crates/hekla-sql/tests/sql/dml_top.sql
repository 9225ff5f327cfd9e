-- UPDATE and DELETE with TOP (n) change any n of the rows that qualify
-- (in no order, as in SQL Server); TOP (p) PERCENT changes p% of them,
-- rounded up. The count may be a variable, read when the statement runs.
CREATE TABLE dbo.q (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    v int NOT NULL,
    done bit NOT NULL DEFAULT 0
) WITH (MEMORY_OPTIMIZED = ON)
INSERT dbo.q (id, v) VALUES (1, 10), (2, 10), (3, 10), (4, 20), (5, 20), (6, 20)
GO
UPDATE TOP (2) dbo.q SET done = 1 WHERE v = 10
SELECT @@ROWCOUNT AS updated
SELECT COUNT(*) AS done_of_10 FROM dbo.q WHERE done = 1 AND v = 10
SELECT COUNT(*) AS done_elsewhere FROM dbo.q WHERE done = 1 AND v <> 10
GO
DECLARE @n int = 1
DELETE TOP (@n) FROM dbo.q WHERE v = 20
SELECT COUNT(*) AS left_of_20 FROM dbo.q WHERE v = 20
SET @n = 0
DELETE TOP (@n) dbo.q
SELECT @@ROWCOUNT AS deleted_by_top_0
GO
-- With a FROM clause, TOP counts the target's rows.
UPDATE TOP (1) q SET v = o.v + 1 FROM dbo.q AS q JOIN dbo.q AS o ON o.id = q.id WHERE q.v = 20
SELECT COUNT(*) AS now_21 FROM dbo.q WHERE v = 21
GO
-- 5 rows: 50 percent is 2.5, rounded up to 3.
DELETE TOP (50) PERCENT FROM dbo.q
SELECT COUNT(*) AS left_after_percent FROM dbo.q
GO
-- SET ROWCOUNT and TOP: the smaller wins.
SET ROWCOUNT 1
UPDATE TOP (2) dbo.q SET v = 30
SET ROWCOUNT 0
SELECT COUNT(*) AS now_30 FROM dbo.q WHERE v = 30
GO
UPDATE TOP (1) WITH TIES dbo.q SET v = 0
GO
SET SHOWPLAN_TEXT ON
GO
DELETE TOP (3) FROM dbo.q WHERE id = 2
UPDATE TOP (10) PERCENT dbo.q SET v = v + 1
GO
SET SHOWPLAN_TEXT OFF
GO
