-- The one database hekla serves, named hekla: USE, three-part names,
-- DB_NAME/DB_ID, CREATE and DROP DATABASE.
SELECT DB_NAME() AS name, DB_ID() AS id, DB_ID('hekla') AS by_name, DB_ID('HEKLA') AS any_case,
       DB_NAME(5) AS five, DB_NAME(1) AS one, DB_ID('master') AS master_id,
       DB_ID('MemoryOptimized') AS unknown, DB_NAME(2) AS tempdb_not_kept
SELECT name, database_id FROM sys.databases ORDER BY database_id
GO
USE hekla
GO
USE [hekla]
GO
USE master
GO
USE tempdb
GO
USE otherdb
GO
SELECT DB_NAME() AS still_hekla
GO
-- Three-part names of the current database resolve as two-part ones.
CREATE TABLE hekla.dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE hekla..u (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT hekla.dbo.t VALUES (1, 10)
INSERT INTO hekla..t (id, v) VALUES (2, 20)
INSERT [hekla].[dbo].[u] VALUES (7)
UPDATE hekla.dbo.t SET v = v + 1 WHERE id = 1
DELETE hekla..t WHERE id = 2
SELECT t.id, t.v, hekla.dbo.t.v AS qualified FROM hekla.dbo.t AS t
SELECT id FROM HEKLA..u
SELECT CASE WHEN OBJECT_ID('hekla.dbo.t') = OBJECT_ID('dbo.t') THEN 'same' END AS three_part,
       CASE WHEN OBJECT_ID('hekla..u') = OBJECT_ID('u') THEN 'same' END AS omitted_schema,
       OBJECT_ID('otherdb.dbo.t') AS other_database,
       OBJECT_NAME(OBJECT_ID('[hekla].dbo.t')) AS name_back
GO
CREATE VIEW dbo.v AS SELECT id FROM hekla.dbo.t
GO
-- but CREATE VIEW, PROCEDURE, FUNCTION and TYPE take no database prefix at all.
CREATE VIEW hekla.dbo.v2 AS SELECT 1 AS one
GO
SELECT id FROM hekla.dbo.v
GO
-- Another database's objects do not exist.
SELECT * FROM otherdb.dbo.t
GO
INSERT otherdb.dbo.t VALUES (1, 1)
GO
CREATE TABLE otherdb.dbo.t (a int)
GO
CREATE TABLE master.dbo.t (a int)
GO
-- master's system objects stay reachable from here.
SELECT COUNT(*) AS numbers FROM master..spt_values WHERE type = 'P'
SELECT name FROM master.sys.databases WHERE database_id = 1
GO
DROP VIEW hekla.dbo.v
SELECT OBJECT_ID('dbo.v') AS view_dropped
DROP TABLE hekla.dbo.t
DROP TABLE hekla..u
SELECT OBJECT_ID('hekla.dbo.t') AS dropped
GO
-- The seed scripts' guard: DB_ID is NULL for a database that does not exist.
IF DB_ID('MemoryOptimized') IS NOT NULL
BEGIN
    ALTER DATABASE MemoryOptimized SET SINGLE_USER WITH ROLLBACK IMMEDIATE
    DROP DATABASE MemoryOptimized
END
PRINT 'guard passed'
GO
DROP DATABASE IF EXISTS MemoryOptimized
DROP DATABASE MemoryOptimized
GO
DROP DATABASE hekla
GO
DROP DATABASE master
GO
CREATE DATABASE hekla
GO
CREATE DATABASE MemoryOptimized
GO
BEGIN TRANSACTION
CREATE DATABASE x
GO
DROP DATABASE x
GO
ROLLBACK
GO
-- The articles' database setup parses in full, then is answered for the
-- one database hekla serves.
CREATE DATABASE imoltp ON PRIMARY (NAME = imoltp_data, FILENAME = 'C:\data\imoltp.mdf', SIZE = 5GB),
FILEGROUP imoltp_mod CONTAINS MEMORY_OPTIMIZED_DATA
    (NAME = imoltp_mod1, FILENAME = 'C:\data\imoltp_mod1', MAXSIZE = 5GB),
    (NAME = imoltp_mod2, FILENAME = 'C:\data\imoltp_mod2')
LOG ON (NAME = imoltp_log, FILENAME = 'C:\data\imoltp_log.ldf', SIZE = 5GB)
GO
CREATE DATABASE hekla CONTAINMENT = NONE
ON PRIMARY (NAME = N'hekla', FILENAME = N'/data/hekla.mdf', SIZE = 1024000KB, MAXSIZE = UNLIMITED, FILEGROWTH = 1024000KB)
LOG ON (NAME = N'hekla_log', FILENAME = N'/data/hekla_log.ldf', SIZE = 1024000KB, MAXSIZE = 2048GB, FILEGROWTH = 10%)
GO
ALTER DATABASE hekla ADD FILEGROUP hekla_mod2 CONTAINS MEMORY_OPTIMIZED_DATA
GO
ALTER DATABASE CURRENT ADD FILE (NAME = 'hekla_mod2', FILENAME = '/data/hekla_mod2') TO FILEGROUP hekla_mod
GO
ALTER DATABASE CURRENT ADD FILEGROUP rows_fg
GO
SELECT name, type, type_desc FROM sys.filegroups
SELECT COUNT(*) AS files_in_memory FROM sys.database_files
GO
-- RECOVERY and the user access: kept, and DATABASEPROPERTYEX agrees.
ALTER DATABASE CURRENT SET RECOVERY FULL WITH NO_WAIT
SELECT name, recovery_model, recovery_model_desc, user_access, user_access_desc, state_desc,
       CAST(DATABASEPROPERTYEX(name, 'Recovery') AS varchar(20)) AS recovery,
       CAST(DATABASEPROPERTYEX(name, 'UserAccess') AS varchar(20)) AS access,
       CAST(DATABASEPROPERTYEX(name, 'Status') AS varchar(20)) AS status,
       CAST(DATABASEPROPERTYEX(name, 'Updateability') AS varchar(20)) AS updateability
FROM sys.databases ORDER BY database_id
GO
ALTER DATABASE hekla SET RECOVERY BULK_LOGGED
ALTER DATABASE hekla SET SINGLE_USER WITH ROLLBACK IMMEDIATE
SELECT recovery_model_desc, user_access_desc FROM sys.databases WHERE database_id = DB_ID()
ALTER DATABASE hekla SET RESTRICTED_USER
SELECT CAST(DATABASEPROPERTYEX('hekla', 'UserAccess') AS varchar(20)) AS access
ALTER DATABASE hekla SET MULTI_USER
ALTER DATABASE hekla SET RECOVERY SIMPLE
SELECT recovery_model_desc, user_access_desc FROM sys.databases WHERE database_id = DB_ID()
SELECT DATABASEPROPERTYEX('nosuch', 'Recovery') AS unknown_database,
       DATABASEPROPERTYEX('hekla', 'NoSuchProperty') AS unknown_property
GO
ALTER DATABASE hekla SET RECOVERY PARTIAL
GO
ALTER DATABASE hekla SET SINGLE_USER = ON
GO
BEGIN TRANSACTION
ALTER DATABASE hekla SET RECOVERY FULL
ROLLBACK
GO
-- No USE inside a procedure or function (Msg 154, when it is created).
CREATE PROCEDURE dbo.uses AS
SELECT 1
USE hekla
GO
CREATE FUNCTION dbo.f_uses() RETURNS int AS
BEGIN
    USE hekla
    RETURN 1
END
GO
SELECT OBJECT_ID('dbo.uses') AS not_created
GO
EXEC (N'USE hekla SELECT DB_NAME() AS in_dynamic_sql')
GO
