-- Views: CREATE, ALTER, CREATE OR ALTER, DROP; used like tables in
-- queries; SCHEMABINDING; the catalog views that list them.
CREATE TABLE dbo.customers (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    name varchar(20) NOT NULL,
    city varchar(20) NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE dbo.orders (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    customer int NOT NULL,
    amount decimal(10, 2) NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
SET NOCOUNT ON
INSERT INTO dbo.customers VALUES (1, 'ada', 'Oslo'), (2, 'bob', 'Rome'), (3, 'cy', NULL)
INSERT INTO dbo.orders VALUES (10, 1, 5.00), (11, 1, 7.50), (12, 2, 1.25)
SET NOCOUNT OFF
GO

-- A view is a stored query, used like a table.
CREATE VIEW dbo.big_cities AS
SELECT id, name, city FROM dbo.customers WHERE city IS NOT NULL
GO
SELECT * FROM dbo.big_cities ORDER BY id
GO
SELECT name FROM big_cities WHERE id = 2
GO
SELECT dbo.big_cities.name, big_cities.city FROM dbo.big_cities WHERE big_cities.id = 1
GO
SELECT id FROM big_cities, big_cities
GO
SELECT b.name, big_cities.city FROM big_cities AS b JOIN big_cities ON b.id = big_cities.id ORDER BY b.name
GO
-- A column list names the view's columns.
CREATE VIEW totals (customer, orders, total) AS
SELECT customer, COUNT(*), SUM(amount) FROM dbo.orders GROUP BY customer
GO
SELECT c.name, t.orders, t.total
FROM dbo.customers AS c LEFT JOIN totals AS t ON t.customer = c.id
ORDER BY c.id
GO
-- Views of views, in subqueries, CTEs and APPLY.
CREATE VIEW dbo.spenders AS
SELECT customer FROM dbo.totals WHERE total > 2
GO
SELECT name FROM dbo.customers WHERE id IN (SELECT customer FROM spenders)
GO
WITH s AS (SELECT customer FROM dbo.spenders) SELECT COUNT(*) AS n FROM s
GO
SELECT c.name, x.total
FROM dbo.customers AS c CROSS APPLY (SELECT t.total FROM totals AS t WHERE t.customer = c.id) AS x
ORDER BY c.name
GO
SELECT (SELECT MAX(total) FROM totals) AS top_total, EXISTS_ = CASE WHEN EXISTS (SELECT * FROM big_cities) THEN 1 ELSE 0 END
GO
-- A view sees the current rows of its tables.
INSERT INTO dbo.orders VALUES (13, 3, 9.99)
GO
SELECT customer, total FROM totals ORDER BY customer
GO
-- TOP with ORDER BY is allowed in a view; the view's order is not the
-- query's.
CREATE VIEW dbo.latest AS SELECT TOP (2) id, amount FROM dbo.orders ORDER BY id DESC
GO
SELECT id, amount FROM dbo.latest ORDER BY id
GO

-- ALTER VIEW replaces the definition and keeps the object id.
CREATE TABLE dbo.ids (name varchar(20) NOT NULL PRIMARY KEY NONCLUSTERED, id int NULL)
    WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.ids SELECT 'big_cities', OBJECT_ID('dbo.big_cities', 'V')
GO
ALTER VIEW dbo.big_cities AS
SELECT id, UPPER(name) AS name FROM dbo.customers WHERE city = 'Rome'
GO
SELECT * FROM big_cities
GO
CREATE OR ALTER VIEW dbo.big_cities (k, who) AS SELECT id, name FROM dbo.customers WHERE id = 3
GO
SELECT k, who FROM dbo.big_cities
GO
SELECT name, CASE WHEN id = OBJECT_ID('dbo.big_cities') THEN 'same id' ELSE 'new id' END AS after_alter
FROM dbo.ids
GO
DROP TABLE dbo.ids
GO
CREATE OR ALTER VIEW dbo.fresh AS SELECT 1 AS one
GO
SELECT one FROM fresh
GO
-- Views in other schemas, with CTEs and set operators of their own.
CREATE SCHEMA reports
GO
CREATE VIEW reports.ids WITH VIEW_METADATA AS
WITH c AS (SELECT id FROM dbo.customers)
SELECT id, 'customer' AS kind FROM c
UNION ALL
SELECT id, 'order' FROM dbo.orders
GO
SELECT kind, COUNT(*) AS n FROM reports.ids GROUP BY kind ORDER BY kind
GO
SELECT reports.ids.id FROM reports.ids WHERE ids.kind = 'customer' AND ids.id > 2
GO
SELECT id FROM ids
GO

-- Errors at CREATE time.
CREATE VIEW dbo.big_cities AS SELECT 1 AS a
GO
CREATE VIEW dbo.customers AS SELECT 1 AS a
GO
CREATE TABLE dbo.fresh (a int)
GO
CREATE VIEW dbo.unnamed AS SELECT id, name + 'x' FROM dbo.customers
GO
CREATE VIEW dbo.twice AS SELECT c.id, o.id FROM dbo.customers AS c JOIN dbo.orders AS o ON o.customer = c.id
GO
CREATE VIEW dbo.twice (a, a) AS SELECT 1, 2
GO
CREATE VIEW dbo.short_list (a) AS SELECT 1, 2
GO
CREATE VIEW dbo.long_list (a, b, c) AS SELECT 1, 2
GO
CREATE VIEW dbo.ordered AS SELECT id FROM dbo.customers ORDER BY id
GO
CREATE VIEW dbo.missing AS SELECT a FROM dbo.nothing_here
GO
CREATE VIEW dbo.bad_column AS SELECT nope FROM dbo.customers
GO
CREATE VIEW dbo.variable AS SELECT @x AS x
GO
CREATE SEQUENCE dbo.numbers
GO
CREATE VIEW dbo.numbered AS SELECT NEXT VALUE FOR dbo.numbers AS n
GO
DROP SEQUENCE dbo.numbers
GO
CREATE VIEW dbo.checked AS SELECT DISTINCT id FROM dbo.customers WHERE id > 1 WITH CHECK OPTION
GO
CREATE VIEW nowhere.v AS SELECT 1 AS a
GO
ALTER VIEW dbo.not_there AS SELECT 1 AS a
GO
SELECT name FROM sys.objects WHERE name IN ('unnamed', 'twice', 'short_list', 'ordered', 'missing', 'checked')
GO

-- INSERT, UPDATE and DELETE change a view's table (more in
-- view_dml.sql), not through aggregates.
INSERT INTO dbo.spenders VALUES (5)
GO
UPDATE dbo.big_cities SET who = 'x'
SELECT id, name FROM dbo.customers WHERE id = 3
UPDATE dbo.big_cities SET who = 'cy'
GO
DELETE FROM totals
GO

-- A view whose table is gone fails where it is used.
CREATE TABLE dbo.scratch (a int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE VIEW dbo.on_scratch AS SELECT a FROM dbo.scratch
GO
CREATE VIEW dbo.on_on_scratch AS SELECT a FROM dbo.on_scratch
GO
DROP TABLE dbo.scratch
GO
SELECT a FROM dbo.on_scratch
GO
SELECT a FROM on_on_scratch
GO
CREATE TABLE dbo.scratch (a int NOT NULL PRIMARY KEY NONCLUSTERED, b int NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.scratch VALUES (1, 2)
GO
SELECT a FROM dbo.on_on_scratch
GO

-- A view cannot reach itself through ALTER VIEW.
CREATE VIEW dbo.loop_a AS SELECT a FROM dbo.scratch
GO
CREATE VIEW dbo.loop_b AS SELECT a FROM dbo.loop_a
GO
ALTER VIEW dbo.loop_a AS SELECT a FROM dbo.loop_b
GO
ALTER VIEW dbo.loop_a AS SELECT a FROM dbo.loop_a
GO
SELECT a FROM dbo.loop_b
GO

-- SCHEMABINDING: two-part names, no *, and the tables stay.
CREATE VIEW dbo.bound WITH SCHEMABINDING AS SELECT id, name FROM customers
GO
CREATE VIEW dbo.bound WITH SCHEMABINDING AS SELECT * FROM dbo.customers
GO
CREATE VIEW dbo.bound WITH SCHEMABINDING AS SELECT a FROM dbo.loop_b
GO
CREATE VIEW dbo.bound WITH SCHEMABINDING AS
SELECT c.id, c.name, o.amount FROM dbo.customers AS c JOIN dbo.orders AS o ON o.customer = c.id
GO
CREATE VIEW dbo.bound_on_bound WITH SCHEMABINDING AS SELECT id FROM dbo.bound
GO
DROP TABLE dbo.orders
GO
DROP VIEW dbo.bound
GO
ALTER VIEW dbo.bound AS SELECT 1 AS id
GO
SELECT id, name, amount FROM dbo.bound ORDER BY amount
GO
DROP VIEW dbo.bound_on_bound
GO
ALTER VIEW dbo.bound AS SELECT c.id, c.name FROM dbo.customers AS c
GO
DROP TABLE dbo.orders
GO
CREATE VIEW dbo.bound_names (who) WITH SCHEMABINDING AS SELECT name FROM dbo.customers
GO

-- DROP VIEW.
DROP VIEW dbo.nothing_here
GO
DROP VIEW IF EXISTS dbo.nothing_here
GO
DROP VIEW dbo.customers
GO
DROP TABLE dbo.bound
GO
DROP VIEW dbo.fresh, dbo.latest
GO
SELECT one FROM dbo.fresh
GO
DROP VIEW IF EXISTS dbo.fresh, dbo.loop_b
GO

-- The catalog views.
SELECT name, type, type_desc, parent_object_id FROM sys.objects WHERE type = 'V' ORDER BY name
GO
SELECT v.name, SCHEMA_NAME(v.schema_id) AS schema_name, v.with_check_option, v.has_opaque_metadata
FROM sys.views AS v ORDER BY v.name
GO
SELECT o.name, m.is_schema_bound, m.uses_database_collation, m.definition
FROM sys.sql_modules AS m JOIN sys.objects AS o ON o.object_id = m.object_id
ORDER BY o.name
GO
SELECT c.column_id, c.name, t.name AS type_name, c.max_length, c.precision, c.scale
FROM sys.columns AS c JOIN sys.types AS t ON t.user_type_id = c.user_type_id
WHERE c.object_id = OBJECT_ID('dbo.big_cities') ORDER BY c.column_id
GO
SELECT TABLE_NAME, TABLE_TYPE FROM INFORMATION_SCHEMA.TABLES ORDER BY TABLE_TYPE, TABLE_NAME
GO
SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, NUMERIC_PRECISION FROM INFORMATION_SCHEMA.COLUMNS
WHERE TABLE_NAME = 'totals' ORDER BY ORDINAL_POSITION
GO
SELECT TABLE_SCHEMA, TABLE_NAME, CHECK_OPTION, IS_UPDATABLE, VIEW_DEFINITION
FROM INFORMATION_SCHEMA.VIEWS WHERE TABLE_NAME = 'totals'
GO

-- A view is expanded into the plan like a derived table.
SET SHOWPLAN_TEXT ON
GO
SELECT name FROM dbo.bound WHERE id = 1
GO
SET SHOWPLAN_TEXT OFF
GO
