-- Seed 002, the mid-range test: usertable as a memory-optimized table with a
-- hash primary key (a new database, as the article's tests each had one).
-- Scaled: BUCKET_COUNT 100,000 instead of 100,000,000.
-- fresh database
-- error: 2627 the check's second insert of key 'user1' violates the primary key, as in SQL Server
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
CONSTRAINT pk_usertable PRIMARY KEY NONCLUSTERED HASH (YCSB_KEY) WITH (BUCKET_COUNT = 100000)
)
WITH (MEMORY_OPTIMIZED = ON);
GO
-- Checks (not in the article): the hash key is YCSB_KEY with 131,072
-- buckets, and YCSB's three statements (insert, read, update) work on it.
SELECT i.name, s.total_bucket_count
FROM sys.hash_indexes AS i
    INNER JOIN sys.dm_db_xtp_hash_index_stats AS s ON s.object_id = i.object_id AND s.index_id = i.index_id
WHERE i.object_id = OBJECT_ID('usertable')
INSERT INTO usertable (YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9)
VALUES ('user1', 'a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9')
INSERT INTO usertable (YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9)
VALUES ('user1', 'b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9')
UPDATE usertable SET FIELD3 = 'updated' WHERE YCSB_KEY = 'user1'
SELECT YCSB_KEY, FIELD0, FIELD3, FIELD9 FROM usertable WHERE YCSB_KEY = 'user1'
GO
