-- Table options: DATA_COMPRESSION is accepted on tables that are not
-- memory-optimized (hekla has no pages to compress: rows are stored as
-- always) and refused on memory-optimized ones.
CREATE TABLE dbo.page_compressed (id int, name varchar(33)) WITH (DATA_COMPRESSION = PAGE)
CREATE TABLE dbo.row_compressed (id bigint) WITH (DATA_COMPRESSION = ROW)
CREATE TABLE dbo.not_compressed (id bigint) WITH (DATA_COMPRESSION = NONE)
GO
INSERT INTO dbo.page_compressed VALUES (1, 'one'), (2, 'two')
SELECT id, name FROM dbo.page_compressed ORDER BY id
GO
CREATE TABLE dbo.in_memory (id int NOT NULL PRIMARY KEY NONCLUSTERED)
WITH (MEMORY_OPTIMIZED = ON, DATA_COMPRESSION = PAGE)
GO
CREATE TABLE dbo.in_memory (id int NOT NULL PRIMARY KEY NONCLUSTERED)
WITH (DATA_COMPRESSION = ROW, MEMORY_OPTIMIZED = ON)
GO
SELECT OBJECT_ID('dbo.in_memory') AS in_memory
GO
