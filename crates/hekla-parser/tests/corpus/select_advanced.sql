-- Advanced SELECT: set operators with parentheses, CTEs (multiple, recursive, column lists), subqueries (scalar, IN, EXISTS, ANY/SOME/ALL, correlated), window functions, STRING_AGG, IIF/COALESCE/NULLIF, date functions.
-- UNION / UNION ALL / EXCEPT / INTERSECT chains (INTERSECT binds tighter than UNION/EXCEPT)
SELECT id FROM dbo.A
UNION
SELECT id FROM dbo.B
UNION ALL
SELECT id FROM dbo.C
EXCEPT
SELECT id FROM dbo.D
INTERSECT
SELECT id FROM dbo.E;
GO
-- Parenthesized set operands, ORDER BY applying to the whole result
(SELECT id FROM dbo.A UNION SELECT id FROM dbo.B)
INTERSECT
(SELECT id FROM dbo.C EXCEPT (SELECT id FROM dbo.D))
ORDER BY id;
GO
SELECT a, b FROM dbo.A UNION ALL SELECT 1, 'x' UNION ALL SELECT NULL, NULL ORDER BY 1 DESC OFFSET 0 ROWS;
SELECT id INTO #u FROM dbo.A UNION SELECT id FROM dbo.B;
GO
-- CTEs: single, multiple, column lists, CTE referencing an earlier CTE
WITH Recent AS (
    SELECT OrderID, CustomerID FROM dbo.Orders WHERE OrderDate >= '20240101'
)
SELECT * FROM Recent;
GO
WITH Totals (CustomerID, Total) AS
(
    SELECT CustomerID, SUM(Freight) FROM dbo.Orders GROUP BY CustomerID
),
Ranked (CustomerID, Total, Pos) AS
(
    SELECT CustomerID, Total, RANK() OVER (ORDER BY Total DESC) FROM Totals
)
SELECT r.CustomerID, r.Total
FROM Ranked AS r
JOIN Totals AS t ON t.CustomerID = r.CustomerID
WHERE r.Pos <= 10;
GO
-- CTE after another statement (which must end with a semicolon), and a CTE feeding UPDATE/DELETE/INSERT
DECLARE @cutoff date = '20200101';
WITH Old AS (SELECT * FROM dbo.Orders WHERE OrderDate < @cutoff)
DELETE FROM Old;
WITH Upd AS (SELECT TOP (10) * FROM dbo.Orders ORDER BY OrderID)
UPDATE Upd SET Status = 2;
WITH Src (id) AS (SELECT 1 UNION ALL SELECT 2)
INSERT INTO dbo.A (id) SELECT id FROM Src;
GO
-- Recursive CTEs with MAXRECURSION
WITH Numbers (n) AS
(
    SELECT 1
    UNION ALL
    SELECT n + 1 FROM Numbers WHERE n < 1000
)
SELECT n FROM Numbers
OPTION (MAXRECURSION 1000);
GO
WITH Org AS
(
    SELECT EmployeeID, ManagerID, 0 AS Lvl, CAST(Name AS nvarchar(4000)) AS Path
    FROM dbo.Employees
    WHERE ManagerID IS NULL
    UNION ALL
    SELECT e.EmployeeID, e.ManagerID, o.Lvl + 1, CAST(o.Path + N'/' + e.Name AS nvarchar(4000))
    FROM dbo.Employees AS e
    INNER JOIN Org AS o ON e.ManagerID = o.EmployeeID
)
SELECT * FROM Org ORDER BY Path OPTION (MAXRECURSION 0);
GO
-- Subqueries: scalar (select list and WHERE), IN / NOT IN, EXISTS / NOT EXISTS, correlated
SELECT o.OrderID,
       (SELECT c.Name FROM dbo.Customers c WHERE c.CustomerID = o.CustomerID) AS CustomerName,
       (SELECT COUNT(*) FROM dbo.OrderLines l WHERE l.OrderID = o.OrderID) AS Lines
FROM dbo.Orders AS o
WHERE o.Freight > (SELECT AVG(Freight) FROM dbo.Orders)
  AND o.CustomerID IN (SELECT CustomerID FROM dbo.Customers WHERE Active = 1)
  AND o.CustomerID NOT IN (SELECT CustomerID FROM dbo.Blocked WHERE CustomerID IS NOT NULL)
  AND EXISTS (SELECT 1 FROM dbo.OrderLines l WHERE l.OrderID = o.OrderID)
  AND NOT EXISTS (SELECT * FROM dbo.Returns r WHERE r.OrderID = o.OrderID);
GO
-- Quantified comparisons: ANY / SOME / ALL
SELECT * FROM dbo.Orders WHERE Freight > ALL (SELECT Freight FROM dbo.Orders WHERE Status = 1);
SELECT * FROM dbo.Orders WHERE Freight >= ANY (SELECT Freight FROM dbo.Orders WHERE Status = 2);
SELECT * FROM dbo.Orders WHERE Status = SOME (SELECT Status FROM dbo.Statuses);
SELECT * FROM dbo.Orders WHERE NOT Freight < ALL (SELECT 10 UNION ALL SELECT 20);
GO
-- Subquery in FROM, in CASE, in ORDER BY, nested three deep
SELECT x.CustomerID
FROM (SELECT CustomerID FROM dbo.Orders WHERE Freight > (SELECT MAX(Freight) / 2 FROM dbo.Orders)) AS x
ORDER BY (SELECT COUNT(*) FROM dbo.Orders o WHERE o.CustomerID = x.CustomerID) DESC;
SELECT CASE WHEN EXISTS (SELECT 1 FROM dbo.Orders) THEN 'yes' ELSE 'no' END;
GO
-- Window functions: ranking, distribution, offset
SELECT OrderID,
       ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS rn_any,
       ROW_NUMBER() OVER (PARTITION BY CustomerID ORDER BY OrderDate DESC, OrderID) AS rn,
       RANK() OVER (ORDER BY Freight DESC) AS rnk,
       DENSE_RANK() OVER (PARTITION BY Status ORDER BY Freight) AS drnk,
       NTILE(4) OVER (ORDER BY Freight) AS quartile,
       LAG(Freight, 1, 0) OVER (PARTITION BY CustomerID ORDER BY OrderDate) AS prev_freight,
       LEAD(OrderDate) OVER (PARTITION BY CustomerID ORDER BY OrderDate) AS next_date,
       LEAD(Freight, 2) OVER (ORDER BY OrderID) AS next2,
       FIRST_VALUE(OrderID) OVER (PARTITION BY CustomerID ORDER BY OrderDate) AS first_id,
       PERCENT_RANK() OVER (ORDER BY Freight) AS pr
FROM dbo.Orders;
GO
-- Aggregate window functions with frames
SELECT OrderID,
       SUM(Freight) OVER (PARTITION BY CustomerID ORDER BY OrderDate ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running,
       SUM(Freight) OVER (PARTITION BY CustomerID) AS cust_total,
       AVG(Freight) OVER (ORDER BY OrderDate ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS moving_avg,
       COUNT(*) OVER () AS total_rows,
       MAX(Freight) OVER (ORDER BY OrderID ROWS UNBOUNDED PRECEDING) AS max_so_far,
       MIN(Freight) OVER (ORDER BY OrderID RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS min_rest,
       LAST_VALUE(OrderID) OVER (ORDER BY OrderDate ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS last_id
FROM dbo.Orders;
GO
-- STRING_AGG with and without WITHIN GROUP
SELECT CustomerID,
       STRING_AGG(CAST(OrderID AS varchar(20)), ',') WITHIN GROUP (ORDER BY OrderID) AS ids,
       STRING_AGG(Code, N'; ') AS codes
FROM dbo.Orders
GROUP BY CustomerID;
GO
-- IIF / COALESCE / NULLIF / ISNULL / CHOOSE / CONCAT
SELECT IIF(Freight > 10, 'high', 'low'),
       IIF(ShipDate IS NULL AND Status = 1, 1, 0),
       COALESCE(ShipDate, DueDate, OrderDate),
       COALESCE(NULL, NULL, 3),
       NULLIF(Status, 0),
       ISNULL(Comment, N''),
       CHOOSE(Status, 'a', 'b', 'c'),
       CONCAT('Order ', OrderID, ' for ', CustomerID)
FROM dbo.Orders;
GO
-- Date functions
SELECT DATEADD(day, 1, OrderDate),
       DATEADD(dd, -7, GETDATE()),
       DATEADD(month, 1, '20200131'),
       DATEDIFF(ms, OrderDate, ShipDate),
       DATEDIFF(day, '2020-01-01', SYSDATETIME()),
       DATEDIFF_BIG(microsecond, OrderDate, ShipDate),
       DATEPART(year, OrderDate),
       DATEPART(dw, OrderDate),
       DATENAME(month, OrderDate),
       YEAR(OrderDate), MONTH(OrderDate), DAY(OrderDate),
       EOMONTH(OrderDate), EOMONTH(OrderDate, 1),
       DATEFROMPARTS(2020, 1, 31),
       SYSDATETIMEOFFSET() AT TIME ZONE 'UTC'
FROM dbo.Orders;
GO
SELECT CustomerID, YEAR(OrderDate) AS y, Status, SUM(Freight),
       GROUPING(Status), GROUPING_ID(CustomerID, YEAR(OrderDate))
FROM dbo.Orders
GROUP BY GROUPING SETS ((CustomerID, YEAR(OrderDate)), CustomerID, ()),
         ROLLUP (Status, (ShipVia, Code)), CUBE ((OrderID + 1) * 2)
GO
