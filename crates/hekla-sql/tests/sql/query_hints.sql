-- Query hints (OPTION) and join hints: honoured where hekla has the
-- operator, accepted without effect where it has nothing they change,
-- Msg 8622 where they leave a join no method (hekla has no merge join).
CREATE TABLE dbo.a (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64), v int NULL) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.b (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64), a_id int NULL, w int NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.a VALUES (1, 10), (2, 20), (3, 30)
INSERT INTO dbo.b VALUES (1, 1, 100), (2, 1, 200), (3, 3, 300), (4, NULL, 400)
GO
SET SHOWPLAN_TEXT ON
GO
-- Without hints: an index seek per row of b (index nested loops).
SELECT b.id, a.v FROM dbo.b JOIN dbo.a ON a.id = b.a_id
GO
SELECT b.id, a.v FROM dbo.b INNER HASH JOIN dbo.a ON a.id = b.a_id
GO
SELECT b.id, a.v FROM dbo.b JOIN dbo.a ON a.id = b.a_id OPTION (HASH JOIN)
GO
-- Without an index to seek: hash by default, nested loops when told.
SELECT a.id, b.id FROM dbo.a JOIN dbo.b ON b.a_id = a.id
GO
SELECT a.id, b.id FROM dbo.a INNER LOOP JOIN dbo.b ON b.a_id = a.id
GO
SELECT a.id, b.id FROM dbo.a LEFT LOOP JOIN dbo.b ON b.a_id = a.id OPTION (NO_PERFORMANCE_SPOOL)
GO
SELECT a.id, b.id FROM dbo.a LEFT HASH JOIN dbo.b ON b.a_id = a.id
GO
SELECT a.id, b.id FROM dbo.a JOIN dbo.b ON b.a_id = a.id OPTION (LOOP JOIN, FORCE ORDER, MAXDOP 1)
GO
-- Both allowed: the planner picks.
SELECT a.id, b.id FROM dbo.a JOIN dbo.b ON b.a_id = a.id OPTION (MERGE JOIN, HASH JOIN)
GO
INSERT INTO dbo.b (id, a_id) SELECT a.id + 10, b.id FROM dbo.a INNER LOOP JOIN dbo.b ON b.a_id = a.id OPTION (NO_PERFORMANCE_SPOOL)
GO
SET SHOWPLAN_TEXT OFF
GO
-- The hinted joins return what the unhinted ones return.
SELECT a.id, b.id AS b_id FROM dbo.a INNER LOOP JOIN dbo.b ON b.a_id = a.id ORDER BY a.id, b.id
SELECT a.id, b.id AS b_id FROM dbo.a LEFT HASH JOIN dbo.b ON b.a_id = a.id ORDER BY a.id, b.id
SELECT a.id, b.id AS b_id FROM dbo.a LEFT LOOP JOIN dbo.b ON b.a_id = a.id ORDER BY a.id, b.id OPTION (NO_PERFORMANCE_SPOOL)
GO
-- Accepted without effect: no plan cache, memory grants, parameter
-- sniffing, trace flags or threads to change.
DECLARE @v int = 20
SELECT id FROM dbo.a WHERE v = @v
OPTION (RECOMPILE, MAXDOP 4, OPTIMIZE FOR (@v = 10), MIN_GRANT_PERCENT = 2.5, MAX_GRANT_PERCENT = 50,
        QUERYTRACEON 9481, USE HINT ('DISABLE_OPTIMIZER_ROWGOAL'), KEEPFIXED PLAN)
SELECT id FROM dbo.a WHERE v = @v OPTION (OPTIMIZE FOR UNKNOWN)
GO
-- No merge join in hekla; a hash join needs an equality; the join's own
-- hint must be one OPTION allows.
SELECT a.id FROM dbo.a INNER MERGE JOIN dbo.b ON b.a_id = a.id
GO
SELECT a.id FROM dbo.a JOIN dbo.b ON b.a_id = a.id OPTION (MERGE JOIN)
GO
SELECT a.id FROM dbo.a INNER HASH JOIN dbo.b ON b.a_id > a.id
GO
SELECT a.id FROM dbo.a INNER LOOP JOIN dbo.b ON b.a_id = a.id OPTION (HASH JOIN)
GO
SELECT a.id FROM dbo.a FULL OUTER JOIN dbo.b ON b.a_id = a.id OPTION (LOOP JOIN, NO_PERFORMANCE_SPOOL)
GO
SELECT a.id FROM dbo.a OPTION (FAST 10)
GO
INSERT INTO dbo.b (id) SELECT a.id + 20 FROM dbo.a INNER HASH JOIN dbo.b ON b.a_id > a.id
GO
INSERT INTO dbo.b (id) SELECT id + 30 FROM dbo.a OPTION (MAXDOP 1)
GO
-- UPDATE and DELETE take the same hints.
UPDATE dbo.b SET w = w + 1 FROM dbo.b INNER HASH JOIN dbo.a ON a.id = b.a_id OPTION (MAXDOP 1, RECOMPILE)
SELECT id, w FROM dbo.b WHERE w IS NOT NULL ORDER BY id
DELETE dbo.b FROM dbo.b INNER LOOP JOIN dbo.a ON a.id = b.a_id WHERE a.id = 3 OPTION (NO_PERFORMANCE_SPOOL)
SELECT COUNT(*) AS left_over FROM dbo.b WHERE a_id = 3
GO
SET SHOWPLAN_TEXT ON
GO
DELETE dbo.b FROM dbo.b INNER LOOP JOIN dbo.a ON a.id = b.a_id OPTION (NO_PERFORMANCE_SPOOL)
GO
SET SHOWPLAN_TEXT OFF
GO
UPDATE dbo.b SET w = 0 OPTION (MERGE JOIN)
GO
UPDATE dbo.b SET w = 0 FROM dbo.b JOIN dbo.a ON a.id = b.a_id OPTION (MERGE JOIN)
GO
