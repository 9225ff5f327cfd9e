-- A PRIMARY KEY, UNIQUE or FOREIGN KEY written inside a column definition
-- but naming its own columns is on those columns, as in SQL Server: the
-- YCSB DDL writes its key after the last column without a comma. A
-- column-level FOREIGN KEY may name one column only (Msg 8140); a
-- column-level CHECK may read only its own column (Msg 8141).
CREATE TABLE u (k varchar(9) NOT NULL, f varchar(9) NOT NULL CONSTRAINT pk PRIMARY KEY NONCLUSTERED HASH (k) WITH (BUCKET_COUNT = 64)) WITH (MEMORY_OPTIMIZED = ON);
INSERT u VALUES ('a','x'), ('a','y');
SELECT * FROM u;
GO
SELECT i.name AS index_name, c.name AS column_name
FROM sys.index_columns ic
JOIN sys.indexes i ON i.object_id = ic.object_id AND i.index_id = ic.index_id
JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
WHERE ic.object_id = OBJECT_ID('u')
GO
-- The YCSB usertable, disk-based and memory-optimized.
CREATE TABLE usertable (
YCSB_KEY varchar(255) NOT NULL,
FIELD0 varchar(100) NOT NULL,
FIELD9 varchar(100) NOT NULL
CONSTRAINT pk_usertable PRIMARY KEY (YCSB_KEY)
);
INSERT usertable VALUES ('user1', 'a', 'b');
INSERT usertable VALUES ('user1', 'c', 'd');
INSERT usertable VALUES ('user2', 'a', 'b');
SELECT * FROM usertable;
DROP TABLE usertable;
GO
CREATE TABLE usertable
(
YCSB_KEY varchar(255) NOT NULL,
FIELD0 varchar(100) NOT NULL,
FIELD9 varchar(100) NOT NULL
CONSTRAINT pk_usertable PRIMARY KEY NONCLUSTERED HASH (YCSB_KEY) WITH (BUCKET_COUNT = 1024)
)
WITH (MEMORY_OPTIMIZED = ON);
INSERT usertable VALUES ('user1', 'a', 'b');
INSERT usertable VALUES ('user1', 'c', 'd');
INSERT usertable VALUES ('user2', 'a', 'b');
SELECT * FROM usertable;
SELECT i.name AS index_name, c.name AS column_name
FROM sys.index_columns ic
JOIN sys.indexes i ON i.object_id = ic.object_id AND i.index_id = ic.index_id
JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
WHERE ic.object_id = OBJECT_ID('usertable')
GO
-- UNIQUE over several columns, written in the second column.
CREATE TABLE d (k int NOT NULL, f int NOT NULL UNIQUE (k, f), g int NOT NULL)
INSERT d VALUES (1, 1, 1), (1, 2, 1)
INSERT d VALUES (1, 1, 2)
SELECT * FROM d
GO
-- A key column that does not exist.
CREATE TABLE bad (k int NOT NULL, f int NOT NULL PRIMARY KEY (nope))
GO
-- FOREIGN KEY naming another column: the key is on that column.
CREATE TABLE p (x int PRIMARY KEY)
CREATE TABLE q (a int, b int FOREIGN KEY (a) REFERENCES p (x))
INSERT p VALUES (1)
INSERT q VALUES (1, 5)
INSERT q VALUES (5, 1)
SELECT * FROM q
GO
CREATE TABLE r (a int, b int FOREIGN KEY (a, b) REFERENCES p (x, x))
GO
CREATE TABLE e (k int NOT NULL, f int NOT NULL CHECK (k > 0))
GO
-- A column constraint before NOT NULL keeps working.
CREATE TABLE s ([Data] uniqueidentifier PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64) NOT NULL, v int) WITH (MEMORY_OPTIMIZED = ON)
SELECT c.name, c.is_nullable FROM sys.columns c WHERE object_id = OBJECT_ID('s')
SELECT i.name AS index_name, c.name AS column_name
FROM sys.index_columns ic
JOIN sys.indexes i ON i.object_id = ic.object_id AND i.index_id = ic.index_id
JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
WHERE ic.object_id = OBJECT_ID('s')
GO
