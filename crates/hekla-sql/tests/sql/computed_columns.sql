-- Computed columns: typed by their expression, computed from the row's
-- other columns on INSERT and kept current on UPDATE, indexable, never
-- written directly (271), not built on each other (1759).
CREATE TABLE dbo.lines (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    qty int NOT NULL,
    price decimal(9, 2) NOT NULL,
    total AS (qty * price),
    label AS (UPPER(LEFT(note, 3))) PERSISTED,
    note varchar(20) NULL,
    INDEX ix_total NONCLUSTERED (total)
) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.lines (id, qty, price, note) VALUES (1, 2, 9.50, 'apple'), (2, 3, 1.25, NULL)
INSERT INTO dbo.lines VALUES (3, 1, 100.00, 'pear')
SELECT * FROM dbo.lines ORDER BY id
GO
UPDATE dbo.lines SET qty = qty * 10, note = 'plum' WHERE id = 2
SELECT id, total, label FROM dbo.lines WHERE total > 30 ORDER BY total
GO
SELECT c.name, t.name AS type_name FROM sys.columns AS c JOIN sys.types AS t ON t.user_type_id = c.user_type_id
WHERE c.object_id = OBJECT_ID('dbo.lines') ORDER BY c.column_id
GO
INSERT INTO dbo.lines (id, qty, price, total) VALUES (4, 1, 1, 1)
GO
UPDATE dbo.lines SET total = 0
GO
CREATE TABLE dbo.bad (a int NOT NULL PRIMARY KEY NONCLUSTERED, b AS (a + 1), c AS (b + 1)) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE dbo.bad (a int NOT NULL PRIMARY KEY NONCLUSTERED, b AS (nope + 1)) WITH (MEMORY_OPTIMIZED = ON)
GO
