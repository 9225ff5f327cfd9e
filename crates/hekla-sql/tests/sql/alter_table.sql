-- ALTER TABLE, CREATE INDEX and DROP INDEX on tables that hold rows: each
-- rebuilds the table (SQL Server's offline ALTER of a memory-optimized
-- table), so every form runs with data present, and a failed one leaves
-- the table as it was.
CREATE TABLE dbo.parts (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    name varchar(10) NULL,
    qty int NOT NULL DEFAULT 1
) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.parts (id, name, qty) VALUES (1, 'bolt', 5), (2, 'nut', 5), (3, NULL, 7)
GO

-- ADD columns: NULL, NOT NULL with a DEFAULT (existing rows take it), a
-- nullable DEFAULT (existing rows stay NULL unless WITH VALUES), IDENTITY.
ALTER TABLE dbo.parts ADD note varchar(20) NULL
GO
ALTER TABLE dbo.parts ADD weight int NOT NULL DEFAULT 10, color char(3) NULL DEFAULT 'red'
GO
ALTER TABLE dbo.parts ADD shape varchar(5) NULL CONSTRAINT DF_parts_shape DEFAULT 'hex' WITH VALUES
GO
ALTER TABLE dbo.parts ADD serial int IDENTITY(1, 1) NOT NULL
GO
SELECT id, name, qty, note, weight, color, shape, serial FROM dbo.parts ORDER BY id
GO
INSERT INTO dbo.parts (id, name) VALUES (4, 'washer')
GO
SELECT id, weight, color, shape, serial FROM dbo.parts WHERE id = 4
GO
-- NOT NULL without a DEFAULT needs an empty table; names are unique.
ALTER TABLE dbo.parts ADD price money NOT NULL
GO
ALTER TABLE dbo.parts ADD qty int NULL
GO
SELECT COUNT(*) AS columns FROM sys.columns WHERE object_id = OBJECT_ID('dbo.parts')
GO

-- ADD CONSTRAINT: CHECK and UNIQUE are tested against the rows there are.
ALTER TABLE dbo.parts ADD CONSTRAINT CK_parts_qty CHECK (qty > 5)
GO
ALTER TABLE dbo.parts ADD CONSTRAINT CK_parts_qty CHECK (qty > 0)
GO
ALTER TABLE dbo.parts ADD CONSTRAINT UQ_parts_qty UNIQUE NONCLUSTERED (qty)
GO
ALTER TABLE dbo.parts ADD CONSTRAINT UQ_parts_name UNIQUE NONCLUSTERED (name)
GO
INSERT INTO dbo.parts (id, name, qty) VALUES (5, 'nut', 1)
GO
INSERT INTO dbo.parts (id, name, qty) VALUES (5, 'screw', 0)
GO
ALTER TABLE dbo.parts ADD CONSTRAINT PK_parts_2 PRIMARY KEY NONCLUSTERED (serial)
GO
ALTER TABLE dbo.parts ADD CONSTRAINT CK_parts_qty CHECK (qty < 100)
GO
ALTER TABLE dbo.parts ADD CONSTRAINT UQ_parts_nope UNIQUE NONCLUSTERED (nope)
GO
-- A DEFAULT added afterwards serves later inserts; one per column.
ALTER TABLE dbo.parts ADD CONSTRAINT DF_parts_note DEFAULT 'n/a' FOR note
GO
ALTER TABLE dbo.parts ADD CONSTRAINT DF_parts_note2 DEFAULT 'other' FOR note
GO
ALTER TABLE dbo.parts ADD CONSTRAINT DF_parts_nope DEFAULT 1 FOR nope
GO
INSERT INTO dbo.parts (id, name, qty) VALUES (6, 'pin', 9)
GO
SELECT id, note FROM dbo.parts WHERE id = 6
GO
SELECT name, definition FROM sys.check_constraints WHERE parent_object_id = OBJECT_ID('dbo.parts')
GO

-- FOREIGN KEY: existing rows must find their keys.
CREATE TABLE dbo.stock (
    part int NOT NULL PRIMARY KEY NONCLUSTERED,
    bin varchar(5) NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.stock VALUES (1, 'A1'), (9, 'Z9')
GO
ALTER TABLE dbo.stock ADD CONSTRAINT FK_stock_parts FOREIGN KEY (part) REFERENCES dbo.parts (id)
GO
DELETE FROM dbo.stock WHERE part = 9
GO
ALTER TABLE dbo.stock ADD CONSTRAINT FK_stock_parts FOREIGN KEY (part) REFERENCES dbo.parts (id)
GO
INSERT INTO dbo.stock VALUES (8, 'B2')
GO
-- The referenced table can still be rebuilt; its key cannot go.
ALTER TABLE dbo.parts ADD INDEX ix_parts_qty NONCLUSTERED (qty)
GO
INSERT INTO dbo.stock VALUES (2, 'B2')
GO
DELETE FROM dbo.parts WHERE id = 1
GO
SELECT name, OBJECT_NAME(referenced_object_id) AS referenced FROM sys.foreign_keys
GO
-- Constraints ALTER TABLE adds get object ids of their own, which
-- rebuilds keep: no two objects share one.
SELECT name, type FROM sys.objects WHERE type IN ('U', 'C', 'F') ORDER BY object_id
GO
SELECT COUNT(*) AS objects, COUNT(DISTINCT object_id) AS ids
FROM sys.objects WHERE type IN ('U', 'C', 'F')
GO

-- Indexes: ADD INDEX (hash or range), ALTER INDEX ... REBUILD with a new
-- bucket count, DROP INDEX; plans use a new index at once.
ALTER TABLE dbo.parts ADD INDEX ix_parts_weight HASH (weight) WITH (BUCKET_COUNT = 8)
GO
SELECT i.name, h.bucket_count FROM sys.hash_indexes AS h
JOIN sys.indexes AS i ON i.object_id = h.object_id AND i.index_id = h.index_id
WHERE h.object_id = OBJECT_ID('dbo.parts') ORDER BY i.name
GO
ALTER TABLE dbo.parts ALTER INDEX ix_parts_weight REBUILD WITH (BUCKET_COUNT = 1000)
GO
SELECT i.name, h.bucket_count FROM sys.hash_indexes AS h
JOIN sys.indexes AS i ON i.object_id = h.object_id AND i.index_id = h.index_id
WHERE h.object_id = OBJECT_ID('dbo.parts') ORDER BY i.name
GO
SET SHOWPLAN_TEXT ON
GO
SELECT id FROM dbo.parts WHERE weight = 10
GO
SET SHOWPLAN_TEXT OFF
GO
SELECT COUNT(*) AS weight_10 FROM dbo.parts WHERE weight = 10
GO
ALTER TABLE dbo.parts ADD INDEX ix_parts_weight NONCLUSTERED (qty)
GO
ALTER TABLE dbo.parts ADD INDEX ix_parts_x CLUSTERED (weight)
GO
ALTER TABLE dbo.parts ADD INDEX ix_parts_x NONCLUSTERED (weight) INCLUDE (qty)
GO
ALTER TABLE dbo.parts ADD INDEX ix_parts_x NONCLUSTERED (weight) WHERE weight > 0
GO
ALTER TABLE dbo.parts ALTER INDEX ix_parts_qty REBUILD WITH (BUCKET_COUNT = 16)
GO
ALTER TABLE dbo.parts ALTER INDEX ix_parts_weight REBUILD WITH (FILLFACTOR = 80)
GO
ALTER TABLE dbo.parts ALTER INDEX ix_nope REBUILD WITH (BUCKET_COUNT = 16)
GO
ALTER TABLE dbo.parts DROP INDEX ix_parts_weight
GO
ALTER TABLE dbo.parts DROP INDEX ix_parts_weight
GO
ALTER TABLE dbo.parts DROP INDEX IF EXISTS ix_parts_weight
GO
ALTER TABLE dbo.parts DROP INDEX UQ_parts_name
GO
-- CREATE INDEX and DROP INDEX are for other tables (below).
CREATE INDEX ix_parts_weight ON dbo.parts (weight)
GO
DROP INDEX ix_parts_qty ON dbo.parts
GO
SELECT name, type_desc, is_unique, is_primary_key, is_unique_constraint
FROM sys.indexes WHERE object_id = OBJECT_ID('dbo.parts') AND index_id > 0 ORDER BY name
GO

-- DROP CONSTRAINT.
ALTER TABLE dbo.parts DROP CONSTRAINT CK_parts_qty, UQ_parts_name
GO
ALTER TABLE dbo.parts DROP CONSTRAINT CK_parts_qty
GO
ALTER TABLE dbo.parts DROP CONSTRAINT IF EXISTS CK_parts_qty
GO
ALTER TABLE dbo.parts DROP CONSTRAINT PK__parts__00100000
GO
ALTER TABLE dbo.stock DROP CONSTRAINT FK_stock_parts
GO
ALTER TABLE dbo.parts DROP CONSTRAINT PK__parts__00100000
GO
ALTER TABLE dbo.parts DROP CONSTRAINT DF_parts_note
GO
INSERT INTO dbo.parts (id, name, qty) VALUES (7, 'clip', 1)
GO
SELECT id, note FROM dbo.parts WHERE id = 7
GO

-- DROP COLUMN: not while an index or constraint uses it.
ALTER TABLE dbo.parts DROP COLUMN qty
GO
ALTER TABLE dbo.parts DROP COLUMN shape
GO
ALTER TABLE dbo.parts DROP CONSTRAINT DF_parts_shape
GO
ALTER TABLE dbo.parts DROP COLUMN shape, color
GO
ALTER TABLE dbo.parts DROP COLUMN nope
GO
ALTER TABLE dbo.parts DROP COLUMN IF EXISTS nope
GO
SELECT * FROM dbo.parts ORDER BY id
GO

-- ALTER COLUMN: values convert as an assignment converts them.
ALTER TABLE dbo.parts ALTER COLUMN serial bigint NOT NULL
GO
ALTER TABLE dbo.parts ALTER COLUMN note int NULL
GO
ALTER TABLE dbo.parts ALTER COLUMN note varchar(2) NULL
GO
ALTER TABLE dbo.parts ALTER COLUMN note varchar(50) NOT NULL
GO
ALTER TABLE dbo.parts ALTER COLUMN note varchar(50) NULL
GO
ALTER TABLE dbo.parts ALTER COLUMN weight decimal(5, 1) NOT NULL
GO
UPDATE dbo.parts SET weight = 300.5 WHERE id = 2
GO
ALTER TABLE dbo.parts ALTER COLUMN weight tinyint NOT NULL
GO
UPDATE dbo.parts SET weight = 12.5 WHERE id = 2
GO
ALTER TABLE dbo.parts ALTER COLUMN weight tinyint NOT NULL
GO
ALTER TABLE dbo.parts ALTER COLUMN name varchar(20) NULL
GO
ALTER TABLE dbo.parts ALTER COLUMN nope int NULL
GO
SELECT c.name, t.name AS type, c.max_length, c.precision, c.scale, c.is_nullable
FROM sys.columns AS c JOIN sys.types AS t ON t.user_type_id = c.user_type_id
WHERE c.object_id = OBJECT_ID('dbo.parts') ORDER BY c.column_id
GO
SELECT id, weight, note, serial FROM dbo.parts ORDER BY id
GO
-- The IDENTITY counter goes on where it was.
INSERT INTO dbo.parts (id, name, qty, note) VALUES (8, 'rivet', 2, 'x')
GO
SELECT id, serial FROM dbo.parts WHERE id = 8
GO

-- Errors of the statement itself.
ALTER TABLE dbo.nope ADD a int NULL
GO
ALTER TABLE dbo.parts SET (SYSTEM_VERSIONING = OFF)
GO
CREATE TABLE dbo.bare (a int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
ALTER TABLE dbo.bare DROP COLUMN a
GO

-- A table made without MEMORY_OPTIMIZED = ON (the shape of article 001's
-- LARGE): CREATE INDEX and DROP INDEX, which SQL Server allows there.
CREATE TABLE dbo.LARGE (ID_A NUMERIC(18, 0), ID_U NUMERIC(18, 0), FILLER VARCHAR(100))
GO
INSERT INTO dbo.LARGE WITH (TABLOCK)
SELECT 2 * (RN / 4), RN % 500, REPLICATE('Z', 100)
FROM (
    SELECT TOP (4000) ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) RN
    FROM master..spt_values t1
    CROSS JOIN master..spt_values t2
) q
OPTION (MAXDOP 1)
GO
SET SHOWPLAN_TEXT ON
GO
SELECT COUNT(*) FROM dbo.LARGE WHERE ID_A = 200
GO
SET SHOWPLAN_TEXT OFF
GO
CREATE INDEX IA ON LARGE (ID_A);
CREATE INDEX IU ON LARGE (ID_U);
GO
SET SHOWPLAN_TEXT ON
GO
SELECT COUNT(*) FROM dbo.LARGE WHERE ID_A = 200
GO
SET SHOWPLAN_TEXT OFF
GO
SELECT COUNT(*) AS rows_with_200 FROM dbo.LARGE WHERE ID_A = 200
GO
SELECT name, type_desc FROM sys.indexes WHERE object_id = OBJECT_ID('dbo.LARGE') ORDER BY index_id
GO
CREATE INDEX IA ON LARGE (ID_U)
GO
CREATE UNIQUE INDEX UA ON dbo.LARGE (ID_A)
GO
CREATE CLUSTERED INDEX CA ON dbo.LARGE (ID_A)
GO
CREATE NONCLUSTERED HASH INDEX HA ON dbo.LARGE (ID_A) WITH (BUCKET_COUNT = 64)
GO
CREATE INDEX IX ON dbo.LARGE (nope)
GO
CREATE INDEX IX ON dbo.nowhere (a)
GO
ALTER TABLE dbo.LARGE ADD INDEX IX NONCLUSTERED (ID_A)
GO
ALTER TABLE dbo.LARGE ADD ID_X int NULL
GO
UPDATE dbo.LARGE SET ID_X = CAST(ID_A AS int) + CAST(ID_U AS int) * 100000
GO
CREATE UNIQUE INDEX UX ON dbo.LARGE (ID_X)
GO
DROP INDEX IA ON dbo.LARGE
GO
DROP INDEX LARGE.IU, LARGE.UX
GO
DROP INDEX IA ON dbo.LARGE
GO
DROP INDEX IF EXISTS IA ON dbo.LARGE
GO
DROP INDEX IA
GO
SELECT name, type_desc, is_unique FROM sys.indexes WHERE object_id = OBJECT_ID('dbo.LARGE') ORDER BY index_id
GO
SELECT COUNT(*) AS rows FROM dbo.LARGE
GO
