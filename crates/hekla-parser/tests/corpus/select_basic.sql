-- SELECT basics: TOP forms, DISTINCT/ALL, select-list aliases and assignments, INTO, predicates, operators, CASE, CAST/CONVERT, COLLATE, aggregates, GROUP BY/HAVING/ORDER BY, OFFSET/FETCH, OPTION hints, NEXT VALUE FOR.
-- TOP forms
SELECT TOP 10 * FROM dbo.Orders ORDER BY OrderID;
SELECT TOP (10) OrderID FROM dbo.Orders;
GO
DECLARE @n int = 5, @pct float = 12.5;
SELECT TOP (@n) OrderID FROM dbo.Orders ORDER BY OrderDate DESC;
SELECT TOP (@n * 2 + 1) OrderID FROM dbo.Orders;
SELECT TOP (@pct) PERCENT OrderID FROM dbo.Orders ORDER BY OrderID;
SELECT TOP (50) PERCENT WITH TIES OrderID, CustomerID FROM dbo.Orders ORDER BY CustomerID;
SELECT TOP 3 WITH TIES OrderID FROM dbo.Orders ORDER BY Freight DESC;
GO
-- DISTINCT / ALL / star / qualified star
SELECT DISTINCT CustomerID FROM dbo.Orders;
SELECT ALL CustomerID FROM dbo.Orders;
SELECT DISTINCT TOP (3) CustomerID, Status FROM dbo.Orders ORDER BY CustomerID;
SELECT * FROM dbo.Orders;
SELECT o.*, c.Name FROM dbo.Orders AS o JOIN dbo.Customers AS c ON c.CustomerID = o.CustomerID;
SELECT dbo.Orders.* FROM dbo.Orders;
GO
-- Column aliases: AS, bare, name = expr, string aliases, bracketed/quoted aliases
SELECT OrderID AS id,
       CustomerID cust,
       total = Freight * 2,
       'string alias' = Status,
       Freight 'string alias 2',
       Freight AS 'string alias 3',
       OrderDate AS [Order Date],
       OrderDate AS "Order Date 2",
       [Ship Date] = ShipDate
FROM dbo.Orders;
GO
-- Variable assignment selects
DECLARE @max int, @min int, @name nvarchar(50);
SELECT @max = MAX(OrderID), @min = MIN(OrderID) FROM dbo.Orders;
SELECT @name = Name FROM dbo.Customers WHERE CustomerID = @min;
SELECT @max = @max + 1;
GO
-- SELECT without FROM
SELECT 1;
SELECT 1 + 1 AS two, 'x' AS x, N'y' AS y, NULL AS nothing, GETDATE() AS now;
SELECT SYSDATETIME(), SYSUTCDATETIME(), NEWID(), @@SPID
GO
-- SELECT ... INTO (permanent table and temp table), with a WHERE that copies structure only
SELECT OrderID, CustomerID INTO dbo.OrdersCopy FROM dbo.Orders WHERE 1 = 0;
SELECT * INTO #orders FROM dbo.Orders WHERE Status = 1;
GO
-- Comparison predicates, including the non-standard != !< !>
SELECT * FROM dbo.Orders
WHERE a = 1 AND b <> 2 AND c != 3 AND d < 4 AND e <= 5 AND f > 6 AND g >= 7 AND h !< 8 AND i !> 9;
GO
-- Boolean logic, precedence and parentheses
SELECT * FROM dbo.Orders
WHERE NOT (a = 1 OR b = 2) AND c = 3 OR NOT d = 4 AND (e = 5 OR f = 6);
GO
-- BETWEEN, IN, LIKE ... ESCAPE, IS [NOT] NULL
SELECT *
FROM dbo.Orders
WHERE OrderDate BETWEEN '2020-01-01' AND '2020-12-31'
  AND Freight NOT BETWEEN 0 AND 10
  AND Status IN (1, 2, 3)
  AND CustomerID NOT IN (10, 20)
  AND Code LIKE 'A%'
  AND Code NOT LIKE '%[_]x'
  AND Comment LIKE '%50!%%' ESCAPE '!'
  AND ShipDate IS NULL
  AND Comment IS NOT NULL
  AND NOT Status IN (9);
GO
-- Arithmetic, bitwise, unary, string concatenation and precedence
DECLARE @a int = 7, @b int = 3, @s varchar(10) = 'x';
SELECT @a + @b, @a - @b, @a * @b, @a / @b, @a % @b,
       @a & @b, @a | @b, @a ^ @b, ~@a, -@a, +@a, - -@a,
       @a + @b * 2 - (@a - @b) / 2 % 3,
       'abc' + @s + N'def' + CAST(@a AS varchar(10)),
       (@a & 1) | (@b ^ 2);
GO
-- CASE: simple and searched, nested, without ELSE
SELECT CASE Status WHEN 1 THEN 'open' WHEN 2 THEN 'shipped' ELSE 'other' END AS status_text,
       CASE WHEN Freight > 100 THEN 'high' WHEN Freight > 10 THEN 'mid' END AS band,
       CASE WHEN Status = 1 THEN CASE Code WHEN 'A' THEN 1 ELSE 2 END ELSE 0 END AS nested
FROM dbo.Orders;
GO
-- CAST / CONVERT (with and without style) / TRY_CAST / TRY_CONVERT / PARSE
SELECT CAST(1 AS bigint),
       CAST('2020-01-01' AS datetime2(3)),
       CAST(Freight AS decimal(18, 2)),
       CAST(N'x' AS nvarchar(max)),
       CONVERT(varchar(30), GETDATE(), 121),
       CONVERT(varchar, OrderDate, 112),
       CONVERT(int, '42'),
       TRY_CAST('abc' AS int),
       TRY_CONVERT(date, '20200131', 112),
       TRY_CONVERT(money, '$1,000.50')
FROM dbo.Orders;
GO
-- COLLATE in expressions, predicates and ORDER BY
SELECT Name COLLATE Latin1_General_BIN2 AS bin_name
FROM dbo.Customers
WHERE Name COLLATE SQL_Latin1_General_CP1_CS_AS = N'Smith'
ORDER BY Name COLLATE Latin1_General_100_CI_AI;
GO
-- Function calls and aggregates: COUNT(*), COUNT(DISTINCT), COUNT_BIG, SUM, AVG, MIN, MAX, built-ins
SELECT COUNT(*), COUNT(1), COUNT(ShipDate), COUNT(DISTINCT CustomerID), COUNT_BIG(*),
       SUM(Freight), AVG(CAST(Freight AS float)), MIN(OrderDate), MAX(OrderDate),
       SUM(DISTINCT Status), STDEV(Freight), VAR(Freight)
FROM dbo.Orders;
SELECT LEN(N'abc'), UPPER('x'), LOWER('Y'), LTRIM(RTRIM('  z  ')), SUBSTRING('hello', 2, 3),
       REPLACE('aXb', 'X', '-'), ISNULL(NULL, 0), ABS(-1), ROUND(1.2345, 2), POWER(2, 10),
       OBJECT_ID(N'dbo.Orders', N'U'), DB_NAME(), SCHEMA_NAME(), dbo.ufn_Clamp(5, 0, 3);
GO
-- GROUP BY / HAVING / ORDER BY (ASC, DESC, ordinal, expression, alias)
SELECT CustomerID, Status, COUNT(*) AS cnt, SUM(Freight) AS total
FROM dbo.Orders
WHERE OrderDate >= '20200101'
GROUP BY CustomerID, Status
HAVING COUNT(*) > 1 AND SUM(Freight) > 100
ORDER BY total DESC, 1 ASC, Status, CustomerID * 2 DESC;
SELECT YEAR(OrderDate) AS y, COUNT(*) FROM dbo.Orders GROUP BY YEAR(OrderDate) ORDER BY YEAR(OrderDate);
GO
-- OFFSET / FETCH
SELECT OrderID FROM dbo.Orders ORDER BY OrderID OFFSET 10 ROWS FETCH NEXT 5 ROWS ONLY;
SELECT OrderID FROM dbo.Orders ORDER BY OrderID OFFSET 0 ROW FETCH FIRST 1 ROW ONLY;
SELECT OrderID FROM dbo.Orders ORDER BY OrderID OFFSET 20 ROWS;
GO
DECLARE @skip int = 10, @take int = 5;
SELECT OrderID FROM dbo.Orders ORDER BY OrderID OFFSET @skip ROWS FETCH NEXT @take ROWS ONLY;
SELECT OrderID FROM dbo.Orders ORDER BY OrderID OFFSET (@skip * 2) ROWS FETCH NEXT (@take + 1) ROWS ONLY;
GO
-- OPTION query hints
SELECT * FROM dbo.Orders OPTION (MAXDOP 1);
SELECT * FROM dbo.Orders OPTION (RECOMPILE);
SELECT * FROM dbo.Orders o JOIN dbo.Customers c ON c.CustomerID = o.CustomerID OPTION (LOOP JOIN);
SELECT * FROM dbo.Orders o JOIN dbo.Customers c ON c.CustomerID = o.CustomerID OPTION (HASH JOIN, MAXDOP 4);
SELECT * FROM dbo.Orders o JOIN dbo.Customers c ON c.CustomerID = o.CustomerID OPTION (MERGE JOIN);
SELECT * FROM dbo.Orders o JOIN dbo.Customers c ON c.CustomerID = o.CustomerID OPTION (FORCE ORDER, LOOP JOIN);
SELECT * FROM dbo.Orders option (optimize for unknown, recompile, maxdop 1)
GO
DECLARE @c int = 1;
SELECT * FROM dbo.Orders WHERE CustomerID = @c OPTION (OPTIMIZE FOR (@c = 42));
GO
-- NEXT VALUE FOR in a select list, with OVER, and in INSERT ... VALUES
SELECT NEXT VALUE FOR Sales.SQ_SalesOrderID AS next_id;
INSERT INTO dbo.Orders (OrderID, CustomerID) VALUES (NEXT VALUE FOR Sales.SQ_SalesOrderID, 1);
GO
