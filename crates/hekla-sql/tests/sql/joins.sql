-- Joins by nested loops: INNER, LEFT OUTER, CROSS and comma joins, index
-- nested loops when the ON clause fixes an index key of the inner table,
-- WHERE over the joined row, grouping and ordering over joins.
CREATE TABLE dbo.customers (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64), name varchar(10) NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.orders (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    customer_id int NOT NULL INDEX ix_customer HASH WITH (BUCKET_COUNT = 64),
    amount money NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.customers VALUES (1, 'ada'), (2, 'bob'), (3, 'cy')
INSERT INTO dbo.orders VALUES (10, 1, 5), (11, 1, 7), (12, 2, 3)
GO
SELECT c.name, o.id, o.amount FROM dbo.customers AS c INNER JOIN dbo.orders AS o ON o.customer_id = c.id ORDER BY o.id
GO
SELECT c.name, o.id FROM dbo.customers c LEFT JOIN dbo.orders o ON o.customer_id = c.id ORDER BY c.name, o.id
GO
SELECT c.name, COUNT(o.id) AS orders, SUM(o.amount) AS total
FROM dbo.customers c LEFT OUTER JOIN dbo.orders o ON c.id = o.customer_id
GROUP BY c.name
ORDER BY total DESC
GO
SELECT COUNT(*) AS pairs FROM dbo.customers, dbo.orders
GO
SELECT c.name FROM dbo.customers c CROSS JOIN dbo.orders o WHERE o.id = 12 AND c.id <> o.customer_id ORDER BY 1
GO
SELECT name FROM dbo.customers c JOIN dbo.orders o ON o.customer_id = c.id
GO
SELECT id FROM dbo.customers c JOIN dbo.orders o ON o.customer_id = c.id
GO
SELECT * FROM dbo.customers JOIN dbo.customers ON 1 = 1
GO
SET SHOWPLAN_TEXT ON
GO
SELECT c.name, o.amount FROM dbo.customers c JOIN dbo.orders o ON o.customer_id = c.id WHERE c.id = 1
GO
