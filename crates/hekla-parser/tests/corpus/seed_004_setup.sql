-- Seed: database creation (MEMORY_OPTIMIZED_DATA filegroup with two containers), recovery model, backups and the HK_tbl / Disk_tbl tables, from article 004 (In-Memory OLTP Table Checkpoint Processes Performance Comparison).
-- The article's rendering joined each SSMS '/****** ... ******/' header comment and the statement after it onto
-- one line (e.g. '...*/ALTER DATABASE'); that is still valid T-SQL and is kept as rendered.
-- FIX (whole file): the article's code contains non-breaking spaces (U+00A0) in indentation and in 'TO  DISK';
-- they were replaced by ordinary spaces.
/********** Hekaton DB Creation ****************/  CREATE DATABASE HKDB
 ON
  PRIMARY(NAME = [HKDB_data],
  FILENAME = 'E:\MSSQL2014-UserData\HKDB_data.mdf', size=500MB),
  FILEGROUP [HKDB_mod_fg] CONTAINS MEMORY_OPTIMIZED_DATA
  (NAME = [HKDB_mod_dir_ckpt],
  FILENAME = 'E:\MSSQL2014-UserData\ckpt'),
  (NAME = [HKDB_mod_dir_delta],
  FILENAME = 'E:\MSSQL2014-UserLog\delta')
  LOG ON (name = [HKDB_log],
  Filename='E:\MSSQL2014-UserLog\HKDB_log.ldf', size=500MB);
GO
/**************** Ensure DB is on Full Recovery Model *******/ALTER DATABASE HKDB SET RECOVERY FULL WITH NO_WAIT
GO
/*********** Disk Database Creation ********/USE [master]
GO
/****** Object:  Database [DiskDB]    Script Date: 29/08/2015 6:25:23 PM ******/CREATE DATABASE [DiskDB]
 CONTAINMENT = NONE
 ON  PRIMARY
( NAME = N'DiskDB', FILENAME = N'E:\MSSQL2014-UserData\DiskDB.mdf' , SIZE = 1024000KB , MAXSIZE = UNLIMITED, FILEGROWTH = 1024000KB )
 LOG ON
( NAME = N'DiskDB_log', FILENAME = N'E:\MSSQL2014-UserLog\DiskDB_log.ldf' , SIZE = 512000KB , MAXSIZE = 2048GB , FILEGROWTH = 512000KB )
GO
ALTER DATABASE [DiskDB] SET RECOVERY FULL WITH NO_WAIT
GO
-- The two BACKUP statements appear in the article without a GO; one was added to end the listing's batch.
BACKUP DATABASE [DiskDB] TO  DISK = N'E:\MSSQLBackup\DiskDB.bak'
BACKUP DATABASE [HKDB] TO  DISK = N'E:\MSSQLBackup\HKDB.bak'
GO
-- The article indents the GO that ends each CREATE TABLE batch ('  GO'); normalized to 'GO' at column 1.
use hkdb;
GO
CREATE TABLE dbo.HK_tbl
  (
     [ID] Int identity(1,1) Not null ,
     [Data] uniqueidentifier PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 40000000) NOT NULL,
     [dt] datetime not null
  ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
use diskdb;
GO
CREATE TABLE dbo.Disk_tbl
  (
     [ID] Int identity(1,1) Not null ,
     [Data] uniqueidentifier PRIMARY KEY CLUSTERED,
     [dt] datetime not null
  );
GO
