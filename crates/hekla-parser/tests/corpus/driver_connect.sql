-- What drivers and tools send at connect and for metadata: SET option batches, version/edition/session probes, sp_executesql calls, catalog and INFORMATION_SCHEMA queries, mostly in lower case.
-- Classic connection-options batch (as seen from SSMS / ODBC / JDBC sessions), one option per line, no semicolons
set quoted_identifier on
set arithabort off
set numeric_roundabort off
set ansi_warnings on
set ansi_padding on
set ansi_nulls on
set concat_null_yields_null on
set cursor_close_on_commit off
set implicit_transactions off
set language us_english
set dateformat mdy
set datefirst 7
set transaction isolation level read committed
GO
-- The same options with semicolons and mixed case, plus textsize and lock timeout
SET ANSI_NULLS ON; SET ANSI_PADDING ON; SET ANSI_WARNINGS ON; SET ARITHABORT ON;
SET CONCAT_NULL_YIELDS_NULL ON; SET QUOTED_IDENTIFIER ON; SET NUMERIC_ROUNDABORT OFF;
SET TEXTSIZE 2147483647; SET LOCK_TIMEOUT -1; SET NOCOUNT ON;
GO
-- Version, edition and session probes
select @@version
GO
SELECT SERVERPROPERTY('ProductVersion');
SELECT SERVERPROPERTY('ProductLevel'), SERVERPROPERTY('Edition'), SERVERPROPERTY(N'MachineName');
SELECT CAST(SERVERPROPERTY('EngineEdition') AS int);
select cast(serverproperty('ProductVersion') as varchar(128)) as version
GO
select db_name()
GO
SELECT @@SPID;
SELECT @@TRANCOUNT;
select @@servername, @@language, @@max_precision, @@textsize, @@options, @@lock_timeout;
select schema_name(), user_name(), suser_sname(), original_login(), is_srvrolemember('sysadmin');
select 1
GO
-- SSMS-style engine probe with a local variable and a string column alias
declare @edition sysname;
set @edition = cast(serverproperty(N'EDITION') as sysname);
select case when @edition = N'SQL Azure' then 2 else 1 end as 'DatabaseEngineType',
       serverproperty('EngineEdition') as DatabaseEngineEdition,
       serverproperty('ProductVersion') as ProductVersion,
       @@microsoftversion as MicrosoftVersion;
GO
-- Transaction state checks drivers send around pooled connections
IF @@TRANCOUNT > 0 ROLLBACK TRAN
GO
select case when @@trancount > 0 then 1 else 0 end, xact_state()
GO
-- Parameterized statements sent over RPC as sp_executesql
exec sp_executesql N'SELECT * FROM t WHERE id = @P0', N'@P0 int', 5
GO
exec sp_executesql N'SELECT name, value FROM dbo.settings WHERE name = @P0 AND scope = @P1',
    N'@P0 nvarchar(4000),@P1 int', N'timeout', 2
GO
EXEC sp_executesql N'UPDATE usertable SET FIELD1 = @P0 WHERE YCSB_KEY = @P1', N'@P0 varchar(8000),@P1 varchar(8000)', @P0 = 'x', @P1 = 'user1';
GO
-- Catalog queries
SELECT name FROM sys.databases
GO
select dtb.name as [Name], dtb.database_id as [ID],
       cast(case when dtb.name in ('master', 'model', 'msdb', 'tempdb') then 1 else dtb.is_distributor end as bit) as [IsSystemObject]
from master.sys.databases as dtb
order by [Name] asc
GO
select s.name as schema_name, t.name as table_name, t.is_memory_optimized, t.durability_desc
from sys.tables t join sys.schemas s on s.schema_id = t.schema_id
where t.type = 'U'
order by 1, 2
GO
select c.name, ty.name as type_name, c.max_length, c.precision, c.scale, c.is_nullable, c.is_identity
from sys.columns c
join sys.types ty on ty.user_type_id = c.user_type_id
where c.object_id = object_id(N'dbo.usertable')
order by c.column_id
GO
SELECT default_schema_name FROM sys.database_principals WHERE principal_id = DATABASE_PRINCIPAL_ID()
GO
-- INFORMATION_SCHEMA queries
SELECT TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE
FROM INFORMATION_SCHEMA.TABLES
WHERE TABLE_TYPE = 'BASE TABLE'
ORDER BY TABLE_SCHEMA, TABLE_NAME;
GO
select COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH, IS_NULLABLE, COLUMN_DEFAULT
from INFORMATION_SCHEMA.COLUMNS
where TABLE_SCHEMA = 'dbo' and TABLE_NAME = 'usertable'
order by ORDINAL_POSITION
GO
SELECT [INFORMATION_SCHEMA].[TABLES].[TABLE_NAME]
FROM [INFORMATION_SCHEMA].[TABLES]
WHERE [INFORMATION_SCHEMA].[TABLES].[TABLE_SCHEMA] = CAST(N'dbo' AS NVARCHAR(max))
  AND [INFORMATION_SCHEMA].[TABLES].[TABLE_TYPE] = CAST(N'BASE TABLE' AS NVARCHAR(max))
ORDER BY [INFORMATION_SCHEMA].[TABLES].[TABLE_NAME]
GO
select kcu.COLUMN_NAME
from INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc
join INFORMATION_SCHEMA.KEY_COLUMN_USAGE kcu
  on kcu.CONSTRAINT_NAME = tc.CONSTRAINT_NAME and kcu.TABLE_SCHEMA = tc.TABLE_SCHEMA
where tc.CONSTRAINT_TYPE = 'PRIMARY KEY' and tc.TABLE_NAME = 'usertable'
GO
-- Metadata procedures used by JDBC DatabaseMetaData / ODBC catalog functions
EXEC sp_tables @table_name = N'usertable', @table_owner = N'dbo', @table_qualifier = NULL, @table_type = N'''TABLE''', @fUsePattern = 1
GO
exec sp_columns_100 N'usertable', N'dbo', NULL, NULL, @ODBCVer = 3, @fUsePattern = 1
GO
exec sp_pkeys @table_name = N'usertable', @table_owner = N'dbo'
GO
exec sp_server_info
GO
