-- ORDER BY: expressions, select-list aliases and positions, DESC, several
-- keys, NULLs first, collation order, with TOP (top-N) and GROUP BY.
CREATE TABLE dbo.people (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(10) NOT NULL, age int NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.people VALUES (1, 'carol', 41), (2, 'Bob', NULL), (3, 'alice', 29), (4, 'dave', 29), (5, 'Eve', 35)
GO
SELECT name, age FROM dbo.people ORDER BY age DESC, name
GO
SELECT name AS who FROM dbo.people ORDER BY who
GO
SELECT TOP (2) id, name FROM dbo.people ORDER BY 2 DESC
GO
SELECT age, COUNT(*) AS n FROM dbo.people GROUP BY age ORDER BY n DESC, age
GO
SELECT id FROM dbo.people ORDER BY id % 2, id DESC
GO
SELECT id FROM dbo.people ORDER BY 3
GO
SELECT DISTINCT age FROM dbo.people ORDER BY age
GO
SELECT DISTINCT UPPER_name = name FROM dbo.people WHERE name IN ('Bob', 'BOB', 'bob')
GO
SELECT id FROM dbo.people ORDER BY id OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY
GO
SELECT id FROM dbo.people ORDER BY id DESC OFFSET 4 ROWS
GO
SELECT TOP (1) id FROM dbo.people ORDER BY id OFFSET 1 ROWS
GO
SELECT id FROM dbo.people ORDER BY id OFFSET -1 ROWS
GO
