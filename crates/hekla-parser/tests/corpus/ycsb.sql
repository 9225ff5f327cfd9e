-- YCSB key-value workload as a SQL Server client (JDBC binding) sends it: usertable DDL, read/scan/insert/update/delete with named @Pn parameters, elevate-to-snapshot option.
-- Memory-optimized usertable with a hash primary key (durable)
CREATE TABLE usertable
(
    YCSB_KEY VARCHAR(255) NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 16777216),
    FIELD0 VARCHAR(100), FIELD1 VARCHAR(100), FIELD2 VARCHAR(100), FIELD3 VARCHAR(100), FIELD4 VARCHAR(100),
    FIELD5 VARCHAR(100), FIELD6 VARCHAR(100), FIELD7 VARCHAR(100), FIELD8 VARCHAR(100), FIELD9 VARCHAR(100)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
-- Non-durable variant, and a variant with a range (nonclustered) index for scans
DROP TABLE IF EXISTS dbo.usertable_transient;
CREATE TABLE dbo.usertable_transient (
  YCSB_KEY varchar(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
  FIELD0 varchar(100) NOT NULL, FIELD1 varchar(100) NOT NULL, FIELD2 varchar(100) NOT NULL,
  FIELD3 varchar(100) NOT NULL, FIELD4 varchar(100) NOT NULL, FIELD5 varchar(100) NOT NULL,
  FIELD6 varchar(100) NOT NULL, FIELD7 varchar(100) NOT NULL, FIELD8 varchar(100) NOT NULL,
  FIELD9 varchar(100) NOT NULL,
  CONSTRAINT pk_usertable_transient PRIMARY KEY NONCLUSTERED HASH (YCSB_KEY) WITH (BUCKET_COUNT=1000000000),
  INDEX ix_usertable_transient_key NONCLUSTERED (YCSB_KEY ASC)
) WITH (MEMORY_OPTIMIZED=ON, DURABILITY=SCHEMA_ONLY);
GO
ALTER DATABASE CURRENT SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON;
GO
-- read: all fields (the parameter values are bound by the driver; declared here so the batch is self-contained)
DECLARE @P0 varchar(255) = 'user6284781860667377211';
SELECT * FROM usertable WHERE YCSB_KEY = @P0;
GO
-- read: a field list
DECLARE @P0 varchar(255) = 'user6284781860667377211';
SELECT FIELD0, FIELD3, FIELD9 FROM usertable WHERE YCSB_KEY = @P0
GO
-- scan: TOP (@P1) from a start key, ordered
DECLARE @P0 varchar(255) = 'user1', @P1 int = 100;
SELECT TOP (@P1) * FROM usertable WHERE YCSB_KEY >= @P0 ORDER BY YCSB_KEY;
SELECT TOP (@P1) YCSB_KEY, FIELD0, FIELD1 FROM usertable WHERE YCSB_KEY >= @P0 ORDER BY YCSB_KEY ASC;
GO
-- insert: all eleven columns as parameters
DECLARE @P0 varchar(255) = 'user1', @P1 varchar(100) = 'a', @P2 varchar(100) = 'b', @P3 varchar(100) = 'c',
        @P4 varchar(100) = 'd', @P5 varchar(100) = 'e', @P6 varchar(100) = 'f', @P7 varchar(100) = 'g',
        @P8 varchar(100) = 'h', @P9 varchar(100) = 'i', @P10 varchar(100) = 'j';
INSERT INTO usertable (YCSB_KEY,FIELD0,FIELD1,FIELD2,FIELD3,FIELD4,FIELD5,FIELD6,FIELD7,FIELD8,FIELD9)
VALUES (@P0,@P1,@P2,@P3,@P4,@P5,@P6,@P7,@P8,@P9,@P10);
INSERT INTO usertable VALUES (@P0,@P1,@P2,@P3,@P4,@P5,@P6,@P7,@P8,@P9,@P10)
GO
-- update: one field, and several fields
DECLARE @P0 varchar(100) = 'new value', @P1 varchar(255) = 'user1', @P2 varchar(255) = 'user2';
UPDATE usertable SET FIELD1 = @P0 WHERE YCSB_KEY = @P1;
UPDATE usertable SET FIELD0 = @P0, FIELD9 = @P0 WHERE YCSB_KEY = @P2;
GO
-- delete
DECLARE @P0 varchar(255) = 'user1';
DELETE FROM usertable WHERE YCSB_KEY = @P0;
GO
-- The same statements in the form the driver sends over RPC: sp_executesql with a parameter declaration list
EXEC sp_executesql N'SELECT * FROM usertable WHERE YCSB_KEY = @P0', N'@P0 varchar(8000)', 'user6284781860667377211';
EXEC sp_executesql N'SELECT TOP (@P1) * FROM usertable WHERE YCSB_KEY >= @P0 ORDER BY YCSB_KEY',
     N'@P0 varchar(8000),@P1 int', @P0 = 'user1', @P1 = 100;
EXEC sp_executesql N'UPDATE usertable SET FIELD1 = @P0 WHERE YCSB_KEY = @P1', N'@P0 varchar(8000),@P1 varchar(8000)', 'v', 'user1';
exec sp_executesql N'DELETE FROM usertable WHERE YCSB_KEY = @P0',N'@P0 varchar(8000)',N'user1'
GO
-- Batched load (jdbc.batchupdateapi): several inserts in one explicit transaction
BEGIN TRANSACTION;
INSERT INTO usertable (YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9)
VALUES ('user1', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'),
       ('user2', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j');
INSERT INTO usertable (YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9)
VALUES ('user3', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j');
COMMIT TRANSACTION;
GO
-- Natively compiled read and update procedures a key-value application could call instead
CREATE PROCEDURE dbo.ycsb_read @key varchar(255)
WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9
    FROM dbo.usertable WHERE YCSB_KEY = @key;
END
GO
CREATE PROCEDURE dbo.ycsb_update @key varchar(255), @value varchar(100)
WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english', DELAYED_DURABILITY = ON)
    UPDATE dbo.usertable SET FIELD1 = @value WHERE YCSB_KEY = @key;
END
GO
EXEC dbo.ycsb_read @key = 'user1';
EXEC dbo.ycsb_update 'user1', 'v2';
GO
DROP PROCEDURE IF EXISTS dbo.ycsb_read, dbo.ycsb_update;
DROP TABLE IF EXISTS usertable, dbo.usertable_transient;
GO
