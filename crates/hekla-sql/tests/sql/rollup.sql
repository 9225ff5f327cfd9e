-- GROUP BY ROLLUP and CUBE: one group per grouping set, rolled-up keys
-- NULL, GROUPING() telling them from NULL data, the grand total even over
-- no rows, windows over the grouped rows.
CREATE TABLE dbo.sales (id int NOT NULL PRIMARY KEY NONCLUSTERED, region varchar(5) NULL, yr int NOT NULL, amount int NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.sales VALUES (1, 'n', 2024, 10), (2, 'n', 2025, 20), (3, 's', 2024, 5), (4, NULL, 2025, 1)
GO
SELECT region, yr, SUM(amount) AS total, GROUPING(region) AS g_region, GROUPING(yr) AS g_yr
FROM dbo.sales GROUP BY ROLLUP (region, yr) ORDER BY GROUPING(region), region, GROUPING(yr), yr
GO
SELECT region, yr, COUNT(*) AS n FROM dbo.sales GROUP BY CUBE (region, yr) ORDER BY GROUPING(region), region, GROUPING(yr), yr
GO
SELECT yr, region, SUM(amount) AS total FROM dbo.sales GROUP BY yr, ROLLUP (region) ORDER BY yr, GROUPING(region), region
GO
SELECT COUNT(*) AS n, SUM(amount) AS total FROM dbo.sales WHERE id > 100 GROUP BY ROLLUP (region)
GO
SELECT region, SUM(amount) AS total, RANK() OVER (ORDER BY SUM(amount) DESC) AS rk
FROM dbo.sales GROUP BY ROLLUP (region) ORDER BY rk
GO
SELECT region, GROUPING(yr) FROM dbo.sales GROUP BY region
GO
SELECT region, GROUPING(region) AS g FROM dbo.sales GROUP BY region ORDER BY region
GO
