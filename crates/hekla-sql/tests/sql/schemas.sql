-- CREATE SCHEMA [AUTHORIZATION owner]: hekla's one database principal is
-- dbo (principal 1), whom every session acts as; it owns every schema.
CREATE SCHEMA Sales AUTHORIZATION dbo
GO
CREATE SCHEMA Staging AUTHORIZATION [DBO]
GO
CREATE SCHEMA Plain
GO
SELECT name, principal_id, USER_NAME(principal_id) AS owner
FROM sys.schemas WHERE name IN ('Sales', 'Staging', 'Plain') ORDER BY name
GO
CREATE SCHEMA Other AUTHORIZATION someone
GO
SELECT COUNT(*) AS other_schemas FROM sys.schemas WHERE name = 'Other'
GO
CREATE SCHEMA Sales AUTHORIZATION dbo
GO
-- Schema elements: tables and views that name the new schema are
-- created in it, as the statements after CREATE SCHEMA.
CREATE SCHEMA Books AUTHORIZATION dbo
    CREATE TABLE Books.titles (id int NOT NULL PRIMARY KEY NONCLUSTERED, title varchar(20) NULL)
    CREATE VIEW Books.short_titles AS SELECT id FROM Books.titles WHERE LEN(title) < 5
SELECT SCHEMA_NAME(schema_id) AS schema_name, name FROM sys.objects WHERE name IN ('titles', 'short_titles') ORDER BY name
GO
-- One created elsewhere (SQL Server puts an unqualified one in the new
-- schema) is refused, and nothing of the batch runs.
CREATE SCHEMA Music
    CREATE TABLE albums (id int NOT NULL PRIMARY KEY NONCLUSTERED)
GO
SELECT COUNT(*) AS music FROM sys.schemas WHERE name = 'Music'
GO
-- After a semicolon a CREATE TABLE is a statement of its own.
CREATE SCHEMA Films;
CREATE TABLE films (id int NULL)
SELECT SCHEMA_NAME(schema_id) AS schema_name FROM sys.tables WHERE name = 'films'
GO
