-- Seed 004 (checkpoint processes compared): the two databases, in FULL recovery.
-- refused: 10794 CREATE DATABASE of a second database and USE master: hekla serves one database per data directory ('hekla'); other databases do not exist; the article's two databases are both hekla's one
-- error: 5011 ALTER DATABASE of a database hekla refused to create
-- error: 5069 ALTER DATABASE of a database hekla refused to create
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
