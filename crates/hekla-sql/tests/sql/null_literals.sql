-- A bare NULL is typed int but converts to any type, implicitly or with
-- CAST; an int that happens to be NULL does not (Msg 206, 529).
DECLARE @d datetime2 = NULL, @u uniqueidentifier = NULL, @t time = NULL
SET @d = NULL
SELECT @d AS d, @u AS u, @t AS t
SELECT CAST(NULL AS datetime2) AS cast_datetime2, CONVERT(uniqueidentifier, NULL) AS convert_guid,
       CAST(NULL AS date) AS cast_date
GO
CREATE TABLE dbo.times (id int NOT NULL PRIMARY KEY NONCLUSTERED, at datetime2 NULL, g uniqueidentifier NULL)
    WITH (MEMORY_OPTIMIZED = ON)
INSERT dbo.times VALUES (1, NULL, NULL), (2, '2026-11-27', NEWID())
UPDATE dbo.times SET at = NULL, g = NULL WHERE id = 2
SELECT id, at, g FROM dbo.times ORDER BY id
GO
-- INSERT ... SELECT takes a bare NULL into any column as VALUES does,
-- also through a WHERE, an ORDER BY, a TOP and a UNION.
INSERT dbo.times (id, at, g) SELECT 3, NULL, NULL
INSERT dbo.times (id, at, g) SELECT n, NULL, NULL FROM (VALUES (4), (5)) AS v (n) WHERE n > 4 ORDER BY n
INSERT dbo.times (id, at, g) SELECT TOP (1) 6, NULL, NULL FROM dbo.times
INSERT dbo.times (id, at, g) SELECT 7, NULL, NULL UNION ALL SELECT 8, NULL, NULL
SELECT id, at, g FROM dbo.times WHERE id > 2 ORDER BY id
GO
CREATE PROCEDURE dbo.ship @when datetime2(7) = NULL, @note nvarchar(10) AS
    SELECT ISNULL(CONVERT(varchar(10), @when, 23), 'not yet') AS shipped, @note AS note
GO
EXEC dbo.ship @note = N'default'
EXEC dbo.ship NULL, N'explicit'
EXEC dbo.ship @when = NULL, @note = N'named'
GO
DECLARE @i int = NULL
DECLARE @e datetime2 = @i
GO
DECLARE @i int = NULL
SELECT CAST(@i AS datetime2)
GO
