-- Functions of the server, the catalog and the session: OBJECT_ID and
-- friends over sys.objects, DB_ID/DB_NAME, SCHEMA_NAME/SCHEMA_ID,
-- SERVERPROPERTY, DATABASEPROPERTYEX, USER_NAME, @@ROWCOUNT, @@ERROR,
-- @@IDENTITY / SCOPE_IDENTITY(), @@TRANCOUNT.
CREATE SCHEMA Sales
GO
CREATE TABLE Sales.orders (id int IDENTITY(1, 1) NOT NULL PRIMARY KEY NONCLUSTERED, note varchar(10) NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
SELECT CASE WHEN OBJECT_ID('Sales.orders') = (SELECT object_id FROM sys.tables WHERE name = 'orders') THEN 'same' END AS object_id,
       OBJECT_NAME(OBJECT_ID('Sales.orders')) AS name,
       OBJECT_SCHEMA_NAME(OBJECT_ID('[Sales].[orders]')) AS schema_name,
       OBJECT_ID('Sales.orders', 'U') - OBJECT_ID('hekla.Sales.orders') AS zero,
       OBJECT_ID('orders') AS not_in_dbo,
       OBJECT_ID('Sales.orders', 'V') AS not_a_view,
       OBJECT_ID('tempdb..#t') AS temp
GO
SELECT DB_ID() AS db_id, DB_NAME() AS db_name, DB_ID('master') AS master_id, DB_NAME(1) AS master_name, DB_NAME(99) AS none
GO
SELECT SCHEMA_NAME() AS default_schema, SCHEMA_NAME(SCHEMA_ID('Sales')) AS sales, SCHEMA_ID('nope') AS none
GO
SELECT SERVERPROPERTY('ProductVersion') AS version, SERVERPROPERTY('IsXTPSupported') AS xtp,
       SERVERPROPERTY('NoSuchProperty') AS unknown, DATABASEPROPERTYEX('hekla', 'Status') AS status,
       DATABASEPROPERTYEX('hekla', 'Collation') AS collation, USER_NAME() AS user_name, SUSER_SNAME() AS login
GO
-- The embedded API has no client: no program or host name.
SELECT APP_NAME() AS app, HOST_NAME() AS host
SELECT APP_NAME(1)
GO
INSERT INTO Sales.orders (note) VALUES ('a'), ('b'), ('c')
SELECT @@ROWCOUNT AS inserted, @@IDENTITY AS last_identity, SCOPE_IDENTITY() AS scope_identity, @@TRANCOUNT AS trancount
GO
SELECT 1 / 0
SELECT @@ERROR AS error_after_divide
SELECT @@ERROR AS error_after_select
GO
DECLARE @n int
UPDATE Sales.orders SET note = 'x' WHERE id > 1
SET @n = @@ROWCOUNT
SELECT @n AS updated, @@LANGUAGE AS language, @@DATEFIRST AS datefirst, @@MAX_PRECISION AS max_precision
GO
SELECT SERVERPROPERTY('EngineEdition') AS engine_edition, SERVERPROPERTY('ProductMajorVersion') AS major,
       SERVERPROPERTY('ProductMinorVersion') AS minor, SERVERPROPERTY('ProductBuild') AS build,
       SERVERPROPERTY('ProductLevel') AS level, SERVERPROPERTY('Collation') AS collation,
       CASE WHEN SERVERPROPERTY('MachineName') = @@SERVERNAME AND SERVERPROPERTY('ServerName') = @@SERVERNAME THEN 'same' END AS names,
       SERVERPROPERTY('InstanceName') AS default_instance
GO
SELECT @@SPID - @@SPID AS zero, LEN(@@VERSION) - LEN(@@VERSION) AS also_zero
GO
SELECT @@NOSUCHTHING
GO
SELECT OBJECT_ID()
GO
