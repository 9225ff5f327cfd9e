-- OUTPUT clauses: inserted and deleted rows returned to the client or
-- inserted INTO a table variable or table, with column lists, IDENTITY
-- and DEFAULT values as written; the DONE count is still the rows changed.
CREATE TABLE dbo.tickets (
    id int IDENTITY(1, 1) NOT NULL PRIMARY KEY NONCLUSTERED,
    title varchar(20) NOT NULL,
    status varchar(10) NOT NULL DEFAULT 'open',
    points int NULL
) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.audit (ticket int NOT NULL, old_status varchar(10) NULL, new_status varchar(10) NULL, note varchar(30) NULL)
GO
INSERT INTO dbo.tickets (title, points) OUTPUT inserted.id, inserted.title, inserted.status VALUES ('crash', 5), ('typo', 1)
GO
INSERT INTO dbo.tickets (title) OUTPUT inserted.* SELECT 'slow'
GO
UPDATE dbo.tickets SET status = 'closed', points = points * 2
OUTPUT deleted.id, deleted.status AS was, inserted.status AS now, inserted.points
WHERE points IS NOT NULL
GO
DELETE FROM dbo.tickets OUTPUT deleted.* WHERE title = 'typo'
GO
-- OUTPUT INTO a table variable, then both forms at once.
DECLARE @changed TABLE (id int NOT NULL, title varchar(20) NULL)
UPDATE dbo.tickets SET title = UPPER(title) OUTPUT inserted.id, deleted.title INTO @changed
SELECT * FROM @changed ORDER BY id
INSERT INTO dbo.tickets (title) OUTPUT inserted.id INTO @changed (id) OUTPUT inserted.id, 'new' AS kind VALUES ('again')
SELECT * FROM @changed ORDER BY id
GO
-- OUTPUT INTO a table, with expressions and a column list.
UPDATE dbo.tickets SET status = 'done'
OUTPUT inserted.id, deleted.status, inserted.status, 'by ' + 'job' INTO dbo.audit (ticket, old_status, new_status, note)
WHERE id = 1
GO
DELETE dbo.tickets OUTPUT deleted.id, deleted.status, NULL, 'deleted' INTO dbo.audit WHERE id = 3
SELECT * FROM dbo.audit ORDER BY ticket
GO
SELECT id, title, status FROM dbo.tickets ORDER BY id
GO
-- With FROM: the other tables' columns; the target only as inserted
-- and deleted.
DECLARE @owners TABLE (ticket int NOT NULL, owner varchar(10) NOT NULL)
INSERT INTO @owners VALUES (1, 'ada'), (2, 'bob')
UPDATE t SET points = 3 OUTPUT inserted.id, o.owner, deleted.points AS was, inserted.points AS now
FROM dbo.tickets AS t JOIN @owners AS o ON o.ticket = t.id
UPDATE t SET points = 4 OUTPUT t.points FROM dbo.tickets AS t
GO
-- Errors: deleted in an INSERT, inserted in a DELETE, a wrong column
-- count, a target with a CHECK constraint, an unknown table variable.
INSERT INTO dbo.tickets (title) OUTPUT deleted.id VALUES ('x')
GO
DELETE FROM dbo.tickets OUTPUT inserted.id WHERE id = 1
GO
DECLARE @one TABLE (id int)
DELETE FROM dbo.tickets OUTPUT deleted.id, deleted.title INTO @one WHERE id = 1
GO
CREATE TABLE dbo.checked (id int CONSTRAINT ck_positive CHECK (id > 0))
GO
DELETE FROM dbo.tickets OUTPUT deleted.id INTO dbo.checked WHERE id = 1
GO
DELETE FROM dbo.tickets OUTPUT deleted.id INTO @nowhere WHERE id = 1
GO
-- A failing statement has returned the rows before the failure; nothing
-- it did stays.
INSERT INTO dbo.tickets (title) OUTPUT inserted.id, inserted.title VALUES ('fine'), (NULL)
GO
SELECT COUNT(*) AS tickets FROM dbo.tickets
GO
