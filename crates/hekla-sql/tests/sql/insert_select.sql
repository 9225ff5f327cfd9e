-- INSERT ... VALUES and single-table SELECT with WHERE, TOP, *, aliases
-- and expressions over columns; the errors SQL Server gives for bad rows.
CREATE TABLE dbo.t (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024),
    name varchar(10) NULL,
    code char(3) NULL,
    price decimal(10, 2) NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
INSERT INTO dbo.t VALUES (1, 'one', 'a', 1.5), (2, 'two', 'bb', 20)
INSERT dbo.t (name, id) VALUES ('three', 3)
INSERT INTO t (id, name, code, price) VALUES (4, DEFAULT, 'xyz', '7.25')
GO
SELECT * FROM dbo.t WHERE id BETWEEN 2 AND 3
GO
SELECT id, name + '!' AS shout, price * 2 AS twice, '[' + code + ']' AS padded FROM t AS x WHERE x.price IS NOT NULL AND x.id IN (1, 4)
GO
SELECT TOP (0) * FROM dbo.t
GO
SELECT t.id FROM dbo.t WHERE name = 'TWO'
GO
-- Statement atomicity: the second row fails, so the first is not kept.
INSERT INTO dbo.t VALUES (10, 'ten', NULL, NULL), (1, 'dup', NULL, NULL)
GO
SELECT id FROM dbo.t WHERE id = 10
GO
INSERT INTO dbo.t VALUES (5, 'much too long', NULL, NULL)
GO
INSERT INTO dbo.t VALUES (NULL, 'x', NULL, NULL)
GO
INSERT INTO dbo.t VALUES (5, 'x')
GO
INSERT INTO dbo.t (id, id) VALUES (5, 5)
GO
INSERT INTO dbo.t VALUES (5, 'x', 'y', 'not a number')
GO
SELECT nope FROM dbo.t
GO
SELECT x.id FROM dbo.t AS y
GO
SELECT * FROM dbo.missing
GO
