-- DDL: CREATE/DROP SCHEMA and TABLE: data types, NULL/NOT NULL, IDENTITY, DEFAULT, CHECK, computed columns, COLLATE, PRIMARY KEY/UNIQUE (CLUSTERED/NONCLUSTERED/HASH), inline INDEX, FOREIGN KEY, memory-optimized table options, ON [PRIMARY].
CREATE SCHEMA Sales;
GO
CREATE SCHEMA [Production] AUTHORIZATION dbo
GO
create schema demo authorization [dbo];
GO
DROP SCHEMA IF EXISTS demo;
GO
DROP SCHEMA Demo2
GO
-- Every common data type, nullability both ways
CREATE TABLE dbo.AllTypes
(
    c_int            int             NOT NULL,
    c_bigint         bigint          NULL,
    c_smallint       smallint,
    c_tinyint        tinyint         NOT NULL,
    c_bit            bit             NOT NULL,
    c_decimal        decimal(18, 2)  NULL,
    c_decimal_p      decimal(9)      NULL,
    c_decimal_bare   decimal,
    c_numeric        numeric(38,10),
    c_numeric_bare   NUMERIC,
    c_money          money,
    c_smallmoney     smallmoney,
    c_float          float,
    c_float53        float(53),
    c_real           real,
    c_date           date,
    c_time           time(7),
    c_time_bare      time,
    c_datetime       datetime,
    c_smalldatetime  smalldatetime,
    c_datetime2      datetime2(7),
    c_datetime2_0    DATETIME2(0),
    c_dto            datetimeoffset,
    c_dto3           datetimeoffset(3),
    c_char           char(10),
    c_varchar        varchar(50),
    c_varchar_max    varchar(max),
    c_nvarchar       nvarchar(50),
    c_nvarchar_max   nvarchar(MAX),
    c_nchar          nchar,
    c_nchar10        nchar(10),
    c_binary         binary(16),
    c_binary_bare    binary,
    c_varbinary      varbinary(8000),
    c_varbinary_max  varbinary(max),
    c_guid           uniqueidentifier,
    c_sysname        sysname,
    c_bracket_type   [int]           NOT NULL,
    c_bracket_len    [nvarchar](25)  NULL,
    c_user_type      dbo.OrderNumber NULL,
    c_user_type2     [dbo].[AccountNumber],
    c_user_type3     Flag            NOT NULL
);
GO
-- IDENTITY, DEFAULT (literals, functions, named), CHECK, computed columns, COLLATE
CREATE TABLE Sales.OrderLines
(
    LineID       int IDENTITY(1,1) NOT NULL,
    OrderID      bigint NOT NULL,
    Qty          smallint NOT NULL DEFAULT 1,
    Price        money NOT NULL CONSTRAINT DF_OrderLines_Price DEFAULT (0.00),
    Discount     decimal(5, 4) NOT NULL DEFAULT ((0.0)),
    Note         nvarchar(100) NULL DEFAULT N'none',
    Created      datetime2(7) NOT NULL DEFAULT SYSDATETIME(),
    Modified     datetime2 NOT NULL CONSTRAINT DF_OrderLines_Modified DEFAULT (sysdatetime()),
    RowGuid      uniqueidentifier NOT NULL DEFAULT NEWID(),
    Status       tinyint NOT NULL DEFAULT (0) CHECK (Status >= 0 AND Status <= 8),
    Code         char(3) COLLATE Latin1_General_BIN2 NOT NULL CONSTRAINT CK_OrderLines_Code CHECK (Code LIKE '[A-Z][A-Z][A-Z]'),
    Name         nvarchar(50) COLLATE Latin1_General_100_CI_AS NULL,
    LineTotal    AS (Qty * Price) PERSISTED,
    LineTotal2   AS Qty * Price * (1 - Discount),
    LineTotal3   AS (ISNULL(Qty * Price, 0.0)) PERSISTED NOT NULL,
    CONSTRAINT CK_OrderLines_Qty CHECK (Qty > 0),
    CHECK (Price >= $0 OR Discount = 0)
);
GO
-- PRIMARY KEY / UNIQUE at column level, clustered and nonclustered, with and without names
CREATE TABLE dbo.Keys1
(
    id   int NOT NULL PRIMARY KEY,
    code varchar(10) NOT NULL UNIQUE,
    alt  int NULL CONSTRAINT UQ_Keys1_alt UNIQUE NONCLUSTERED,
    ref  int NULL REFERENCES dbo.Parent(id)
);
CREATE TABLE dbo.Keys2
(
    id   int NOT NULL CONSTRAINT PK_Keys2 PRIMARY KEY NONCLUSTERED,
    code varchar(10) NOT NULL CONSTRAINT UQ_Keys2 UNIQUE CLUSTERED
);
CREATE TABLE dbo.Keys3 (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int) ON [PRIMARY];
GO
-- Table-level PRIMARY KEY / UNIQUE / FOREIGN KEY with column order and referential actions
CREATE TABLE dbo.Child
(
    ParentID int NOT NULL,
    ChildID  int NOT NULL,
    Seq      int NOT NULL,
    OtherID  int NULL,
    CONSTRAINT PK_Child PRIMARY KEY CLUSTERED (ParentID ASC, ChildID DESC),
    CONSTRAINT UQ_Child_Seq UNIQUE NONCLUSTERED (ParentID, Seq),
    CONSTRAINT FK_Child_Parent FOREIGN KEY (ParentID) REFERENCES dbo.Parent (id) ON DELETE CASCADE,
    FOREIGN KEY (OtherID) REFERENCES dbo.Other(OtherID) ON DELETE SET NULL ON UPDATE NO ACTION,
    UNIQUE (Seq, ChildID)
) ON [PRIMARY];
GO
-- Memory-optimized table: column-level hash primary key, inline indexes, durable
CREATE TABLE dbo.Session_inmem
(
    SessionID  int IDENTITY(1,1) NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1000000),
    UserID     int NOT NULL,
    Token      uniqueidentifier NOT NULL CONSTRAINT UQ_Session_Token UNIQUE NONCLUSTERED HASH WITH (BUCKET_COUNT = 1000000),
    Payload    varbinary(max) NULL,
    CreatedAt  datetime2(7) NOT NULL CONSTRAINT DF_Session_Created DEFAULT (SYSDATETIME()),
    ExpiresAt  datetime2(7) NOT NULL,
    INDEX ix_UserID NONCLUSTERED (UserID DESC),
    INDEX ix_Expires HASH (ExpiresAt) WITH (BUCKET_COUNT = 1024),
    INDEX ix_User_Expires NONCLUSTERED (UserID, ExpiresAt)
)
WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
-- Memory-optimized, SCHEMA_ONLY, table-level named hash PK and unique hash constraint, lower case options
create table dbo.Cache_inmem
(
    k   nvarchar(200) collate Latin1_General_100_BIN2 not null,
    v   nvarchar(4000) null,
    ver bigint not null,
    constraint pk_Cache primary key nonclustered hash (k) with (bucket_count = 131072),
    constraint uq_Cache_ver unique nonclustered hash (ver) with (bucket_count=131072)
) with (memory_optimized = on, durability = schema_only);
GO
-- Memory-optimized with a nonclustered (range) primary key and inline index on a computed column
CREATE TABLE [dbo].[Range_inmem]
(
    [id]    bigint NOT NULL,
    [qty]   int NOT NULL,
    [price] money NOT NULL,
    [total] AS ([qty] * [price]) PERSISTED,
    CONSTRAINT [PK_Range_inmem] PRIMARY KEY NONCLUSTERED ([id] ASC),
    INDEX [ix_total] NONCLUSTERED ([total] DESC)
) WITH ( MEMORY_OPTIMIZED = ON );
GO
-- Memory-optimized with a foreign key to another memory-optimized table
CREATE TABLE Sales.OrderDetail_inmem
(
    OrderID  int NOT NULL,
    LineID   int NOT NULL,
    ProductID int NOT NULL
        CONSTRAINT FK_OrderDetail_Product REFERENCES Production.Product_inmem (ProductID),
    CONSTRAINT PK_OrderDetail_inmem PRIMARY KEY NONCLUSTERED HASH (OrderID, LineID) WITH (BUCKET_COUNT = 67108864),
    CONSTRAINT FK_OrderDetail_Order FOREIGN KEY (OrderID) REFERENCES Sales.Order_inmem (OrderID),
    INDEX IX_ProductID HASH (ProductID) WITH (BUCKET_COUNT = 1048576)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)
GO
-- Explicitly disk-based table via MEMORY_OPTIMIZED = OFF, and a table with DATA_COMPRESSION
CREATE TABLE dbo.OnDisk (id int PRIMARY KEY, v sql_variant NULL) WITH (MEMORY_OPTIMIZED = OFF);
CREATE TABLE dbo.Compressed (id int NOT NULL) WITH (DATA_COMPRESSION = PAGE);
GO
-- Temp tables and a table with a single column and odd spacing
CREATE TABLE #work(id int NOT NULL PRIMARY KEY,name sysname NULL);
CREATE TABLE ##shared ( id int ) ;
CREATE   TABLE   dbo . Spaced   (   a   int   )
GO
-- DROP TABLE: plain, IF EXISTS, multiple tables, three-part name
DROP TABLE dbo.AllTypes;
DROP TABLE IF EXISTS dbo.Keys1, dbo.Keys2, dbo.Keys3;
DROP TABLE [tempdb].[dbo].[#work]
DROP TABLE IF EXISTS Sales.OrderLines
GO
-- Column constraints naming their own columns (the YCSB shape, no comma before the key)
CREATE TABLE dbo.InlineLists (
    k int NOT NULL,
    f int NOT NULL UNIQUE NONCLUSTERED (k DESC, f) FOREIGN KEY (k) REFERENCES dbo.Keys3 (id)
    CONSTRAINT PK_InlineLists PRIMARY KEY NONCLUSTERED HASH (k) WITH (BUCKET_COUNT = 64)
) WITH (MEMORY_OPTIMIZED = ON);
GO
