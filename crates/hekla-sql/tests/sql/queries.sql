-- Queries over the operator tree: subqueries (scalar, EXISTS, IN, ANY/ALL,
-- correlated or not), derived tables, VALUES, CTEs, set operators, RIGHT
-- and FULL joins (spool and hash), APPLY, window functions, HAVING without
-- GROUP BY, WHERE without FROM, and their errors.
CREATE TABLE dbo.dept (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(10) NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.emp (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    name varchar(10) NOT NULL,
    dept_id int NULL,
    salary int NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.dept VALUES (1, 'eng'), (2, 'ops'), (3, 'empty')
INSERT INTO dbo.emp VALUES (1, 'ada', 1, 100), (2, 'bob', 1, 80), (3, 'cy', 2, 90), (4, 'dee', NULL, 70), (5, 'eve', 2, 90)
GO
SELECT name, (SELECT name FROM dbo.dept d WHERE d.id = e.dept_id) AS dept FROM dbo.emp e ORDER BY id
GO
SELECT name FROM dbo.emp WHERE salary > (SELECT AVG(salary) FROM dbo.emp) ORDER BY name
GO
SELECT name FROM dbo.dept d WHERE NOT EXISTS (SELECT 1 FROM dbo.emp e WHERE e.dept_id = d.id)
GO
SELECT name FROM dbo.emp WHERE dept_id IN (SELECT id FROM dbo.dept WHERE name = 'ops') ORDER BY name
GO
-- NOT IN over a list holding NULL is never true
SELECT COUNT(*) AS not_in FROM dbo.dept WHERE id NOT IN (SELECT dept_id FROM dbo.emp)
GO
SELECT name FROM dbo.emp WHERE salary >= ALL (SELECT salary FROM dbo.emp) 
GO
SELECT name FROM dbo.emp e WHERE salary = (SELECT MAX(salary) FROM dbo.emp x WHERE x.dept_id = e.dept_id) ORDER BY name
GO
SELECT (SELECT id FROM dbo.emp)
GO
SELECT (SELECT id, name FROM dbo.emp WHERE id = 1)
GO
SELECT t.d, t.n FROM (SELECT dept_id, COUNT(*) FROM dbo.emp GROUP BY dept_id) AS t (d, n) ORDER BY t.d
GO
SELECT * FROM (SELECT dept_id, COUNT(*) FROM dbo.emp GROUP BY dept_id) AS t
GO
SELECT * FROM (SELECT id FROM dbo.emp ORDER BY id) AS t
GO
SELECT v.a, v.b FROM (VALUES (1, 'x'), (2, 'y'), (3, NULL)) AS v (a, b) WHERE v.a > 1
GO
WITH paid AS (SELECT dept_id, SUM(salary) AS total FROM dbo.emp GROUP BY dept_id),
     top_paid AS (SELECT dept_id FROM paid WHERE total > 150)
SELECT d.name, p.total FROM paid p JOIN dbo.dept d ON d.id = p.dept_id WHERE p.dept_id IN (SELECT dept_id FROM top_paid) ORDER BY d.name
GO
WITH r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r
GO
SELECT name FROM dbo.dept UNION SELECT name FROM dbo.dept UNION ALL SELECT 'eng' ORDER BY 1
GO
SELECT dept_id FROM dbo.emp INTERSECT SELECT id FROM dbo.dept
GO
SELECT id FROM dbo.dept EXCEPT SELECT dept_id FROM dbo.emp
GO
SELECT id FROM dbo.dept UNION SELECT id, name FROM dbo.emp
GO
SELECT e.name, d.name AS dept FROM dbo.emp e RIGHT JOIN dbo.dept d ON d.id = e.dept_id ORDER BY d.name, e.name
GO
SELECT e.name, d.name AS dept FROM dbo.emp e FULL JOIN dbo.dept d ON e.dept_id = d.id ORDER BY e.name, d.name
GO
SELECT d.name, x.name, x.salary FROM dbo.dept d CROSS APPLY (SELECT TOP (1) name, salary FROM dbo.emp e WHERE e.dept_id = d.id ORDER BY salary DESC) AS x ORDER BY d.name
GO
SELECT d.name, x.n FROM dbo.dept d OUTER APPLY (SELECT COUNT(*) AS n FROM dbo.emp e WHERE e.dept_id = d.id AND e.salary > 85) AS x ORDER BY d.name
GO
SELECT name, salary,
       ROW_NUMBER() OVER (ORDER BY salary DESC, name) AS rn,
       RANK() OVER (ORDER BY salary DESC) AS rk,
       DENSE_RANK() OVER (ORDER BY salary DESC) AS dr,
       NTILE(2) OVER (ORDER BY id) AS half,
       LAG(name) OVER (ORDER BY id) AS before,
       LEAD(name, 1, '-') OVER (ORDER BY id) AS after
FROM dbo.emp ORDER BY id
GO
SELECT name, dept_id, SUM(salary) OVER (PARTITION BY dept_id) AS dept_total,
       SUM(salary) OVER (PARTITION BY dept_id ORDER BY id) AS running,
       COUNT(*) OVER () AS everyone
FROM dbo.emp ORDER BY id
GO
SELECT TOP (3) ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS n FROM dbo.emp a CROSS JOIN dbo.emp b
GO
SELECT ROW_NUMBER() OVER () FROM dbo.emp
GO
SELECT name FROM dbo.emp WHERE ROW_NUMBER() OVER (ORDER BY id) = 1
GO
SELECT COUNT(*) AS n FROM dbo.emp HAVING COUNT(*) > 3
GO
SELECT 'yes' AS answer WHERE 1 < 2
GO
SELECT DISTINCT name FROM dbo.emp ORDER BY salary
GO
DECLARE @top int = 2
SELECT TOP (@top) name FROM dbo.emp ORDER BY salary DESC, name
DECLARE @n int = (SELECT COUNT(*) FROM dbo.emp)
SET @n += (SELECT COUNT(*) FROM dbo.dept)
SELECT @n AS rows_in_both
GO
DECLARE @names varchar(100) = ''
SELECT @names = @names + name + ';' FROM dbo.emp WHERE dept_id = 1 ORDER BY id
SELECT @names AS names
GO
UPDATE dbo.emp SET salary = salary + 1 WHERE dept_id = (SELECT id FROM dbo.dept WHERE name = 'ops')
DELETE FROM dbo.emp WHERE NOT EXISTS (SELECT 1 FROM dbo.dept WHERE dept.id = emp.dept_id)
SELECT name, salary FROM dbo.emp ORDER BY id
GO
CREATE TABLE dbo.copy (id int NOT NULL PRIMARY KEY NONCLUSTERED, label varchar(20) NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.copy (id, label) SELECT e.id, e.name + '@' + d.name FROM dbo.emp e JOIN dbo.dept d ON d.id = e.dept_id
INSERT INTO dbo.copy SELECT 100, NULL UNION ALL SELECT 101, 'x'
INSERT INTO dbo.copy SELECT id FROM dbo.dept
SELECT * FROM dbo.copy ORDER BY id
GO
SET SHOWPLAN_TEXT ON
GO
SELECT e.name, d.name FROM dbo.emp e JOIN dbo.dept d ON d.name = e.name
GO
SELECT name FROM dbo.emp WHERE id = 3 UNION ALL SELECT name FROM dbo.dept
GO
SET SHOWPLAN_TEXT OFF
GO
