-- Table variables: DECLARE @t TABLE (...) makes a table for the batch,
-- with keys and indexes if declared; INSERT, SELECT (joins, aliases),
-- UPDATE and DELETE use it like a table; it is gone after the batch.
CREATE TABLE dbo.products (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(20) NOT NULL, price money NOT NULL)
    WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.products VALUES (1, 'bolt', 0.10), (2, 'nut', 0.05), (3, 'gear', 4.50)
GO
DECLARE @order TABLE (
    line int NOT NULL PRIMARY KEY,
    product int NOT NULL,
    qty int NOT NULL DEFAULT 1,
    note varchar(20) NULL,
    INDEX ix_product NONCLUSTERED (product)
)
INSERT INTO @order (line, product, qty) VALUES (1, 1, 100), (2, 3, 2)
INSERT @order (line, product) SELECT 3, id FROM dbo.products WHERE name = 'nut'
SELECT * FROM @order ORDER BY line
SELECT o.line, p.name, o.qty * p.price AS cost
FROM @order AS o JOIN dbo.products AS p ON p.id = o.product
ORDER BY o.line
UPDATE @order SET qty += 1, note = 'more' WHERE product = 3
DELETE FROM @order WHERE line = 1
SELECT line, qty, note FROM @order ORDER BY line
SELECT COUNT(*) AS lines, SUM(qty) AS total FROM @order
GO
-- Variables and table variables share one namespace.
DECLARE @v TABLE (a int)
DECLARE @v int
GO
-- Gone with its batch.
SELECT * FROM @order
GO
INSERT INTO @nothing VALUES (1)
GO
DECLARE @t TABLE (a int NOT NULL UNIQUE, b varchar(3) NULL)
INSERT INTO @t VALUES (1, 'one')
INSERT INTO @t VALUES (1, 'uno')
INSERT INTO @t VALUES (2, 'two-too-long')
INSERT INTO @t VALUES (NULL, 'nil')
SELECT * FROM @t
-- A table variable is not a scalar variable.
SELECT @t
GO
-- Self joins through aliases; a derived table over a table variable.
DECLARE @n TABLE (v int NOT NULL)
INSERT INTO @n VALUES (1), (2), (3)
SELECT a.v AS a, b.v AS b FROM @n AS a JOIN @n AS b ON b.v = a.v + 1 ORDER BY a.v
SELECT MAX(v) AS top_v FROM (SELECT v FROM @n WHERE v < 3) AS d
SELECT v FROM @n WHERE v IN (SELECT id FROM dbo.products WHERE price < 1) ORDER BY v
GO
-- Each batch's table variable starts empty, and its IDENTITY at the seed,
-- however often the same DECLARE runs.
DECLARE @r TABLE (id int IDENTITY(1, 1), v int)
INSERT INTO @r (v) VALUES (10), (20)
SELECT id, v FROM @r
GO
DECLARE @r TABLE (id int IDENTITY(1, 1), v int)
INSERT INTO @r (v) VALUES (30)
SELECT id, v FROM @r
GO
DECLARE @s TABLE (v int)
INSERT INTO @s VALUES (1), (2)
GO
DECLARE @s TABLE (v int)
SELECT COUNT(*) AS rows_left FROM @s
GO
