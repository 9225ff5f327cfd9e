-- INSERT, UPDATE and DELETE through views: the statement changes the one
-- table the view shows, only in the rows the view shows.
CREATE TABLE dbo.customers (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    name varchar(20) NOT NULL,
    city varchar(20) NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE dbo.orders (
    id int IDENTITY(1, 1) NOT NULL PRIMARY KEY NONCLUSTERED,
    customer int NOT NULL FOREIGN KEY REFERENCES dbo.customers (id),
    amount int NOT NULL CHECK (amount >= 0),
    note varchar(10) NOT NULL DEFAULT 'none',
    doubled AS amount * 2
) WITH (MEMORY_OPTIMIZED = ON)
GO
SET NOCOUNT ON
INSERT INTO dbo.customers VALUES (1, 'ada', 'Oslo'), (2, 'bob', 'Rome'), (3, 'cy', NULL)
INSERT INTO dbo.orders (customer, amount) VALUES (1, 5), (1, 7), (2, 1)
SET NOCOUNT OFF
GO

-- UPDATE and DELETE see the view's rows only; SET and WHERE name its
-- columns.
CREATE VIEW dbo.located (who, town) AS
SELECT name, city FROM dbo.customers WHERE city IS NOT NULL
GO
UPDATE dbo.located SET town = UPPER(town) WHERE who <> 'bob'
GO
UPDATE located SET located.who = who + '!' WHERE dbo.located.town = 'Rome'
GO
UPDATE c SET town = 'Bergen' FROM located AS c WHERE c.who = 'ada'
GO
SELECT id, name, city FROM dbo.customers ORDER BY id
GO
DELETE FROM located WHERE town = 'Nowhere'
GO
SELECT * FROM located ORDER BY who
GO

-- INSERT fills the table's columns the view shows; the others take their
-- defaults, NULL or IDENTITY values.
CREATE VIEW dbo.small AS SELECT id, customer, amount FROM dbo.orders WHERE amount < 10
GO
INSERT INTO dbo.small (customer, amount) VALUES (3, 2)
GO
INSERT INTO small VALUES (2, 3)
GO
INSERT INTO small SELECT customer, amount + 10 FROM small WHERE id = 1
GO
SELECT id, customer, amount, note, doubled FROM dbo.orders ORDER BY id
GO
INSERT INTO small VALUES (2, 3, 4)
GO
INSERT INTO small VALUES (2)
GO
INSERT INTO small (id, amount) VALUES (9, 1)
GO

-- A view over all columns: computed and IDENTITY columns are skipped
-- without a column list, refused in one.
CREATE VIEW dbo.every AS SELECT * FROM dbo.orders
GO
INSERT INTO every VALUES (3, 8, 'star')
GO
INSERT INTO every (customer, amount, note) VALUES (3, 9, DEFAULT)
GO
INSERT INTO every (customer, amount, doubled) VALUES (3, 9, 18)
GO
UPDATE every SET id = 0
GO
UPDATE every SET doubled = 0
GO
SELECT * FROM every WHERE id > 5 ORDER BY id
GO

-- The table's constraints hold; a statement is all or nothing.
INSERT INTO small (customer, amount) VALUES (1, 1), (9, 1)
GO
UPDATE small SET amount = amount - 2
GO
INSERT INTO every (customer, amount) VALUES (1, 1), (1, -1)
GO
SELECT COUNT(*) AS orders, SUM(amount) AS total FROM dbo.orders
GO

-- DELETE through a view removes only the rows it shows.
DELETE FROM small WHERE customer = 2
GO
SELECT id, customer, amount FROM dbo.orders ORDER BY id
GO

-- Views of views, renaming and filtering on the way down.
CREATE VIEW dbo.big_spenders AS SELECT id, customer AS buyer, amount FROM dbo.orders WHERE amount >= 5
GO
CREATE VIEW dbo.ada_big AS SELECT id AS order_id, amount AS spent FROM dbo.big_spenders WHERE buyer = 1
GO
UPDATE ada_big SET spent = spent + 100 WHERE order_id > 1
GO
INSERT INTO ada_big (spent) VALUES (50)
GO
SELECT * FROM ada_big ORDER BY order_id
GO
DELETE ada_big WHERE spent > 100
GO
SELECT id, customer, amount FROM dbo.orders ORDER BY id
GO

-- A view of two tables: one table changes at a time. An outer join's row
-- without an order changes nothing.
CREATE VIEW dbo.customer_orders AS
SELECT c.id AS customer_id, c.name, o.id AS order_id, o.amount, o.amount * 10 AS cents, 'x' AS tag
FROM dbo.customers AS c LEFT JOIN dbo.orders AS o ON o.customer = c.id
GO
UPDATE customer_orders SET name = UPPER(name) WHERE order_id IS NULL
GO
UPDATE customer_orders SET amount = amount + 1 WHERE name = 'ada'
GO
UPDATE customer_orders SET amount = 0
GO
INSERT INTO customer_orders (customer_id, name) VALUES (4, 'di')
GO
SELECT * FROM customer_orders ORDER BY customer_id, order_id
GO
UPDATE customer_orders SET amount = 1, name = 'x'
GO
INSERT INTO customer_orders (customer_id, amount) VALUES (5, 1)
GO
DELETE FROM customer_orders WHERE order_id = 1
GO
UPDATE customer_orders SET cents = 0
GO
UPDATE customer_orders SET tag = 'y'
GO
INSERT INTO customer_orders VALUES (5, 'eve', 9, 1, 10, 'x')
GO
UPDATE customer_orders SET nothing = 1
GO
UPDATE customer_orders SET amount = 1, amount = 2
GO
UPDATE customer_orders SET customer_orders.name = 'z' WHERE 1 = 0
GO
UPDATE customer_orders SET other.name = 'z'
GO

-- A view in another schema; DELETE ... FROM joins the view too.
CREATE SCHEMA sales
GO
CREATE VIEW sales.cy_orders AS SELECT o.id, o.amount FROM dbo.orders AS o WHERE o.customer = 3
GO
UPDATE sales.cy_orders SET amount = 2 WHERE sales.cy_orders.id = 7
GO
DELETE v FROM sales.cy_orders AS v JOIN dbo.orders AS o ON o.id = v.id WHERE o.amount = 2
GO
SELECT id, customer, amount FROM dbo.orders WHERE customer = 3 ORDER BY id
GO

-- UPDATE ... FROM joins the view to other tables.
UPDATE v SET amount = v.amount + c.id
FROM dbo.customers AS c JOIN dbo.small AS v ON v.customer = c.id
WHERE c.name = 'cy'
GO
SELECT id, customer, amount FROM dbo.orders WHERE customer = 3 ORDER BY id
GO

-- TOP in a view: only its rows change.
CREATE VIEW dbo.latest AS SELECT TOP (2) id, amount FROM dbo.orders ORDER BY id DESC
GO
UPDATE latest SET amount = amount + 1
GO
SELECT id, amount FROM dbo.orders ORDER BY id
GO
DELETE FROM latest
GO
SELECT id, amount FROM dbo.orders ORDER BY id
GO

-- OUTPUT: inserted and deleted have the view's columns.
INSERT INTO small (customer, amount) OUTPUT inserted.* VALUES (1, 6), (3, 2), (3, 5)
GO
UPDATE ada_big SET spent = spent + 1 OUTPUT deleted.order_id, deleted.spent AS was, inserted.spent AS now
GO
DELETE FROM small OUTPUT deleted.* WHERE customer = 1 AND amount = 0
GO
UPDATE customer_orders SET amount = 4
OUTPUT inserted.name, deleted.amount, inserted.amount, deleted.cents
WHERE order_id = 15
GO
INSERT INTO customer_orders (customer_id, name) OUTPUT inserted.customer_id, inserted.name VALUES (5, 'eve')
GO
DECLARE @log TABLE (order_id int, amount int)
UPDATE small SET amount = 3 OUTPUT inserted.id, inserted.amount INTO @log WHERE customer = 3
SELECT * FROM @log ORDER BY order_id
GO
UPDATE customer_orders SET amount = 4 OUTPUT inserted.cents WHERE order_id = 15
GO
INSERT INTO customer_orders (customer_id, name) OUTPUT inserted.* VALUES (6, 'fay')
GO

-- WITH CHECK OPTION: rows written through the view must stay in it.
CREATE VIEW dbo.under_ten AS
SELECT id, customer, amount FROM dbo.orders WHERE amount < 10
WITH CHECK OPTION
GO
INSERT INTO under_ten (customer, amount) VALUES (2, 9)
GO
INSERT INTO under_ten (customer, amount) VALUES (2, 10)
GO
UPDATE under_ten SET amount = amount + 5
GO
UPDATE under_ten SET amount = amount + 0 WHERE customer = 2
GO
INSERT INTO dbo.orders (customer, amount) VALUES (2, 11)
GO
SELECT id, customer, amount FROM dbo.orders WHERE customer = 2 ORDER BY id
GO
-- A view over one with CHECK OPTION keeps its rule, not its own WHERE;
-- CHECK OPTION on the upper view takes both.
CREATE VIEW dbo.bobs AS SELECT id, amount FROM dbo.under_ten WHERE id IN (SELECT o.id FROM dbo.orders AS o WHERE o.customer = 2)
GO
UPDATE bobs SET amount = 20
GO
CREATE VIEW dbo.cys AS SELECT id, customer, amount FROM dbo.under_ten WHERE customer = 3
GO
INSERT INTO cys (customer, amount) VALUES (1, 1)
GO
INSERT INTO cys (customer, amount) VALUES (1, 11)
GO
CREATE VIEW dbo.cys_checked AS SELECT id, customer, amount FROM dbo.cys WITH CHECK OPTION
GO
INSERT INTO cys_checked (customer, amount) VALUES (1, 1)
GO
INSERT INTO cys_checked (customer, amount) VALUES (3, 1)
GO
UPDATE cys_checked SET customer = 1
GO
SELECT id, customer, amount FROM dbo.orders WHERE amount = 1 ORDER BY id
GO
-- CHECK OPTION with TOP, and on views that cannot be changed.
CREATE VIEW dbo.top_checked AS SELECT id, amount FROM dbo.latest WITH CHECK OPTION
GO
UPDATE top_checked SET amount = 1
GO
CREATE VIEW dbo.grouped_checked AS SELECT customer FROM dbo.orders GROUP BY customer WITH CHECK OPTION
GO
CREATE VIEW dbo.union_checked AS SELECT id FROM dbo.orders UNION SELECT id FROM dbo.customers WITH CHECK OPTION
GO

-- Views that cannot be changed.
CREATE VIEW dbo.totals AS SELECT customer, SUM(amount) AS total FROM dbo.orders GROUP BY customer
GO
UPDATE totals SET customer = 1
GO
UPDATE totals SET total = 1
GO
INSERT INTO totals VALUES (1, 2)
GO
DELETE FROM totals
GO
CREATE VIEW dbo.buyers AS SELECT DISTINCT customer FROM dbo.orders
GO
DELETE FROM buyers
GO
CREATE VIEW dbo.order_count AS SELECT COUNT(*) AS n FROM dbo.orders
GO
DELETE FROM order_count
GO
CREATE VIEW dbo.ids AS SELECT id FROM dbo.orders UNION SELECT id FROM dbo.customers
GO
UPDATE ids SET id = 1
GO
DELETE FROM ids
GO
CREATE VIEW dbo.all_ids AS SELECT id FROM dbo.orders UNION ALL SELECT id FROM dbo.customers
GO
DELETE FROM all_ids
GO
CREATE VIEW dbo.lonely AS SELECT id FROM dbo.customers EXCEPT SELECT customer FROM dbo.orders
GO
DELETE FROM lonely
GO
INSERT INTO lonely VALUES (9)
GO
CREATE VIEW dbo.constant AS SELECT 1 AS one
GO
INSERT INTO constant VALUES (1)
GO
DELETE FROM constant
GO
CREATE VIEW dbo.nested AS SELECT d.id FROM (SELECT id FROM dbo.customers) AS d
GO
DELETE FROM nested
GO
CREATE VIEW dbo.catalog_names AS SELECT name FROM sys.objects
GO
UPDATE catalog_names SET name = 'x'
GO
CREATE VIEW dbo.spending AS SELECT order_id, spent + 1 AS more FROM dbo.ada_big
GO
UPDATE spending SET more = 1
GO
CREATE VIEW dbo.from_totals AS SELECT customer FROM dbo.totals
GO
UPDATE from_totals SET customer = 1
GO
CREATE TABLE dbo.scratch (a int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE VIEW dbo.on_scratch AS SELECT a FROM dbo.scratch
GO
DROP TABLE dbo.scratch
GO
INSERT INTO on_scratch VALUES (1)
GO
DECLARE @t TABLE (a int)
INSERT INTO @t VALUES (1)
UPDATE @t SET a = 2 OUTPUT inserted.a INTO dbo.small
GO
