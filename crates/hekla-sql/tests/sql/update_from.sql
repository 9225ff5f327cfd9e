-- UPDATE and DELETE with FROM and joins: the target is the FROM item its
-- name or alias names (or, when none does, one more table joined in);
-- each target row changes once; rows are found first, then changed.
CREATE TABLE dbo.stock (item int NOT NULL PRIMARY KEY NONCLUSTERED, qty int NOT NULL, price money NOT NULL)
    WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.deliveries (item int NOT NULL, qty int NOT NULL)
CREATE TABLE dbo.prices (item int NOT NULL PRIMARY KEY NONCLUSTERED, price money NOT NULL)
INSERT INTO dbo.stock VALUES (1, 10, 1.00), (2, 0, 2.00), (3, 5, 3.00), (4, 7, 4.00)
INSERT INTO dbo.deliveries VALUES (1, 5), (2, 3), (9, 1)
INSERT INTO dbo.prices VALUES (1, 1.10), (3, 2.90)
GO
UPDATE s SET s.qty = s.qty + d.qty FROM dbo.stock AS s JOIN dbo.deliveries AS d ON d.item = s.item
GO
SELECT * FROM dbo.stock ORDER BY item
GO
-- The target by name; the other table in the FROM clause only.
UPDATE dbo.stock SET price = p.price FROM dbo.prices AS p WHERE p.item = stock.item
GO
UPDATE stock SET price = p.price * 2 FROM dbo.stock JOIN dbo.prices AS p ON p.item = stock.item WHERE p.price > 2
GO
SELECT * FROM dbo.stock ORDER BY item
GO
-- A row matching several: changed once (with one of the matches).
INSERT INTO dbo.deliveries VALUES (1, 100)
GO
UPDATE s SET qty = 0 FROM dbo.stock AS s JOIN dbo.deliveries AS d ON d.item = s.item WHERE s.item = 1
GO
-- Unqualified SET columns are the target's, even when another table
-- has one of that name; the value may read any table.
UPDATE s SET qty = d.qty FROM dbo.stock AS s JOIN dbo.deliveries AS d ON d.item = s.item WHERE s.item = 2
SELECT item, qty FROM dbo.stock WHERE item = 2
GO
-- DELETE with FROM, EXISTS, a subquery, LEFT JOIN.
DELETE s FROM dbo.stock AS s WHERE NOT EXISTS (SELECT 1 FROM dbo.deliveries AS d WHERE d.item = s.item)
GO
SELECT item FROM dbo.stock ORDER BY item
GO
INSERT INTO dbo.stock VALUES (5, 1, 1.00), (6, 2, 1.00)
DELETE FROM s FROM dbo.stock AS s LEFT JOIN dbo.prices AS p ON p.item = s.item WHERE p.item IS NULL AND s.item > 4
SELECT item FROM dbo.stock ORDER BY item
GO
-- With a CTE and OUTPUT; subqueries in SET.
WITH big AS (SELECT item FROM dbo.deliveries WHERE qty > 4)
UPDATE s SET qty = qty + 1 OUTPUT inserted.item, deleted.qty AS was, inserted.qty AS now
FROM dbo.stock AS s JOIN big ON big.item = s.item
GO
UPDATE dbo.stock SET qty = (SELECT SUM(qty) FROM dbo.deliveries AS d WHERE d.item = stock.item) WHERE item = 1
SELECT item, qty FROM dbo.stock ORDER BY item
GO
-- Halloween protection: a key update meets each row once.
UPDATE dbo.stock SET item = item + 10
SELECT item FROM dbo.stock ORDER BY item
GO
-- Table variables and temp tables as targets and sources.
DECLARE @plan TABLE (item int NOT NULL, qty int NOT NULL)
INSERT INTO @plan VALUES (11, 0), (12, 0)
UPDATE p SET qty = s.qty FROM @plan AS p JOIN dbo.stock AS s ON s.item = p.item
UPDATE @plan SET qty = qty * 10 WHERE item = 12
DELETE p FROM @plan AS p WHERE p.qty = 0
SELECT * FROM @plan
GO
CREATE TABLE #t (item int NOT NULL, note varchar(10) NULL)
INSERT INTO #t VALUES (11, NULL), (12, NULL)
UPDATE t SET note = 'has ' + CAST(s.qty AS varchar(5)) FROM #t AS t JOIN dbo.stock AS s ON s.item = t.item
SELECT * FROM #t ORDER BY item
GO
-- The target is the one unaliased reference; aliased ones are other
-- instances of the table.
UPDATE dbo.stock SET qty = other.qty + 1 FROM dbo.stock, dbo.stock AS other WHERE other.item = 11
SELECT item, qty FROM dbo.stock ORDER BY item
GO
-- Errors: a SET column of another table, an ambiguous target, an
-- unknown alias, a derived table target, an unknown table.
UPDATE s SET d.qty = 1 FROM dbo.stock AS s JOIN dbo.deliveries AS d ON d.item = s.item
GO
CREATE SCHEMA other
GO
CREATE TABLE other.stock (item int NOT NULL)
GO
UPDATE stock SET qty = 1 FROM dbo.stock JOIN other.stock ON other.stock.item = dbo.stock.item
GO
UPDATE x SET qty = 1 FROM dbo.stock AS s WHERE x.item = 1
GO
UPDATE d SET qty = 1 FROM (SELECT * FROM dbo.stock) AS d
GO
DELETE FROM nothing FROM dbo.stock
GO
