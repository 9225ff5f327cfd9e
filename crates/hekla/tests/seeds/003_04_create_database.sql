-- Seed 003: a database for in-memory objects, with sqlcmd variables for its paths.
-- fresh database
-- refused: 10794 USE master (hekla builds no catalog for master) and CREATE DATABASE of a second database: hekla serves one database per data directory ('hekla'); other databases do not exist
USE master;
GO

IF DB_ID('MemoryOptimized') IS NOT NULL
	BEGIN
		ALTER DATABASE MemoryOptimized SET SINGLE_USER WITH ROLLBACK IMMEDIATE;
		DROP DATABASE MemoryOptimized;
	END;
GO

:SETVAR DataPath "E:\Microsoft SQL Server\MSSQL14.MYSQLSERVER2017A\MSSQL\DATA\"
:SETVAR LogPath "F:\Microsoft SQL Server\MSSQL14.MYSQLSERVER2017A\MSSQL\LOG\"
CREATE DATABASE MemoryOptimized
ON PRIMARY
	   -- disk based objects
	   (
		   NAME = MemoryOptimized_data
		 , FILENAME = '$(DataPath)MemoryOptimized_data.mdf'
		 , SIZE = 5GB
	   )
-- in-memory objects
-- one filegroup with MEMORY_OPTIMIZED_DATA is needed
, FILEGROUP MemoryOptimized CONTAINS MEMORY_OPTIMIZED_DATA
	  (
		  NAME = MemoryOptimized_file
		, FILENAME = '$(DataPath)MemoryOptimized_file'
		, MAXSIZE = 5GB
	  )
-- disk based objects
LOG ON
	(
		NAME = MemoryOptimized_log
	  , FILENAME = '$(LogPath)MemoryOptimized_log.ldf'
	  , SIZE = 5GB
	);
GO
