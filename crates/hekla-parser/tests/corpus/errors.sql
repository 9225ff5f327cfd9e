-- Syntax errors, one per batch, each preceded by the SQL Server message it should produce (Line N counts from the first line of the batch, i.e. the line after the previous GO; this first batch starts at the file's first line). Unterminated string/identifier/comment cases are kept at the end of the file.
-- Msg 156, Level 15, State 1, Line 3: Incorrect syntax near the keyword 'FROM'.
SELECT FROM dbo.Orders;
GO
-- Msg 156, Level 15, State 1, Line 2: Incorrect syntax near the keyword 'WHERE'.
SELECT * FROM WHERE OrderID = 1;
GO
-- Msg 102, Level 15, State 1, Line 5: Incorrect syntax near '='.
SELECT OrderID,
       CustomerID
FROM dbo.Orders
WHERE OrderID = = 1;
GO
-- Msg 102, Level 15, State 1, Line 4: Incorrect syntax near ','.
SELECT 1;
SELECT 2;
SELECT 3,, 4;
GO
-- Msg 156, Level 15, State 1, Procedure usp_Broken, Line 8: Incorrect syntax near the keyword 'FROM'.
CREATE PROCEDURE dbo.usp_Broken
    @id int
AS
BEGIN
    SET NOCOUNT ON;
    SELECT
    FROM dbo.Orders WHERE OrderID = @id;
END
GO
-- Missing END: the batch ends inside BEGIN ... (reported at the last token)
-- Msg 102, Level 15, State 1, Line 6: Incorrect syntax near 'Orders'.
IF 1 = 1
BEGIN
    SELECT OrderID
    FROM dbo.Orders
GO
-- Missing END of a natively compiled procedure's ATOMIC block
-- Msg 102, Level 15, State 1, Procedure usp_NoEnd, Line 7: Incorrect syntax near 'Session_inmem'.
CREATE PROCEDURE dbo.usp_NoEnd
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT SessionID FROM dbo.Session_inmem
GO
-- Missing closing parenthesis at the end of the batch
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near '3'.
SELECT * FROM dbo.Orders WHERE Status IN (1, 2, 3
GO
-- Missing closing parenthesis before a keyword
-- Msg 156, Level 15, State 1, Line 3: Incorrect syntax near the keyword 'FROM'.
SELECT COUNT(* FROM dbo.Orders;
GO
-- Trailing comma in a column list
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near ')'.
CREATE TABLE t (a int,)
GO
-- Missing comma between column definitions
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near 'b'.
CREATE TABLE t (a int b int)
GO
-- Missing BUCKET_COUNT value
-- Msg 102, Level 15, State 1, Line 5: Incorrect syntax near ')'.
CREATE TABLE dbo.h
(
    k int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = )
) WITH (MEMORY_OPTIMIZED = ON);
GO
-- Table options not closed at the end of the batch
-- Msg 156, Level 15, State 1, Line 3: Incorrect syntax near the keyword 'ON'.
CREATE TABLE dbo.m (k int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON
GO
-- Trailing garbage after a complete select list item
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near 'c'.
SELECT a b c FROM dbo.t;
GO
-- Trailing garbage: unmatched closing parenthesis
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near ')'.
SELECT 1)
GO
-- Trailing garbage after ORDER BY
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near 'extra'.
SELECT OrderID FROM dbo.Orders ORDER BY 1 extra
GO
-- Misspelled FROM after '*'
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near 'FORM'.
SELECT * FORM dbo.Orders
GO
-- Unexpected end of batch after a binary operator
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near '+'.
SELECT 1 +
GO
-- Unexpected end of batch after FROM
-- Msg 156, Level 15, State 1, Line 3: Incorrect syntax near the keyword 'FROM'.
SELECT * FROM
GO
-- Unexpected end of batch after AND
-- Msg 156, Level 15, State 1, Line 4: Incorrect syntax near the keyword 'AND'.
SELECT * FROM dbo.Orders
WHERE OrderID = 1 AND
GO
-- Unexpected end of batch inside VALUES
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near '('.
INSERT INTO dbo.Orders (OrderID) VALUES (
GO
-- Missing closing parenthesis of an INSERT column list
-- Msg 156, Level 15, State 1, Line 3: Incorrect syntax near the keyword 'VALUES'.
INSERT INTO dbo.Orders (OrderID, CustomerID VALUES (1, 2);
GO
-- Empty SET list
-- Msg 156, Level 15, State 1, Line 3: Incorrect syntax near the keyword 'WHERE'.
UPDATE dbo.Orders SET WHERE OrderID = 1;
GO
-- Reserved keyword used as an unquoted table name (the message echoes the keyword as written)
-- Msg 156, Level 15, State 1, Line 3: Incorrect syntax near the keyword 'select'.
CREATE TABLE select (a int);
GO
-- ELSE without IF
-- Msg 156, Level 15, State 1, Line 4: Incorrect syntax near the keyword 'ELSE'.
SELECT 1;
ELSE SELECT 2;
GO
-- END without BEGIN
-- Msg 156, Level 15, State 1, Line 4: Incorrect syntax near the keyword 'END'.
SELECT 1;
END
GO
-- Missing initializer expression
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near ';'.
DECLARE @x int = ;
GO
-- Two operators in a row
-- Msg 102, Level 15, State 1, Line 3: Incorrect syntax near '*'.
SELECT 1 * * 2;
GO
-- Unclosed string literal at the end of the batch (the reported string is everything after the opening quote;
-- SQL Server may additionally report Msg 102 Incorrect syntax near 'abc'.)
-- Msg 105, Level 15, State 1, Line 4: Unclosed quotation mark after the character string 'abc'.
SELECT 'abc
GO
-- Unclosed N'' string literal in a WHERE clause, on a later line
-- Msg 105, Level 15, State 1, Line 5: Unclosed quotation mark after the character string 'Smith'.
SELECT CustomerID
FROM dbo.Customers
WHERE Name = N'Smith
GO
-- Unclosed bracketed identifier (reported with the same message as an unclosed string)
-- Msg 105, Level 15, State 1, Line 3: Unclosed quotation mark after the character string 'Order Details'.
SELECT * FROM [Order Details
GO
-- Unclosed double-quoted identifier
-- Msg 105, Level 15, State 1, Line 3: Unclosed quotation mark after the character string 'quoted name'.
SELECT "quoted name
GO
-- Unclosed nested block comment (the inner */ closes only the inner comment)
-- Msg 113, Level 15, State 1, Line 3: Missing end comment mark '*/'.
SELECT 1 /* outer /* inner */ still inside the outer comment
GO
-- Unclosed block comment
-- Msg 113, Level 15, State 1, Line 3: Missing end comment mark '*/'.
SELECT 1 /* this comment is never closed
GO
