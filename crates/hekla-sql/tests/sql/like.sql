-- LIKE: % and _ wildcards, [sets], [^sets], ESCAPE, NOT LIKE, NULLs,
-- case-insensitive under the default collation, numbers converted.
CREATE TABLE dbo.words (id int NOT NULL PRIMARY KEY NONCLUSTERED, w varchar(20) NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.words VALUES (1, 'apple'), (2, 'Apricot'), (3, 'banana'), (4, '50% off'), (5, 'a_b'), (6, NULL), (7, 'axb')
GO
SELECT id FROM dbo.words WHERE w LIKE 'ap%' ORDER BY id
GO
SELECT id FROM dbo.words WHERE w LIKE '_a%' ORDER BY id
GO
SELECT id FROM dbo.words WHERE w LIKE '[ab]%' ORDER BY id
GO
SELECT id FROM dbo.words WHERE w LIKE '[^ab]%' ORDER BY id
GO
SELECT id FROM dbo.words WHERE w LIKE '%!%%' ESCAPE '!' ORDER BY id
GO
SELECT id FROM dbo.words WHERE w LIKE 'a\_b' ESCAPE '\' ORDER BY id
GO
SELECT id FROM dbo.words WHERE w LIKE 'a_b' ORDER BY id
GO
SELECT id FROM dbo.words WHERE w NOT LIKE '%a%' ORDER BY id
GO
SELECT COUNT(*) AS n FROM dbo.words WHERE id LIKE '1%'
GO
SELECT id FROM dbo.words WHERE w LIKE 'a%' ESCAPE 'xy'
GO
