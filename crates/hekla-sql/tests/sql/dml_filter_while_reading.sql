-- UPDATE and DELETE test a WHERE clause without subqueries as they read
-- the table (only the rows it accepts are kept); one with a subquery is
-- tested after the read. Either way the result is the same, and an error
-- in the WHERE clause fails the statement without changing a row.
CREATE TABLE dbo.f (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    v int NOT NULL,
    note varchar(20) NULL
) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.f VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, NULL), (4, 40, 'd'), (5, 0, 'e')
GO
DELETE FROM dbo.f OUTPUT deleted.id, deleted.note WHERE v BETWEEN 15 AND 35
SELECT id, v, note FROM dbo.f ORDER BY id
GO
UPDATE dbo.f SET note = 'ten' WHERE v = 10 AND note IS NOT NULL
SELECT id, v, note FROM dbo.f ORDER BY id
GO
-- 100 / v fails on the row where v = 0: nothing is deleted.
DELETE FROM dbo.f WHERE 100 / v > 1
SELECT COUNT(*) AS still_there FROM dbo.f
GO
-- A subquery in the WHERE clause: tested after the read.
DELETE FROM dbo.f WHERE v = (SELECT MAX(v) FROM dbo.f)
SELECT id, v, note FROM dbo.f ORDER BY id
GO
UPDATE dbo.f SET v = v + 1 WHERE id IN (SELECT id FROM dbo.f WHERE note = 'e')
SELECT id, v, note FROM dbo.f ORDER BY id
GO
