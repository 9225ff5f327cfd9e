-- Procedural T-SQL: DECLARE (scalars, table variables, table types), SET and compound assignments, IF/ELSE, WHILE/BREAK/CONTINUE, BEGIN/END, RETURN, GOTO, EXEC forms, sp_executesql, TRY/CATCH, THROW, RAISERROR, PRINT, WAITFOR.
-- DECLARE: several variables with and without initializers, AS optional
DECLARE @i int = 0, @name nvarchar(50) = N'abc', @d datetime2(7) = SYSDATETIME(), @x decimal(10, 2);
DECLARE @flag AS bit = 1;
DECLARE @big bigint
DECLARE @m money = $1.25, @bin varbinary(max) = 0x0102, @g uniqueidentifier = NEWID(), @n int = (SELECT COUNT(*) FROM sys.objects);
SELECT @i, @name, @d, @x, @flag, @big, @m, @bin, @g, @n;
GO
-- Table variables with PRIMARY KEY / INDEX, and a memory-optimized table-type variable
DECLARE @t TABLE
(
    id    int NOT NULL PRIMARY KEY,
    code  varchar(10) NOT NULL UNIQUE,
    qty   int NULL DEFAULT 0,
    INDEX ix_qty NONCLUSTERED (qty)
);
DECLARE @t2 AS TABLE (a int, b int, PRIMARY KEY (a, b));
DECLARE @od Sales.SalesOrderDetailType_inmem;
DECLARE @ids dbo.IdList, @count int = 0;
INSERT INTO @t (id, code) VALUES (1, 'a');
SELECT * FROM @t AS t JOIN @t2 AS t2 ON t2.a = t.id;
GO
-- SET: plain, from a subquery, and all compound assignment operators
DECLARE @v int = 10, @s varchar(100) = 'x', @q int;
SET @v = 5;
SET @v += 1;
SET @v -= 2;
SET @v *= 3;
SET @v /= 2;
SET @v %= 7;
SET @v &= 6;
SET @v |= 1;
SET @v ^= 3;
SET @s += 'y';
SET @q = (SELECT MAX(OrderID) FROM dbo.Orders);
SET @q = (SELECT TOP (1) OrderID FROM dbo.Orders ORDER BY OrderDate DESC)
SET @s = CASE WHEN @v > 3 THEN 'big' ELSE 'small' END;
GO
-- IF / ELSE: single statements, BEGIN/END blocks, nested, ELSE IF chains
DECLARE @a int = 1, @b int = 2;
IF @a = 1 PRINT 'one';
IF @a = 1
    PRINT 'one'
ELSE
    PRINT 'not one';
IF (@a < @b)
BEGIN
    PRINT 'less';
    IF @b > 1
        IF @b > 5
            PRINT 'b > 5'
        ELSE
            PRINT 'b in 2..5'
END
ELSE IF @a = @b
BEGIN
    PRINT 'equal';
END
ELSE
BEGIN
    PRINT 'greater';
END;
IF NOT (@a = 2 OR @b = 3) AND @a IS NOT NULL SELECT 'ok';
GO
-- IF [NOT] EXISTS (SELECT ...)
IF EXISTS (SELECT 1 FROM sys.tables WHERE name = N'Orders')
    DROP TABLE dbo.Orders;
IF NOT EXISTS (SELECT * FROM sys.schemas WHERE name = 'Sales')
    EXEC ('CREATE SCHEMA Sales');
IF OBJECT_ID(N'dbo.usp_x', N'P') IS NOT NULL DROP PROCEDURE dbo.usp_x;
GO
-- WHILE with BREAK / CONTINUE, nested blocks, a cursor-free loop over a table
DECLARE @i int = 0, @total int = 0;
WHILE @i < 100
BEGIN
    SET @i += 1;
    IF @i % 2 = 0 CONTINUE;
    IF @i > 50
    BEGIN
        BREAK;
    END
    SET @total = @total + @i;
END;
WHILE (1 = 1) BEGIN SET @i -= 1; IF @i <= 0 BREAK END
GO
DECLARE @id int = 0, @name sysname;
WHILE 1 = 1
BEGIN
    SELECT TOP (1) @id = object_id, @name = name
    FROM sys.objects
    WHERE object_id > @id
    ORDER BY object_id;
    IF @@ROWCOUNT = 0 BREAK;
    PRINT @name;
END
GO
-- Bare BEGIN/END blocks, nested, and RETURN without a value in a batch
BEGIN
    BEGIN
        SELECT 1;
    END
    BEGIN SELECT 2 END
END;
IF 1 = 0 RETURN;
SELECT 3;
RETURN
GO
-- RETURN with a value (only allowed inside a procedure)
CREATE PROCEDURE dbo.usp_ReturnCode @fail bit = 0
AS
BEGIN
    IF @fail = 1
        RETURN -1;
    DECLARE @c int = (SELECT COUNT(*) FROM sys.objects);
    RETURN @c % 100;
END
GO
-- Labels and GOTO
DECLARE @tries int = 0;
retry:
SET @tries += 1;
IF @tries < 3 GOTO retry;
GOTO done;
PRINT 'skipped';
done:
PRINT 'finished after ' + CAST(@tries AS varchar(10)) + ' tries';
GO
-- EXEC / EXECUTE: positional, named, OUTPUT, return code, DEFAULT, with procedure name only
DECLARE @rc int, @cnt int, @out datetime2, @ids dbo.IdList;
EXEC dbo.usp_Orders 1, '20200101', @cnt OUTPUT;
EXECUTE dbo.usp_Orders @CustomerID = 1, @From = DEFAULT, @Count = @cnt OUT;
EXEC @rc = dbo.usp_ReturnCode @fail = 1;
EXECUTE @rc = dbo.usp_ReturnCode;
EXEC dbo.usp_GetSession_native 1, NULL, 10, N'x', @ids, @cnt OUTPUT, @out OUTPUT;
EXEC [dbo].[usp Options] -5, 1.5, 'z';
EXEC sys.sp_flush_log;
EXEC master.dbo.sp_who;
exec sp_helptext 'dbo.usp_ReturnCode'
GO
-- A procedure call without EXEC is allowed as the first statement of a batch
sp_who 'active'
GO
dbo.usp_ReturnCode @fail = 0
GO
-- EXEC of strings and variables (dynamic SQL), with AS USER / AT
DECLARE @sql nvarchar(max) = N'SELECT 1 AS one', @tbl sysname = N'Orders';
EXEC ('SELECT 1');
EXEC (@sql);
EXECUTE ('SELECT * FROM dbo.' + @tbl + ' WHERE 1 = 0');
EXEC (N'SELECT ''quoted''');
GO
-- sp_executesql: literal statements, parameter lists, named and positional values, OUTPUT parameters
DECLARE @stmt nvarchar(max) = N'SELECT @o = COUNT(*) FROM sys.objects WHERE type = @t', @res int;
EXEC sp_executesql N'SELECT @x', N'@x int', @x = 1;
EXEC sp_executesql N'SELECT @x + @y', N'@x int, @y int', 1, 2;
EXEC sp_executesql @stmt, N'@o int OUTPUT, @t char(2)', @o = @res OUTPUT, @t = 'U';
EXECUTE sys.sp_executesql @stmt = N'SELECT 1';
SELECT @res;
GO
-- TRY / CATCH with error functions, THROW forms, nested TRY
BEGIN TRY
    SELECT 1 / 0;
END TRY
BEGIN CATCH
    SELECT ERROR_NUMBER() AS num, ERROR_SEVERITY() AS sev, ERROR_STATE() AS st,
           ERROR_PROCEDURE() AS proc_name, ERROR_LINE() AS line, ERROR_MESSAGE() AS msg;
    IF XACT_STATE() <> 0 ROLLBACK TRANSACTION;
END CATCH
GO
BEGIN TRY
    BEGIN TRY
        THROW 50000, 'inner failure', 1;
    END TRY
    BEGIN CATCH
        PRINT 'caught: ' + ERROR_MESSAGE();
        THROW;
    END CATCH
END TRY
BEGIN CATCH
    DECLARE @msg nvarchar(2048) = ERROR_MESSAGE();
    THROW 50001, @msg, 2;
END CATCH;
GO
-- RAISERROR forms and PRINT
DECLARE @v int = 42;
RAISERROR('x %d', 16, 1, @v) WITH NOWAIT;
RAISERROR (50001, 10, 1);
RAISERROR(N'Value %s and %d', 10, 1, N'abc', 7) WITH LOG, NOWAIT;
RAISERROR ('progress', 0, 1) WITH NOWAIT
PRINT 'x' + CAST(@v AS varchar(10));
PRINT N'unicode ' + CONVERT(nvarchar(20), SYSDATETIME(), 121);
PRINT @v;
GO
-- WAITFOR
WAITFOR DELAY '00:00:00.010';
WAITFOR DELAY '00:00:01'
WAITFOR TIME '23:00';
DECLARE @delay char(12) = '00:00:00.500';
WAITFOR DELAY @delay;
GO
