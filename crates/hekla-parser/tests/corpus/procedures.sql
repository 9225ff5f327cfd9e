-- Procedures and functions: CREATE/ALTER/DROP PROCEDURE (native and interpreted), parameters, BEGIN ATOMIC, scalar/inline/multi-statement functions, DROP FUNCTION.
-- Natively compiled procedure with every ATOMIC option, defaults, OUTPUT and READONLY table-valued parameters
CREATE PROCEDURE dbo.usp_GetSession_native
    @SessionID  int,
    @UserID     int = NULL,
    @MaxRows    int = 10,
    @Label      nvarchar(50) = N'default',
    @Ids        dbo.IdList READONLY,
    @Found      int OUTPUT,
    @LastSeen   datetime2(7) = NULL OUT
WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english', DELAYED_DURABILITY = ON)
    SELECT @Found = COUNT(*)
    FROM dbo.Session_inmem AS s
    WHERE s.SessionID = @SessionID;

    SELECT TOP (@MaxRows) s.SessionID, s.UserID
    FROM dbo.Session_inmem AS s
    JOIN @Ids AS i ON i.id = s.UserID
    ORDER BY s.SessionID;

    SET @LastSeen = SYSDATETIME();
END
GO
-- Native procedure without parameters, options in a different order, SERIALIZABLE / REPEATABLE READ isolation
CREATE PROCEDURE dbo.usp_Count_native
WITH SCHEMABINDING, NATIVE_COMPILATION
AS
BEGIN ATOMIC WITH (LANGUAGE = N'English', TRANSACTION ISOLATION LEVEL = SERIALIZABLE)
    SELECT COUNT(*) AS cnt FROM dbo.Session_inmem;
END;
GO
create or alter procedure dbo.usp_Touch_native (@id int, @at datetime2 not null = '2000-01-01')
with native_compilation, schemabinding, execute as owner
as begin atomic with (transaction isolation level = repeatable read, language = 'us_english', datefirst = 7)
    update dbo.Session_inmem set ExpiresAt = @at where SessionID = @id;
    if @@rowcount = 0
        throw 50001, N'not found', 1;
end
GO
-- Interpreted procedure with BEGIN/END, parameter list in parentheses, PROC abbreviation
CREATE PROC dbo.usp_Orders (@CustomerID int, @From date = '19000101', @Count int = 0 OUTPUT)
AS
BEGIN
    SET NOCOUNT ON;
    SELECT OrderID, OrderDate FROM dbo.Orders WHERE CustomerID = @CustomerID AND OrderDate >= @From;
    SET @Count = @@ROWCOUNT;
    RETURN 0;
END
GO
-- Interpreted procedure without BEGIN/END (body runs to the end of the batch)
CREATE PROCEDURE dbo.usp_NoBlock @a int, @b int AS
SET NOCOUNT ON
SELECT @a + @b AS total
IF @a > @b SELECT 'a' ELSE SELECT 'b'
GO
-- Procedure with WITH RECOMPILE / EXECUTE AS CALLER, a bracketed name containing a space, negative and quoted defaults
CREATE PROCEDURE [dbo].[usp Options]
    @x int = -1,
    @y decimal(10,2) = -2.50,
    @z varchar(max) = 'a''b',
    @t dbo.NameList READONLY
WITH RECOMPILE, EXECUTE AS CALLER
AS
    SELECT @x, @y, @z, (SELECT COUNT(*) FROM @t);
GO
-- ALTER PROCEDURE and CREATE OR ALTER PROC
ALTER PROCEDURE dbo.usp_NoBlock @a int, @b int = 0 AS
BEGIN
    SELECT @a - @b AS diff;
END;
GO
CREATE OR ALTER PROC dbo.usp_Empty AS RETURN;
GO
-- DROP PROCEDURE forms
DROP PROCEDURE dbo.usp_Empty;
DROP PROCEDURE IF EXISTS dbo.usp_NoBlock, dbo.usp_Orders;
DROP PROC IF EXISTS [dbo].[usp Options]
GO
-- Natively compiled scalar function
CREATE FUNCTION dbo.ufn_AddTax (@amount money, @rate decimal(5, 4) = 0.0825)
RETURNS money
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @result money = @amount * (1 + @rate);
    RETURN @result;
END
GO
-- Interpreted scalar function with RETURNS NULL ON NULL INPUT and a multi-statement body
CREATE OR ALTER FUNCTION dbo.ufn_Clamp (@v int, @lo int, @hi int)
RETURNS int
WITH SCHEMABINDING, RETURNS NULL ON NULL INPUT
AS
BEGIN
    IF @v < @lo RETURN @lo;
    IF @v > @hi RETURN @hi;
    RETURN @v;
END;
GO
-- Inline table-valued functions (with and without parentheses around the SELECT)
CREATE FUNCTION Sales.ufn_OrdersByCustomer (@CustomerID int)
RETURNS TABLE
AS
RETURN (
    SELECT SalesOrderID, OrderDate, SubTotal
    FROM Sales.SalesOrderHeader_inmem
    WHERE CustomerID = @CustomerID
);
GO
create function dbo.ufn_Numbers(@n int) returns table with schemabinding as return
    select top (@n) row_number() over (order by (select null)) as n
    from master..spt_values a cross join master..spt_values b
GO
-- Natively compiled inline TVF (SQL Server 2016+ supports native inline TVFs)
CREATE FUNCTION dbo.ufn_Sessions_native (@UserID int)
RETURNS TABLE
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
RETURN SELECT SessionID, ExpiresAt FROM dbo.Session_inmem WHERE UserID = @UserID;
GO
-- Multi-statement table-valued function
CREATE FUNCTION dbo.ufn_Split (@list nvarchar(max), @sep nchar(1) = N',')
RETURNS @t TABLE
(
    pos   int IDENTITY(1,1) PRIMARY KEY,
    value nvarchar(4000) NOT NULL,
    INDEX ix_value NONCLUSTERED (value)
)
AS
BEGIN
    DECLARE @p int = CHARINDEX(@sep, @list);
    WHILE @p > 0
    BEGIN
        INSERT INTO @t (value) VALUES (LEFT(@list, @p - 1));
        SET @list = SUBSTRING(@list, @p + 1, LEN(@list));
        SET @p = CHARINDEX(@sep, @list);
    END;
    INSERT @t (value) VALUES (@list);
    RETURN;
END
GO
-- ALTER FUNCTION and DROP FUNCTION
ALTER FUNCTION dbo.ufn_Clamp (@v int, @lo int, @hi int) RETURNS int AS
BEGIN
    RETURN CASE WHEN @v < @lo THEN @lo WHEN @v > @hi THEN @hi ELSE @v END
END
GO
DROP FUNCTION dbo.ufn_AddTax;
DROP FUNCTION IF EXISTS dbo.ufn_Clamp, Sales.ufn_OrdersByCustomer, dbo.ufn_Split;
GO
