-- IDENTITY columns and sequences: generated values, explicit values
-- refused, values never reused (not even after a failed statement),
-- exhaustion, and the catalog views that show them.
CREATE TABLE dbo.tickets (
    id int IDENTITY(100, 10) NOT NULL PRIMARY KEY NONCLUSTERED,
    title varchar(20) NOT NULL CHECK (title <> ''),
    code bigint NULL
)
GO
INSERT INTO dbo.tickets (title) VALUES ('first'), ('second')
INSERT INTO dbo.tickets VALUES ('third', 3)
INSERT INTO dbo.tickets DEFAULT VALUES
INSERT INTO dbo.tickets (title) VALUES ('')
INSERT INTO dbo.tickets (title) SELECT 'copy of ' + title FROM dbo.tickets WHERE id = 100
GO
SELECT id, title, code FROM dbo.tickets ORDER BY id
GO
INSERT INTO dbo.tickets (id, title) VALUES (1, 'explicit')
GO
INSERT INTO dbo.tickets VALUES (1, 'explicit', NULL)
GO
INSERT INTO dbo.tickets SELECT 1, 'explicit', NULL
GO
UPDATE dbo.tickets SET id = 1 WHERE id = 100
GO
SELECT name, is_identity, is_nullable FROM sys.columns WHERE object_id = (SELECT object_id FROM sys.tables WHERE name = 'tickets') ORDER BY column_id
GO
SELECT name, seed_value, increment_value, last_value FROM sys.identity_columns
GO
CREATE TABLE dbo.tiny (id tinyint IDENTITY(250, 5) NOT NULL, v int NULL)
GO
INSERT INTO dbo.tiny (v) VALUES (1), (2)
GO
INSERT INTO dbo.tiny (v) VALUES (3)
GO
SELECT id, v FROM dbo.tiny
GO
CREATE TABLE dbo.bad1 (a int IDENTITY, b int IDENTITY)
GO
CREATE TABLE dbo.bad2 (a varchar(5) IDENTITY)
GO
CREATE TABLE dbo.bad3 (a int IDENTITY NULL)
GO
CREATE TABLE dbo.bad4 (a int IDENTITY(1, 0))
GO
CREATE TABLE dbo.bad5 (a int IDENTITY DEFAULT 5)
GO
CREATE TABLE dbo.bad6 (a int IDENTITY(5, 1) PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE dbo.mo (a int IDENTITY(1, 1) PRIMARY KEY NONCLUSTERED, b int NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.mo (b) VALUES (7), (8)
SELECT a, b FROM dbo.mo
GO

-- Sequences.
CREATE SEQUENCE dbo.counter AS int START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE 3
GO
SELECT NEXT VALUE FOR dbo.counter AS a
SELECT NEXT VALUE FOR counter AS b
GO
SELECT name, start_value, increment, minimum_value, maximum_value, is_cycling, is_cached, cache_size, current_value, is_exhausted FROM sys.sequences
GO
SELECT NEXT VALUE FOR dbo.counter AS c
GO
SELECT NEXT VALUE FOR dbo.counter AS d
GO
SELECT current_value, is_exhausted FROM sys.sequences
GO
CREATE SEQUENCE dbo.ring AS smallint START WITH 2 INCREMENT BY -1 MINVALUE 1 MAXVALUE 3 CYCLE NO CACHE
GO
DECLARE @a smallint = NEXT VALUE FOR dbo.ring, @b smallint, @c smallint, @d smallint
SET @b = NEXT VALUE FOR dbo.ring
SET @c = NEXT VALUE FOR dbo.ring
SET @d = NEXT VALUE FOR dbo.ring
SELECT @a AS a, @b AS b, @c AS c, @d AS d
GO
-- A sequence as a DEFAULT; a failed INSERT still uses up its value.
CREATE SEQUENCE dbo.order_numbers START WITH 1000 INCREMENT BY 5
GO
CREATE TABLE dbo.numbered (n bigint NOT NULL DEFAULT NEXT VALUE FOR dbo.order_numbers, note varchar(10) NOT NULL CHECK (note <> 'x'))
GO
INSERT INTO dbo.numbered (note) VALUES ('a'), ('b')
INSERT INTO dbo.numbered (note) VALUES ('x')
INSERT INTO dbo.numbered (n, note) VALUES (NEXT VALUE FOR dbo.order_numbers, 'c')
INSERT INTO dbo.numbered (note) SELECT 'd'
SELECT n, note FROM dbo.numbered ORDER BY n
GO
SELECT name, system_type_id, [precision], start_value, current_value FROM sys.sequences ORDER BY name
GO
DROP SEQUENCE dbo.order_numbers
GO
DROP TABLE dbo.numbered
DROP SEQUENCE dbo.order_numbers, dbo.ring
DROP SEQUENCE IF EXISTS dbo.ring
GO
DROP SEQUENCE dbo.ring
GO
SELECT NEXT VALUE FOR dbo.nope
GO
SELECT NEXT VALUE FOR dbo.tickets
GO
CREATE TABLE dbo.bad7 (a int CHECK (a <> NEXT VALUE FOR dbo.counter))
GO
SELECT (SELECT NEXT VALUE FOR dbo.counter) AS sub
GO
CREATE SEQUENCE dbo.counter
GO
CREATE SEQUENCE dbo.s1 AS varchar(10)
GO
CREATE SEQUENCE dbo.s2 INCREMENT BY 0
GO
CREATE SEQUENCE dbo.s3 MINVALUE 10 MAXVALUE 5
GO
CREATE SEQUENCE dbo.s4 START WITH 50 MAXVALUE 10
GO
CREATE SEQUENCE dbo.s5 AS tinyint START WITH 300
GO
CREATE SEQUENCE dbo.s6 CACHE 0
GO
CREATE SEQUENCE dbo.s7 START WITH 1 START WITH 2
GO
CREATE SEQUENCE dbo.s8 AS tinyint INCREMENT BY 200 MAXVALUE 100
GO
CREATE SEQUENCE dbo.s10 AS tinyint INCREMENT BY -1
GO
CREATE SEQUENCE dbo.s9
GO
SELECT NEXT VALUE FOR dbo.s9 AS first_bigint
GO
