-- DEFAULT constraints: constants and functions, used for omitted columns
-- and the DEFAULT keyword, evaluated per row; errors for column names.
CREATE TABLE dbo.events (
    id int NOT NULL PRIMARY KEY NONCLUSTERED,
    kind varchar(10) NOT NULL DEFAULT 'info',
    weight decimal(5, 2) NULL CONSTRAINT DF_events_weight DEFAULT (1.5),
    created datetime2(7) NOT NULL DEFAULT SYSDATETIME(),
    note nvarchar(20) NULL
) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.events (id) VALUES (1)
INSERT INTO dbo.events VALUES (2, DEFAULT, DEFAULT, DEFAULT, N'explicit defaults')
INSERT INTO dbo.events (id, kind, weight) VALUES (3, 'warn', NULL)
GO
SELECT id, kind, weight, note, CASE WHEN created > '2020-01-01' THEN 'set' END AS created FROM dbo.events ORDER BY id
GO
CREATE TABLE dbo.bad (a int, b int DEFAULT a)
GO
CREATE TABLE dbo.bad2 (a date DEFAULT 'not a date')
GO
