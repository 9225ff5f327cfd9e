-- Joins: INNER/LEFT/RIGHT/FULL [OUTER], CROSS, comma joins, CROSS/OUTER APPLY, derived tables with column lists, table hints, join hints, master..spt_values number tables.
-- Inner joins, with and without INNER, multi-condition ON
SELECT o.OrderID, c.Name
FROM dbo.Orders AS o
INNER JOIN dbo.Customers AS c ON c.CustomerID = o.CustomerID
JOIN dbo.Territories t ON t.TerritoryID = c.TerritoryID AND t.Active = 1;
GO
-- Outer joins, with and without OUTER
SELECT * FROM dbo.A a LEFT JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a LEFT OUTER JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a RIGHT JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a RIGHT OUTER JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a FULL JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a FULL OUTER JOIN dbo.B b ON b.id = a.id WHERE a.id IS NULL OR b.id IS NULL;
GO
-- Cross join and comma joins (old style), including a three-way comma join
SELECT * FROM dbo.A CROSS JOIN dbo.B;
SELECT a.id, b.id FROM dbo.A a, dbo.B b WHERE a.id = b.id;
SELECT * FROM dbo.A AS a, dbo.B AS b, dbo.C AS c WHERE a.id = b.id AND b.id = c.id;
GO
-- Nested and parenthesized joins, ON clauses after a nested join
SELECT *
FROM dbo.A AS a
LEFT JOIN (dbo.B AS b INNER JOIN dbo.C AS c ON c.id = b.id) ON b.id = a.id;
SELECT *
FROM dbo.A a
JOIN dbo.B b
    JOIN dbo.C c ON c.id = b.id
ON b.id = a.id;
GO
-- CROSS APPLY / OUTER APPLY with table-valued functions and derived tables
SELECT c.CustomerID, o.SalesOrderID
FROM dbo.Customers AS c
CROSS APPLY Sales.ufn_OrdersByCustomer(c.CustomerID) AS o;
SELECT c.CustomerID, last_order.OrderID, last_order.OrderDate
FROM dbo.Customers AS c
OUTER APPLY (
    SELECT TOP (1) o.OrderID, o.OrderDate
    FROM dbo.Orders AS o
    WHERE o.CustomerID = c.CustomerID
    ORDER BY o.OrderDate DESC
) AS last_order;
SELECT s.value FROM dbo.Lists l CROSS APPLY STRING_SPLIT(l.csv, ',') s;
SELECT v.n FROM dbo.A a CROSS APPLY (VALUES (a.x), (a.y), (a.z)) AS v(n);
GO
-- Derived tables with and without column alias lists, table value constructor as a derived table
SELECT d.cid, d.cnt
FROM (SELECT CustomerID, COUNT(*) FROM dbo.Orders GROUP BY CustomerID) AS d (cid, cnt)
WHERE d.cnt > 1;
SELECT x.a, x.b FROM (SELECT 1 AS a, 2 AS b) x;
SELECT v.id, v.name FROM (VALUES (1, 'one'), (2, 'two'), (3, 'three')) AS v (id, name);
SELECT * FROM (SELECT * FROM (SELECT 1 AS z) AS inner1) AS outer1;
GO
-- Table hints: WITH (...) forms, legacy form without WITH, multiple hints, index hints
SELECT * FROM Sales.SalesOrderHeader_inmem WITH (SNAPSHOT);
SELECT * FROM dbo.Orders WITH (NOLOCK);
SELECT * FROM dbo.Orders AS o WITH (INDEX(IX_Orders_Date)) WHERE o.OrderDate > '2020-01-01';
SELECT * FROM dbo.Orders o WITH (INDEX = IX_Orders_Date);
SELECT * FROM dbo.Orders WITH (INDEX(0));
SELECT * FROM dbo.Orders o WITH (INDEX(IX_Orders_Date, IX_Orders_Cust));
SELECT * FROM dbo.Orders (TABLOCK);
SELECT * FROM dbo.Orders o (NOLOCK);
SELECT * FROM dbo.Orders WITH (REPEATABLEREAD);
SELECT * FROM dbo.Orders WITH (SERIALIZABLE) WHERE OrderID = 1;
SELECT * FROM Sales.SalesOrderHeader_inmem AS h WITH (SNAPSHOT, INDEX(ix_a));
SELECT * FROM dbo.Orders WITH (UPDLOCK, ROWLOCK, HOLDLOCK);
SELECT * FROM dbo.Orders WITH (READPAST, FORCESEEK);
SELECT * FROM dbo.Orders WITH (NOLOCK, NOWAIT)
GO
-- Hints on both sides of a join, with snapshot on memory-optimized tables
SELECT h.SalesOrderID, d.ProductID
FROM Sales.SalesOrderHeader_inmem AS h WITH (SNAPSHOT)
INNER JOIN Sales.SalesOrderDetail_inmem AS d WITH (SNAPSHOT) ON d.SalesOrderID = h.SalesOrderID
LEFT JOIN dbo.Orders AS o WITH (NOLOCK) ON o.OrderID = h.SalesOrderID;
GO
-- Join hints
SELECT * FROM dbo.A a INNER HASH JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a INNER LOOP JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a INNER MERGE JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a LEFT OUTER HASH JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a FULL OUTER MERGE JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a RIGHT MERGE JOIN dbo.B b ON b.id = a.id;
SELECT * FROM dbo.A a inner remote join dbo.B b on b.id = a.id;
GO
-- Number tables from master..spt_values
SELECT number FROM master..spt_values WHERE type = 'P' AND number BETWEEN 1 AND 100;
SELECT DATEADD(day, v.number, '20200101') AS d
FROM master..spt_values AS v
WHERE v.type = 'P' AND v.number < 366;
SELECT TOP (1000000) ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS n
FROM master..spt_values t1
CROSS JOIN master..spt_values t2
WHERE t1.type = 'P';
SELECT o.OrderID, v.number
FROM dbo.Orders o
JOIN master.dbo.spt_values v ON v.type = 'P' AND v.number < o.Qty;
GO
-- Self join, join on expressions and on a subquery predicate
SELECT e.Name, m.Name AS Manager
FROM dbo.Employees e
LEFT JOIN dbo.Employees m ON m.EmployeeID = e.ManagerID;
SELECT * FROM dbo.A a JOIN dbo.B b ON a.x + 1 = b.y * 2 AND b.z IN (SELECT z FROM dbo.C);
GO
