-- The differential test's tables as hekla (T-SQL) declares them. Keep the
-- columns in step with schema.pg.sql: same names, same order, types that
-- hold the same values on both systems.
CREATE TABLE dbo.dept (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    name varchar(20) NOT NULL,
    region varchar(10) NULL,
    budget int NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
CREATE TABLE dbo.emp (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024),
    name varchar(20) NOT NULL,
    dept_id int NULL INDEX ix_emp_dept NONCLUSTERED,
    manager_id int NULL,
    salary int NULL,
    bonus int NULL,
    grade int NOT NULL,
    city varchar(12) NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
CREATE TABLE dbo.sales (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    emp_id int NULL,
    product varchar(10) NOT NULL,
    qty int NULL,
    price decimal(8, 2) NOT NULL,
    discount float NULL,
    yr int NOT NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
CREATE TABLE dbo.tags (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    emp_id int NOT NULL,
    tag varchar(10) NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
CREATE TABLE dbo.tri (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    a int NULL,
    b int NULL
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
