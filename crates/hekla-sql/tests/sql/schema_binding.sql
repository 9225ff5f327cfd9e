-- Schema binding: a natively compiled module (always schema-bound) holds
-- the tables, functions and procedures it names, and the columns it reads.
CREATE TABLE dbo.acct (id int NOT NULL PRIMARY KEY NONCLUSTERED, balance int NOT NULL, note nvarchar(20) NULL, spare int NULL) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.audit (id int NOT NULL PRIMARY KEY NONCLUSTERED, amount int NOT NULL, extra int NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE FUNCTION dbo.doubled (@a int) RETURNS int WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  RETURN @a * 2
END
GO
CREATE PROCEDURE dbo.balance_of @id int WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  SELECT dbo.doubled(balance) AS doubled FROM dbo.acct WHERE id = @id
END
GO
-- Inserts without a column list: every column of dbo.audit is read.
CREATE PROCEDURE dbo.record @id int, @amount int WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
  INSERT INTO dbo.audit VALUES (@id, @amount, NULL)
  EXEC dbo.balance_of @id
END
GO
INSERT INTO dbo.acct VALUES (1, 10, N'first', NULL)
EXEC dbo.record 1, 5
GO
-- The table, the function and the procedure cannot be dropped.
DROP TABLE dbo.acct
GO
DROP FUNCTION dbo.doubled
GO
DROP PROCEDURE dbo.balance_of
GO
-- A column a module reads can be neither dropped nor altered (5074 for
-- each module, then 4922).
ALTER TABLE dbo.acct DROP COLUMN balance
GO
ALTER TABLE dbo.acct ALTER COLUMN balance bigint NOT NULL
GO
ALTER TABLE dbo.audit DROP COLUMN extra
GO
-- Columns no module reads can; columns and indexes can be added, and the
-- modules are compiled again over the new shape.
ALTER TABLE dbo.acct DROP COLUMN spare
GO
ALTER TABLE dbo.acct ALTER COLUMN note nvarchar(40) NULL
GO
ALTER TABLE dbo.acct ADD opened int NULL
GO
ALTER TABLE dbo.acct ADD INDEX ix_balance NONCLUSTERED (balance)
GO
EXEC dbo.balance_of 1
SELECT id, amount, extra FROM dbo.audit
GO
-- Once the referencing modules are gone, so is the binding.
DROP PROCEDURE dbo.record
GO
ALTER TABLE dbo.audit DROP COLUMN extra
DROP TABLE dbo.audit
DROP PROCEDURE dbo.balance_of
DROP FUNCTION dbo.doubled
ALTER TABLE dbo.acct DROP INDEX ix_balance
ALTER TABLE dbo.acct DROP COLUMN balance
DROP TABLE dbo.acct
GO
SELECT name FROM sys.objects WHERE type IN ('U', 'P', 'FN') ORDER BY name
GO
-- An interpreted procedure WITH SCHEMABINDING holds what it names too;
-- a view WITH SCHEMABINDING holds only the columns it reads.
CREATE TABLE dbo.d (a int NOT NULL, b int NULL, c int NULL)
GO
CREATE PROCEDURE dbo.read_a WITH SCHEMABINDING AS SELECT a FROM dbo.d
GO
CREATE VIEW dbo.v_b WITH SCHEMABINDING AS SELECT b FROM dbo.d
GO
ALTER TABLE dbo.d DROP COLUMN a
GO
ALTER TABLE dbo.d DROP COLUMN b
GO
ALTER TABLE dbo.d DROP COLUMN c
GO
DROP TABLE dbo.d
GO
SELECT name FROM sys.columns WHERE object_id = OBJECT_ID('dbo.d') ORDER BY column_id
GO
