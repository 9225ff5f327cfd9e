-- A varchar key compared with a longer varchar (as drivers declare string
-- parameters: mssql-jdbc sends @P0 varchar(8000) or nvarchar(4000)) still
-- seeks its index: the declared length does not change how values compare.
-- Trailing spaces and case compare as on the column, and a value longer
-- than the column finds nothing. Range bounds seek the range index too; a
-- bound longer than the column leaves that end of the range open and the
-- comparison tests each row. An nvarchar against a varchar key still
-- converts the column, so it scans.
CREATE TABLE dbo.by_range (
    k varchar(10) NOT NULL PRIMARY KEY NONCLUSTERED,
    v int NOT NULL
) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.by_range VALUES ('abc', 1)
GO
CREATE TABLE dbo.usertable (
    YCSB_KEY varchar(10) NOT NULL,
    FIELD0 varchar(20) NULL,
    CONSTRAINT pk_usertable PRIMARY KEY NONCLUSTERED HASH (YCSB_KEY) WITH (BUCKET_COUNT = 64),
    INDEX ix_key NONCLUSTERED (YCSB_KEY)
) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.usertable VALUES ('abc', 'one'), ('abd', 'two'), ('xyz', 'three')
GO
SET SHOWPLAN_TEXT ON
GO
DECLARE @k varchar(8000) = 'abc'
SELECT FIELD0 FROM dbo.usertable WHERE YCSB_KEY = @k
SELECT TOP (2) FIELD0 FROM dbo.usertable WHERE YCSB_KEY >= @k ORDER BY YCSB_KEY
GO
DECLARE @n nvarchar(4000) = N'abc'
SELECT FIELD0 FROM dbo.usertable WHERE YCSB_KEY = @n
GO
SET SHOWPLAN_TEXT OFF
GO
DECLARE @k varchar(8000) = 'abc' + REPLICATE(' ', 300)
SELECT FIELD0 AS trailing_spaces FROM dbo.usertable WHERE YCSB_KEY = @k
SET @k = 'ABC'
SELECT FIELD0 AS other_case FROM dbo.usertable WHERE YCSB_KEY = @k
SET @k = REPLICATE('abc', 100)
SELECT COUNT(*) AS longer_than_the_column FROM dbo.usertable WHERE YCSB_KEY = @k
SET @k = 'abd'
SELECT FIELD0 AS range_from FROM dbo.usertable WHERE YCSB_KEY >= @k ORDER BY YCSB_KEY
GO
EXEC sp_executesql N'UPDATE dbo.usertable SET FIELD0 = @P1 WHERE YCSB_KEY = @P0',
    N'@P0 varchar(8000), @P1 varchar(8000)', 'xyz', 'updated'
SELECT YCSB_KEY, FIELD0 FROM dbo.usertable ORDER BY YCSB_KEY
GO
DECLARE @k varchar(8000) = REPLICATE('x', 300)
SELECT COUNT(*) AS range_from_longer FROM dbo.usertable WHERE YCSB_KEY >= @k
SELECT COUNT(*) AS range_to_longer FROM dbo.usertable WHERE YCSB_KEY < @k
SELECT YCSB_KEY AS between_to_longer FROM dbo.usertable WHERE YCSB_KEY BETWEEN 'abd' AND @k ORDER BY YCSB_KEY
SET @k = 'abc' + REPLICATE('z', 300)
SELECT YCSB_KEY AS after_longer FROM dbo.usertable WHERE YCSB_KEY > @k ORDER BY YCSB_KEY
SELECT YCSB_KEY AS up_to_longer FROM dbo.usertable WHERE YCSB_KEY <= @k ORDER BY YCSB_KEY
UPDATE dbo.usertable SET FIELD0 = 'never' WHERE YCSB_KEY = @k
DELETE FROM dbo.usertable WHERE YCSB_KEY = @k
BEGIN TRANSACTION
SELECT COUNT(*) AS serializable_longer FROM dbo.usertable WITH (SERIALIZABLE) WHERE YCSB_KEY = @k
COMMIT
GO
DECLARE @k varchar(8000) = 'abc'
SELECT v AS range_index_key FROM dbo.by_range WHERE k = @k
SET @k = REPLICATE('abc', 100)
SELECT COUNT(*) AS range_index_longer FROM dbo.by_range WHERE k = @k
GO
SET SHOWPLAN_TEXT ON
GO
DECLARE @k varchar(8000) = 'abc'
SELECT v FROM dbo.by_range WHERE k = @k
GO
SET SHOWPLAN_TEXT OFF
GO
