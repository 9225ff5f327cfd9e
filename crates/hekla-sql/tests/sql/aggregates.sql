-- Aggregates and GROUP BY (hash aggregation): COUNT, COUNT_BIG, SUM, AVG,
-- MIN, MAX, DISTINCT, HAVING, NULL handling, grouping under a
-- case-insensitive collation, and SQL Server's errors.
CREATE TABLE dbo.sales (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    region varchar(10) NOT NULL,
    qty int NULL,
    price decimal(10, 2) NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.sales VALUES
    (1, 'north', 5, 2.50), (2, 'North', 7, 1.25), (3, 'south', NULL, 10.00),
    (4, 'south', 2, 3.00), (5, 'east', 2, 4.00)
GO
SELECT COUNT(*) AS n, COUNT(qty) AS with_qty, COUNT(DISTINCT qty) AS distinct_qty, SUM(qty) AS total,
       AVG(qty) AS avg_int, AVG(price) AS avg_price, MIN(region) AS first, MAX(price) AS top_price,
       COUNT_BIG(*) AS big
FROM dbo.sales
GO
SELECT region, COUNT(*) AS n, SUM(price * qty) AS revenue
FROM dbo.sales
GROUP BY region
HAVING COUNT(*) > 1
GO
SELECT region, SUM(qty) + 1 AS plus_one FROM dbo.sales WHERE price < 5 GROUP BY region
GO
SELECT COUNT(*) AS none, SUM(qty) AS nothing FROM dbo.sales WHERE id > 100
GO
SELECT region, COUNT(*) FROM dbo.sales WHERE id > 100 GROUP BY region
GO
SELECT COUNT(*) AS one_row, SUM(2) AS two
GO
SELECT region, qty FROM dbo.sales GROUP BY region
GO
SELECT id FROM dbo.sales WHERE COUNT(*) > 1
GO
SELECT SUM(region) FROM dbo.sales
GO
SELECT MAX(COUNT(*)) FROM dbo.sales
GO
SET SHOWPLAN_TEXT ON
GO
SELECT region, COUNT(*) FROM dbo.sales GROUP BY region
GO
