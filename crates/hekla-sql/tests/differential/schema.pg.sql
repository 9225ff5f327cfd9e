-- The differential test's tables as PostgreSQL declares them. Keep the
-- columns in step with schema.hekla.sql.
CREATE TABLE dept (
    id int NOT NULL PRIMARY KEY,
    name varchar(20) NOT NULL,
    region varchar(10) NULL,
    budget int NULL
);
CREATE TABLE emp (
    id int NOT NULL PRIMARY KEY,
    name varchar(20) NOT NULL,
    dept_id int NULL,
    manager_id int NULL,
    salary int NULL,
    bonus int NULL,
    grade int NOT NULL,
    city varchar(12) NULL
);
CREATE INDEX ix_emp_dept ON emp (dept_id);
CREATE TABLE sales (
    id int NOT NULL PRIMARY KEY,
    emp_id int NULL,
    product varchar(10) NOT NULL,
    qty int NULL,
    price decimal(8, 2) NOT NULL,
    discount float NULL,
    yr int NOT NULL
);
CREATE TABLE tags (
    id int NOT NULL PRIMARY KEY,
    emp_id int NOT NULL,
    tag varchar(10) NULL
);
CREATE TABLE tri (
    id int NOT NULL PRIMARY KEY,
    a int NULL,
    b int NULL
);
