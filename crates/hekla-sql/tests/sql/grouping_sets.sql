-- GROUP BY GROUPING SETS: the sets listed, each a group of rows with the
-- other keys NULL; crossed with the other GROUP BY items; () the grand
-- total; ROLLUP and CUBE inside; lists (a, b) as one element;
-- GROUPING() and GROUPING_ID() telling rolled-up keys from NULL data.
CREATE TABLE dbo.sales (id int NOT NULL PRIMARY KEY NONCLUSTERED, region varchar(5) NULL, yr int NOT NULL, product varchar(5) NOT NULL, amount int NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.sales VALUES (1, 'n', 2024, 'a', 10), (2, 'n', 2025, 'b', 20), (3, 's', 2024, 'a', 5), (4, NULL, 2025, 'a', 1), (5, 'N', 2024, 'b', 7)
GO
-- The same sets as ROLLUP (region, yr); 'n' and 'N' are one region under
-- the default case-insensitive collation.
SELECT UPPER(region) AS region, yr, SUM(amount) AS total, GROUPING(region) AS g_r, GROUPING(yr) AS g_y, GROUPING_ID(region, yr) AS gid
FROM dbo.sales GROUP BY GROUPING SETS ((region, yr), (region), ())
ORDER BY GROUPING(region), region, GROUPING(yr), yr
GO
-- Two one-key sets: a row per region, then a row per year.
SELECT UPPER(region) AS region, yr, COUNT(*) AS n, GROUPING_ID(yr, region) AS gid
FROM dbo.sales GROUP BY GROUPING SETS (region, yr) ORDER BY gid, region, yr
GO
-- A set listed twice makes its groups twice.
SELECT product, SUM(amount) AS total FROM dbo.sales GROUP BY GROUPING SETS (product, (product), ()) ORDER BY GROUPING(product), product
GO
-- Crossed with a plain key: (yr, product) and (yr).
SELECT yr, product, SUM(amount) AS total FROM dbo.sales GROUP BY yr, GROUPING SETS (product, ()) ORDER BY yr, GROUPING(product), product
GO
-- ROLLUP and CUBE inside GROUPING SETS, and lists as one element:
-- ROLLUP ((yr, product)) is (yr, product) and (); CUBE (region) is
-- (region) and ().
SELECT UPPER(region) AS region, yr, product, SUM(amount) AS total, GROUPING_ID(region, yr, product) AS gid
FROM dbo.sales WHERE amount > 4 GROUP BY GROUPING SETS (ROLLUP ((yr, product)), CUBE (region))
ORDER BY gid, region, yr, product
GO
-- GROUPING SETS crossed with GROUPING SETS: (product, yr), (product), (yr), ().
SELECT product, yr, COUNT(*) AS n FROM dbo.sales GROUP BY GROUPING SETS (product, ()), GROUPING SETS (yr, ())
ORDER BY GROUPING(product), product, GROUPING(yr), yr
GO
-- A grand total comes even from no rows; GROUP BY () is one.
SELECT COUNT(*) AS n, SUM(amount) AS total FROM dbo.sales WHERE id > 100 GROUP BY ()
SELECT COUNT(*) AS n FROM dbo.sales WHERE id > 100 GROUP BY GROUPING SETS ((), region)
SELECT COUNT(*) AS n FROM dbo.sales WHERE id > 100 GROUP BY GROUPING SETS (region)
GO
-- A single set of every key is a plain GROUP BY (GROUPING is 0).
SELECT product, SUM(amount) AS total, GROUPING(product) AS g, GROUPING_ID(product) AS gid
FROM dbo.sales GROUP BY GROUPING SETS ((product)) ORDER BY product
GO
-- HAVING on the grouping: only the subtotals.
SELECT yr, SUM(amount) AS total FROM dbo.sales GROUP BY ROLLUP (yr, product) HAVING GROUPING_ID(yr, product) = 1 ORDER BY yr
GO
-- GROUPING_ID over a key repeated and plain GROUP BY: constants.
SELECT region, GROUPING_ID(region, region) AS gid FROM dbo.sales WHERE region = 's' GROUP BY region
GO
-- Errors: a GROUPING argument that is no GROUP BY expression (8161, also
-- without GROUP BY), GROUPING of two arguments (174), a list outside
-- GROUPING SETS (102), a column in no set (8120), too many sets (10705)
-- and too many expressions with grouping sets (10707).
SELECT region, GROUPING(product) FROM dbo.sales GROUP BY GROUPING SETS (region, ())
GO
SELECT region, GROUPING_ID(region, product) FROM dbo.sales GROUP BY ROLLUP (region)
GO
SELECT GROUPING(region) FROM dbo.sales
GO
SELECT GROUPING(region, yr) FROM dbo.sales GROUP BY CUBE (region, yr)
GO
SELECT region, yr FROM dbo.sales GROUP BY (region, yr)
GO
SELECT product FROM dbo.sales GROUP BY GROUPING SETS (region, yr)
GO
SELECT COUNT(*) FROM dbo.sales GROUP BY CUBE (id, region, yr, product, amount, id + 1, id + 2), CUBE (id + 3, id + 4, id + 5, id + 6, id + 7, id + 8)
GO
SELECT COUNT(*) FROM dbo.sales GROUP BY GROUPING SETS ((id, id + 1, id + 2, id + 3, id + 4, id + 5, id + 6, id + 7, id + 8, id + 9, id + 10, id + 11, id + 12, id + 13, id + 14, id + 15, id + 16, id + 17, id + 18, id + 19, id + 20, id + 21, id + 22, id + 23, id + 24, id + 25, id + 26, id + 27, id + 28, id + 29, id + 30, id + 31, id + 32))
GO
