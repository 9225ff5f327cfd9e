-- Dynamic SQL: EXEC ('...') and sp_executesql with parameters.
CREATE TABLE dbo.items (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(20) NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.items VALUES (1, 'one'), (2, 'two'), (3, 'three')
GO
DECLARE @table sysname = N'dbo.items'
EXEC (N'SELECT COUNT(*) AS n FROM ' + @table)
EXECUTE ('SELECT @@NESTLEVEL AS nest_level')
GO
DECLARE @count int, @sql nvarchar(200) = N'SELECT @n = COUNT(*) FROM dbo.items WHERE id >= @from'
EXEC sp_executesql @sql, N'@from int, @n int OUTPUT', @from = 2, @n = @count OUTPUT
SELECT @count AS counted
EXEC sys.sp_executesql N'SELECT name FROM dbo.items WHERE id = @id', N'@id int', 3
EXEC sp_executesql N'PRINT ''no parameters'''
EXEC sp_executesql NULL
GO
-- The text by name: @stmt as documented, @statement as SQL Server's own
-- messages name it (and as drivers send it: tedious calls sp_executesql
-- with @statement and @params).
EXEC sp_executesql @stmt = N'SELECT name FROM dbo.items WHERE id = @id', @params = N'@id int', @id = 1
EXEC sp_executesql @statement = N'SELECT name FROM dbo.items WHERE id = @id', @params = N'@id int', @id = 2
GO
-- Dynamic SQL has its own scope: the caller's variables are not visible.
DECLARE @x int = 5
EXEC ('SELECT @x')
PRINT 'the caller goes on'
GO
-- Errors: a syntax error in the text, a missing parameter, a runtime
-- error inside.
EXEC ('SELEC 1')
EXEC sp_executesql N'SELECT @a', N'@a int'
EXEC sp_executesql N'SELECT 1 / 0'
BEGIN TRY
    EXEC ('SELECT * FROM dbo.nowhere')
END TRY
BEGIN CATCH
    PRINT 'caught ' + CAST(ERROR_NUMBER() AS varchar(10)) + ' from dynamic SQL'
END CATCH
EXEC sys.sp_flush_log
GO
-- Prepared statements: handles from 1 up, kept by the session.
DECLARE @h int, @n int
EXEC sp_prepare @h OUTPUT, N'@from int, @n int OUTPUT', N'SELECT @n = COUNT(*) FROM dbo.items WHERE id >= @from'
EXEC sp_execute @h, 2, @n OUTPUT
SELECT @h AS handle, @n AS counted
EXEC sp_execute @h, @from = 3, @n = @n OUTPUT
SELECT @n AS counted
EXEC sp_unprepare @h
EXEC sp_execute @h, 1, @n OUTPUT
EXEC sp_unprepare @h
DECLARE @h2 int
EXEC sp_prepexec @h2 OUTPUT, N'@id int', N'SELECT name FROM dbo.items WHERE id = @id', 1
SELECT @h2 AS handle
EXEC sp_execute @h2
GO
-- Server cursors are not supported.
DECLARE @cursor int
EXEC sp_cursoropen @cursor OUTPUT, N'SELECT 1'
GO
