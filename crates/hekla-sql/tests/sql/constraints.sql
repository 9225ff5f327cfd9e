-- CHECK and FOREIGN KEY constraints: Msg 547 on INSERT, UPDATE and
-- DELETE, statement atomicity, self-references, multi-column keys, and
-- the errors SQL Server gives for bad definitions.
CREATE TABLE dbo.products (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    sku char(4) NOT NULL UNIQUE NONCLUSTERED,
    price money NOT NULL CHECK (price >= 0),
    discount money NULL,
    CONSTRAINT CK_products_discount CHECK (discount < price),
    CHECK (LEFT(sku, 1) = 'P')
) WITH (MEMORY_OPTIMIZED = ON)
GO
-- UNKNOWN passes: a NULL discount satisfies discount < price.
INSERT INTO dbo.products VALUES (1, 'P001', 10, NULL), (2, 'P002', 20, 5), (3, 'P003', 0, NULL)
GO
INSERT INTO dbo.products VALUES (4, 'P004', -1, NULL)
GO
INSERT INTO dbo.products VALUES (4, 'P004', 5, 7)
GO
INSERT INTO dbo.products VALUES (4, 'X004', 5, 1)
GO
-- The third row fails: none of the three is inserted.
INSERT INTO dbo.products VALUES (4, 'P004', 1, NULL), (5, 'P005', 2, NULL), (6, 'P006', -6, NULL)
GO
SELECT COUNT(*) AS products FROM dbo.products
GO
UPDATE dbo.products SET price = price - 15
GO
UPDATE dbo.products SET discount = 50 WHERE id = 2
GO
SELECT id, price, discount FROM dbo.products ORDER BY id
GO
SELECT name, parent_column_id, definition, is_system_named FROM sys.check_constraints ORDER BY name
GO

CREATE TABLE dbo.orders (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    product_id int NULL REFERENCES dbo.products (id),
    sku char(4) NULL,
    qty int NOT NULL CHECK (qty > 0),
    CONSTRAINT FK_orders_sku FOREIGN KEY (sku) REFERENCES dbo.products (sku),
    INDEX ix_product NONCLUSTERED (product_id)
) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.orders VALUES (1, 1, 'P001', 1), (2, 2, NULL, 2), (3, NULL, NULL, 3)
GO
INSERT INTO dbo.orders VALUES (4, 9, NULL, 1)
GO
INSERT INTO dbo.orders VALUES (4, NULL, 'P009', 1)
GO
INSERT INTO dbo.orders SELECT id + 10, id, sku, 1 FROM dbo.products
GO
INSERT INTO dbo.orders SELECT id + 20, id + 1, NULL, 1 FROM dbo.products
GO
UPDATE dbo.orders SET product_id = 7 WHERE id = 3
GO
UPDATE dbo.orders SET qty = qty + 1 WHERE id = 1
GO
-- Referenced rows: deleting or re-keying one that an order uses fails;
-- a product no order uses can go.
DELETE FROM dbo.products WHERE id = 1
GO
UPDATE dbo.products SET sku = 'P999' WHERE id = 1
GO
UPDATE dbo.products SET sku = sku WHERE id = 1
GO
DELETE FROM dbo.products WHERE id = 2
DELETE FROM dbo.orders WHERE product_id = 2
DELETE FROM dbo.products WHERE id = 2
GO
SELECT o.id, o.product_id, p.sku, o.qty FROM dbo.orders AS o LEFT JOIN dbo.products AS p ON p.id = o.product_id ORDER BY o.id
GO
DROP TABLE dbo.products
GO
SELECT f.name, t.name AS referenced, f.key_index_id, f.delete_referential_action_desc, f.is_system_named
FROM sys.foreign_keys AS f JOIN sys.tables AS t ON t.object_id = f.referenced_object_id ORDER BY f.name
GO
SELECT fk.name, c.constraint_column_id, c.parent_column_id, c.referenced_column_id
FROM sys.foreign_key_columns AS c JOIN sys.foreign_keys AS fk ON fk.object_id = c.constraint_object_id
ORDER BY fk.name
GO

-- A table that references itself: a parent and its children can come in
-- one statement; a row that is still someone's manager cannot go alone.
CREATE TABLE dbo.staff (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    manager int NULL,
    CONSTRAINT FK_staff_manager FOREIGN KEY (manager) REFERENCES dbo.staff (id)
)
GO
INSERT INTO dbo.staff VALUES (2, 1), (1, NULL), (3, 1)
GO
INSERT INTO dbo.staff VALUES (4, 8)
GO
DELETE FROM dbo.staff WHERE id = 1
GO
DELETE FROM dbo.staff WHERE id IN (1, 2, 3)
GO
SELECT COUNT(*) AS staff FROM dbo.staff
GO
DROP TABLE dbo.staff
GO

-- Two-column keys, referenced in another order than the key's.
CREATE TABLE dbo.lines (
    order_id int NOT NULL,
    line int NOT NULL,
    PRIMARY KEY NONCLUSTERED (order_id, line)
)
GO
CREATE TABLE dbo.shipments (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    line int NULL,
    order_id int NULL,
    FOREIGN KEY (line, order_id) REFERENCES dbo.lines (line, order_id),
    INDEX ix_line HASH (order_id, line) WITH (BUCKET_COUNT = 16)
)
GO
INSERT INTO dbo.lines VALUES (1, 1), (1, 2)
INSERT INTO dbo.shipments VALUES (1, 2, 1), (2, 3, NULL)
INSERT INTO dbo.shipments VALUES (3, 3, 1)
DELETE FROM dbo.lines WHERE line = 2
DELETE FROM dbo.lines WHERE line = 1
GO

-- A column constraint may say FOREIGN KEY, and may leave out the
-- referenced column (the primary key's).
CREATE TABLE dbo.notes (id int NOT NULL PRIMARY KEY NONCLUSTERED, order_id int NULL FOREIGN KEY REFERENCES dbo.orders)
INSERT INTO dbo.notes VALUES (1, 1)
INSERT INTO dbo.notes VALUES (2, 2)
SELECT c.name, fk.name AS foreign_key FROM sys.foreign_key_columns AS k
JOIN sys.foreign_keys AS fk ON fk.object_id = k.constraint_object_id
JOIN sys.columns AS c ON c.object_id = k.referenced_object_id AND c.column_id = k.referenced_column_id
WHERE k.parent_object_id = (SELECT object_id FROM sys.tables WHERE name = 'notes')
GO

-- Definitions SQL Server refuses.
CREATE TABLE dbo.bad1 (a int REFERENCES dbo.nowhere (id))
GO
CREATE TABLE dbo.bad2 (a int REFERENCES dbo.orders (qty))
GO
CREATE TABLE dbo.bad3 (a bigint REFERENCES dbo.orders (id))
GO
CREATE TABLE dbo.bad4 (a char(5) REFERENCES dbo.products (sku))
GO
CREATE TABLE dbo.bad5 (a int, b int, FOREIGN KEY (a, b) REFERENCES dbo.orders (id))
GO
CREATE TABLE dbo.bad6 (a int REFERENCES dbo.orders (nope))
GO
CREATE TABLE dbo.bad7 (a int REFERENCES dbo.orders (id) ON DELETE CASCADE)
GO
CREATE TABLE dbo.bad8 (a int CHECK (b > 0), b int)
GO
CREATE TABLE dbo.bad9 (a int CHECK (a IN (SELECT 1)))
GO
CREATE TABLE dbo.bad10 (a int CONSTRAINT FK_orders_sku CHECK (a > 0))
GO
CREATE TABLE dbo.bad11 (a int, FOREIGN KEY (a) REFERENCES dbo.lines)
GO
CREATE TABLE dbo.bad12 (a int REFERENCES dbo.bad12)
GO
