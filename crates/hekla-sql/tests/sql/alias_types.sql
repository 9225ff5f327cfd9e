-- Alias types: CREATE TYPE name FROM base [NULL | NOT NULL], used as
-- column, variable and CAST types; a column's nullability comes from the
-- type unless the column says; DROP TYPE while a column uses it is 3732.
CREATE TYPE dbo.Flag FROM bit NOT NULL
CREATE TYPE Code FROM varchar(5)
CREATE TYPE dbo.Amount FROM decimal(10, 2) NULL
CREATE TYPE dbo.Tag FROM nvarchar
GO
CREATE TABLE dbo.items (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    active dbo.Flag,
    code Code COLLATE Latin1_General_BIN2,
    price Amount NOT NULL,
    maybe Flag NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.items (id, active, code, price) VALUES (1, 1, 'ab', 9.999)
INSERT INTO dbo.items (id, code, price) VALUES (2, 'cd', 1)
INSERT INTO dbo.items (id, active, code, price) VALUES (3, 0, 'toolong', 1)
INSERT INTO dbo.items (id, active, code, price) VALUES (4, 0, 'AB', 2)
SELECT id, active, code, price, maybe FROM dbo.items ORDER BY id
GO
-- ALTER TABLE rebuilds the table from its definition, alias types and all.
ALTER TABLE dbo.items ADD extra dbo.Amount
GO
-- sys.columns gives each column its alias type's user_type_id.
SELECT c.name, t.name AS type, t.is_user_defined, c.max_length, c.precision, c.scale,
    c.collation_name, c.is_nullable
FROM sys.columns AS c JOIN sys.types AS t ON t.user_type_id = c.user_type_id
WHERE c.object_id = OBJECT_ID('dbo.items')
ORDER BY c.column_id
SELECT t.name, SCHEMA_NAME(t.schema_id) AS [schema], b.name AS base, t.max_length, t.precision,
    t.scale, t.is_nullable, t.is_user_defined, t.is_table_type
FROM sys.types AS t JOIN sys.types AS b ON b.user_type_id = t.system_type_id
WHERE t.is_user_defined = 1
ORDER BY t.name
GO
-- Variables and CAST / CONVERT.
DECLARE @f Flag = 1, @c dbo.Code = 'abcdefgh', @a Amount
SET @a = 12.345
SELECT @f AS f, @c AS c, @a AS a, CAST('3.14159' AS dbo.Amount) AS pi, CONVERT(Code, 123456789) AS code
DECLARE @t dbo.Tag = N'xyz'
SELECT @t AS t, LEN(@t) AS len
GO
-- Errors: a width on an alias type, an alias of an alias, a taken name.
CREATE TABLE dbo.bad (a dbo.Code(3))
GO
DECLARE @v Flag(1)
GO
CREATE TYPE dbo.Flag2 FROM dbo.Flag
GO
CREATE TYPE dbo.Nothing FROM nosuchtype
GO
CREATE TYPE dbo.Flag FROM int
GO
-- A table type may use an alias type; its variables follow the alias's
-- nullability too.
CREATE TYPE dbo.flags AS TABLE (id int NOT NULL, f Flag)
GO
DECLARE @fs dbo.flags
INSERT INTO @fs VALUES (1, 1)
INSERT INTO @fs (id) VALUES (2)
SELECT id, f FROM @fs
GO
-- DROP TYPE refuses a type a table or table type uses (3732).
DROP TYPE dbo.Flag
GO
DROP TABLE dbo.items
DROP TYPE Flag
GO
DROP TYPE dbo.flags
DROP TYPE dbo.Flag
GO
SELECT name FROM sys.types WHERE is_user_defined = 1 ORDER BY name
GO
