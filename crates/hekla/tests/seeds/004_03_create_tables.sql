-- Seed 004: the in-memory table and its disk-based twin. Scaled:
-- BUCKET_COUNT 40,000 instead of 40,000,000.
-- refused: 911 USE of a database the article created: hekla serves one database per data directory ('hekla'); other databases do not exist; the statements run in hekla's one database
use hkdb;
GO
CREATE TABLE dbo.HK_tbl
  (
     [ID] Int identity(1,1) Not null ,
     [Data] uniqueidentifier PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 40000) NOT NULL,
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
