-- Objects every driver's scenario creates at its start, as `sa`. Each driver
-- runs this with its own prefix in place of {p}, so the drivers can share one
-- server. Batches are separated by lines holding only GO.
CREATE TABLE dbo.{p}_types (
    id INT NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024),
    c_tinyint TINYINT NULL,
    c_smallint SMALLINT NULL,
    c_int INT NULL,
    c_bigint BIGINT NULL,
    c_bit BIT NULL,
    c_dec DECIMAL(38, 10) NULL,
    c_dec0 DECIMAL(38, 0) NULL,
    c_money MONEY NULL,
    c_smallmoney SMALLMONEY NULL,
    c_float FLOAT NULL,
    c_real REAL NULL,
    c_date DATE NULL,
    c_time TIME(7) NULL,
    c_datetime DATETIME NULL,
    c_datetime2 DATETIME2(7) NULL,
    c_dto DATETIMEOFFSET(7) NULL,
    c_sdt SMALLDATETIME NULL,
    c_char CHAR(10) NULL,
    c_varchar VARCHAR(8000) NULL,
    c_nchar NCHAR(10) NULL,
    c_nvarchar NVARCHAR(4000) NULL,
    c_varcharmax VARCHAR(MAX) NULL,
    c_nvarcharmax NVARCHAR(MAX) NULL,
    c_varbinarymax VARBINARY(MAX) NULL,
    c_binary BINARY(8) NULL,
    c_varbinary VARBINARY(8000) NULL,
    c_guid UNIQUEIDENTIFIER NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
CREATE TABLE dbo.{p}_kv (
    id INT NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024),
    v INT NOT NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
INSERT INTO dbo.{p}_kv (id, v) VALUES (1, 100)
GO
-- OUTPUT parameter and return status: @doubled = 2 * @x, RETURN @x + 1.
CREATE PROCEDURE dbo.{p}_double @x INT, @doubled INT OUTPUT
AS
BEGIN
    SET @doubled = @x * 2;
    RETURN @x + 1;
END
GO
CREATE TYPE dbo.{p}_line AS TABLE (
    line_no INT NOT NULL,
    item NVARCHAR(40) NOT NULL,
    amount DECIMAL(18, 4) NOT NULL
)
GO
-- A table-valued parameter: one row summing the lines it was given.
CREATE PROCEDURE dbo.{p}_sum_lines @lines dbo.{p}_line READONLY
AS
    SELECT COUNT(*) AS line_count, SUM(amount) AS total, MAX(item) AS last_item FROM @lines
GO
