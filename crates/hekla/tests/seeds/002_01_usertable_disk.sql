-- Seed 002 (Azure SQL Database as a key-value store): YCSB's table as the
-- article declares it for the disk-based runs. The key constraint follows
-- the last column without a comma: it is a table constraint on YCSB_KEY.
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
-- Checks (not in the article): the key is YCSB_KEY alone.
SELECT i.name, c.name AS key_column
FROM sys.indexes AS i
    INNER JOIN sys.index_columns AS ic ON ic.object_id = i.object_id AND ic.index_id = i.index_id
    INNER JOIN sys.columns AS c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
WHERE i.object_id = OBJECT_ID('usertable') AND i.is_primary_key = 1
GO
