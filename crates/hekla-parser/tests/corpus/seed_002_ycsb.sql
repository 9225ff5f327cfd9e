-- Seed: YCSB key-value table (disk-based and memory-optimized variants) and the database option, from article 002 (Testing performance of Azure SQL Database as a key-value store).
-- The article's CRLF line endings were normalized to LF; trailing spaces after the commas are kept.
-- Note: FIELD9 is followed directly by 'CONSTRAINT pk_usertable PRIMARY KEY (...)' without a comma, exactly as
-- the article prints it (SQL Server accepts a table constraint without the separating comma).
-- Disk-based usertable (Test workload)
CREATE TABLE usertable (
YCSB_KEY varchar(255) NOT NULL,
FIELD0 varchar(100) NOT NULL, 
FIELD1 varchar(100) NOT NULL, 
FIELD2 varchar(100) NOT NULL, 
FIELD3 varchar(100) NOT NULL, 
FIELD4 varchar(100) NOT NULL, 
FIELD5 varchar(100) NOT NULL, 
FIELD6 varchar(100) NOT NULL, 
FIELD7 varchar(100) NOT NULL, 
FIELD8 varchar(100) NOT NULL, 
FIELD9 varchar(100) NOT NULL
CONSTRAINT pk_usertable PRIMARY KEY (YCSB_KEY)
);
GO
-- Memory-optimized usertable with a hash primary key (Mid-range database)
CREATE TABLE usertable
(
YCSB_KEY varchar(255) NOT NULL,
FIELD0 varchar(100) NOT NULL, 
FIELD1 varchar(100) NOT NULL, 
FIELD2 varchar(100) NOT NULL, 
FIELD3 varchar(100) NOT NULL, 
FIELD4 varchar(100) NOT NULL, 
FIELD5 varchar(100) NOT NULL, 
FIELD6 varchar(100) NOT NULL, 
FIELD7 varchar(100) NOT NULL, 
FIELD8 varchar(100) NOT NULL, 
FIELD9 varchar(100) NOT NULL
CONSTRAINT pk_usertable PRIMARY KEY NONCLUSTERED HASH (YCSB_KEY) WITH (BUCKET_COUNT = 100000000)
)
WITH (MEMORY_OPTIMIZED = ON);
GO
-- Database option used for the memory-optimized tests (Appendix); written without '=' as in the article
ALTER DATABASE CURRENT SET memory_optimized_elevate_to_snapshot ON;
GO
