-- DDL: ALTER TABLE (ADD/DROP column, constraint, index; ALTER INDEX ... REBUILD; ALTER COLUMN), CREATE/DROP INDEX, CREATE STATISTICS, UPDATE STATISTICS.
-- ALTER TABLE ... ADD one column, several columns, with defaults and constraints (T-SQL has no COLUMN keyword after ADD)
ALTER TABLE dbo.Orders ADD Comment nvarchar(128) NULL;
ALTER TABLE dbo.Orders ADD
    ShipDate datetime2(7) NULL,
    Freight  money NOT NULL CONSTRAINT DF_Orders_Freight DEFAULT (0.00),
    Total    AS (Freight * 2);
alter table dbo.Orders add Flag bit not null default 0 with values
GO
-- ALTER TABLE ... ADD CONSTRAINT: primary key, unique, check, default, foreign key
ALTER TABLE dbo.Orders ADD CONSTRAINT PK_Orders PRIMARY KEY CLUSTERED (OrderID);
ALTER TABLE dbo.Orders ADD CONSTRAINT UQ_Orders_Number UNIQUE NONCLUSTERED (OrderNumber ASC);
ALTER TABLE dbo.Orders ADD CONSTRAINT CK_Orders_Freight CHECK (Freight >= 0);
ALTER TABLE dbo.Orders ADD CONSTRAINT DF_Orders_Comment DEFAULT N'' FOR Comment;
ALTER TABLE dbo.Orders WITH CHECK ADD CONSTRAINT FK_Orders_Customer
    FOREIGN KEY (CustomerID) REFERENCES dbo.Customers (CustomerID) ON DELETE CASCADE;
GO
-- Memory-optimized tables: ADD INDEX (hash and range), ADD CONSTRAINT ... HASH, several operations at once
ALTER TABLE Sales.SalesOrderHeader_inmem
    ADD INDEX IX_OrderDate NONCLUSTERED (OrderDate DESC);
ALTER TABLE Sales.SalesOrderHeader_inmem
    ADD INDEX IX_CustomerID HASH (CustomerID) WITH (BUCKET_COUNT = 1048576);
ALTER TABLE Sales.SalesOrderHeader_inmem ADD INDEX IX_Status_Hash HASH (Status, ShipMethodID) WITH (BUCKET_COUNT=64);
ALTER TABLE dbo.Cache_inmem
    ADD CONSTRAINT PK_Cache_inmem PRIMARY KEY NONCLUSTERED HASH (k) WITH (BUCKET_COUNT = 131072);
ALTER TABLE dbo.Cache_inmem
    ADD Extra int NULL,
        INDEX IX_Extra NONCLUSTERED (Extra);
GO
-- ALTER INDEX ... REBUILD on a memory-optimized table (through ALTER TABLE) and on a disk-based table
ALTER TABLE Sales.SalesOrderHeader_inmem
    ALTER INDEX IX_CustomerID REBUILD WITH (BUCKET_COUNT = 2097152);
ALTER TABLE Sales.SalesOrderHeader_inmem ALTER INDEX IX_Status_Hash REBUILD WITH(BUCKET_COUNT=128)
ALTER INDEX IX_Orders_Date ON dbo.Orders REBUILD;
GO
-- DROP COLUMN / CONSTRAINT / INDEX, with IF EXISTS and lists
ALTER TABLE dbo.Orders DROP COLUMN Comment;
ALTER TABLE dbo.Orders DROP COLUMN IF EXISTS Total, Flag;
ALTER TABLE dbo.Orders DROP CONSTRAINT CK_Orders_Freight;
ALTER TABLE dbo.Orders DROP CONSTRAINT IF EXISTS DF_Orders_Freight, UQ_Orders_Number;
ALTER TABLE Sales.SalesOrderHeader_inmem DROP INDEX IX_Status_Hash;
ALTER TABLE dbo.Cache_inmem DROP CONSTRAINT PK_Cache_inmem
GO
-- ALTER COLUMN: type change, nullability, collation
ALTER TABLE dbo.Orders ALTER COLUMN OrderNumber nvarchar(50) NOT NULL;
ALTER TABLE dbo.Orders ALTER COLUMN Freight decimal(18,2) NULL;
ALTER TABLE dbo.Orders ALTER COLUMN Code varchar(10) COLLATE Latin1_General_BIN2 NOT NULL;
ALTER TABLE Sales.SalesOrderHeader_inmem ALTER COLUMN Comment nvarchar(256) NULL;
GO
-- CREATE INDEX variants
CREATE INDEX IX_Orders_Date ON dbo.Orders (OrderDate);
CREATE NONCLUSTERED INDEX IX_Orders_Cust ON dbo.Orders (CustomerID ASC, OrderDate DESC);
CREATE UNIQUE NONCLUSTERED INDEX UX_Orders_Number ON dbo.Orders (OrderNumber)
    INCLUDE (CustomerID, Freight)
    WHERE OrderNumber IS NOT NULL;
CREATE UNIQUE INDEX UX_Orders_Open ON dbo.Orders (CustomerID, OrderID) WHERE Status = 1 AND ShipDate IS NULL;
CREATE CLUSTERED INDEX CX_Log ON dbo.Log (LoggedAt) WITH (FILLFACTOR = 90, DATA_COMPRESSION = PAGE) ON [PRIMARY];
CREATE NONCLUSTERED INDEX [IX Weird Name] ON [dbo].[Orders] ([Customer ID] DESC) INCLUDE ([Freight]) WITH (ONLINE = ON);
create index ix_lower on dbo.orders(a,b desc,c asc)
GO
-- DROP INDEX: ON form, IF EXISTS, several at once, legacy table.index form
DROP INDEX IX_Orders_Date ON dbo.Orders;
DROP INDEX IF EXISTS IX_Orders_Cust ON dbo.Orders;
DROP INDEX dbo.Orders.ix_lower;
GO
-- CREATE STATISTICS with options, UPDATE STATISTICS forms, DROP STATISTICS
CREATE STATISTICS st_Orders_Cust ON dbo.Orders (CustomerID) WITH FULLSCAN;
CREATE STATISTICS st_Orders_Date ON dbo.Orders (OrderDate, CustomerID) WITH NORECOMPUTE;
CREATE STATISTICS st_Orders_Both ON dbo.Orders (Freight) WITH FULLSCAN, NORECOMPUTE;
UPDATE STATISTICS dbo.Orders;
UPDATE STATISTICS Sales.SalesOrderHeader_inmem
UPDATE STATISTICS dbo.Orders st_Orders_Cust WITH FULLSCAN;
DROP STATISTICS dbo.Orders.st_Orders_Sample;
CREATE STATISTICS st_Orders_Sample ON dbo.Orders (Freight) WITH SAMPLE 50 PERCENT, NORECOMPUTE
UPDATE STATISTICS dbo.Orders st_Orders_Sample WITH SAMPLE 1000 ROWS
UPDATE STATISTICS dbo.Orders WITH FULLSCAN, COLUMNS
UPDATE STATISTICS dbo.Orders
WITH c AS (SELECT 1 AS a) SELECT a FROM c;
GO
