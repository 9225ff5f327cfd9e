-- The SET options drivers send at connect, each one's effect, and the
-- errors for values and options hekla or SQL Server refuse.
SELECT @@OPTIONS AS options, @@TEXTSIZE AS text_size, @@LANGUAGE AS language, @@LANGID AS langid,
       @@DATEFIRST AS date_first, @@LOCK_TIMEOUT AS lock_timeout
GO
-- What an ODBC or JDBC driver and SSMS send.
SET ANSI_NULLS ON; SET ANSI_PADDING ON; SET ANSI_WARNINGS ON; SET ARITHABORT ON;
SET CONCAT_NULL_YIELDS_NULL ON; SET QUOTED_IDENTIFIER ON; SET ANSI_NULL_DFLT_ON ON;
SET IMPLICIT_TRANSACTIONS OFF; SET CURSOR_CLOSE_ON_COMMIT OFF; SET TEXTSIZE 2147483647;
SET DATEFORMAT mdy; SET DATEFIRST 7; SET LANGUAGE us_english; SET LOCK_TIMEOUT -1;
SET NUMERIC_ROUNDABORT OFF; SET STATISTICS IO ON; SET STATISTICS TIME OFF; SET STATISTICS XML OFF;
SET DEADLOCK_PRIORITY NORMAL; SET ROWCOUNT 0; SET NOEXEC OFF; SET PARSEONLY OFF; SET FMTONLY OFF;
SET QUERY_GOVERNOR_COST_LIMIT 0; SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
SET ANSI_NULLS, QUOTED_IDENTIFIER, CONCAT_NULL_YIELDS_NULL, ANSI_WARNINGS, ANSI_PADDING ON
SET STATISTICS IO, TIME OFF
SELECT @@OPTIONS AS options
GO
SET NOCOUNT, XACT_ABORT ON
SELECT @@OPTIONS AS options
SET NOCOUNT, XACT_ABORT OFF
GO

-- ANSI_NULLS OFF: = and <> against a NULL literal or a NULL variable
-- compare NULL as a value; comparisons of columns are as before.
CREATE TABLE #n (id int, a int, b int)
INSERT INTO #n VALUES (1, 1, 1), (2, NULL, NULL), (3, 3, NULL)
GO
SET ANSI_NULLS OFF
DECLARE @none int
SELECT id FROM #n WHERE a = NULL
SELECT id FROM #n WHERE a <> NULL
SELECT id FROM #n WHERE b = @none
SELECT id FROM #n WHERE a NOT IN (1, NULL)
SELECT id FROM #n WHERE a = b
SELECT CASE WHEN @none = NULL THEN 'equal' ELSE 'not equal' END AS null_is_null,
       CASE WHEN NOT (1 = @none) THEN 'true' ELSE 'not true' END AS one_is_not_null
IF @none = NULL PRINT 'IF sees NULL = NULL'
SET ANSI_NULLS ON
SELECT id FROM #n WHERE a = NULL
SELECT @@OPTIONS & 32 AS ansi_nulls
GO

-- CONCAT_NULL_YIELDS_NULL OFF: NULL joins as an empty string.
SET CONCAT_NULL_YIELDS_NULL OFF
DECLARE @s varchar(10)
SELECT 'a' + NULL AS a, NULL + 'b' AS b, 'c' + @s AS c, @s + @s AS both_null
SET CONCAT_NULL_YIELDS_NULL ON
SELECT 'a' + NULL AS a
GO

-- ANSI_WARNINGS and ARITHABORT OFF: arithmetic errors are NULL with a
-- warning after the statement; a value too long for its column is cut.
SET ANSI_WARNINGS OFF
SET ARITHABORT OFF
SELECT 1 / 0 AS divided, 7 AS seven
SELECT CAST(300 AS tinyint) AS tiny, 2147483647 + 1 AS overflow, 1 % 0 AS remainder
SELECT SQRT(-1.0) AS root
SELECT CAST('x' AS int) AS still_an_error
GO
SET ANSI_WARNINGS OFF
SET ARITHABORT OFF
CREATE TABLE dbo.w (id int, tiny tinyint, short varchar(3))
INSERT INTO dbo.w VALUES (1, 1 / 0, 'abcdef'), (2, 255 + 1, 'xy')
UPDATE dbo.w SET short = short + 'zzz' WHERE id = 2
SELECT id, tiny, short FROM dbo.w
SET ARITHIGNORE ON
SELECT 1 / 0 AS quiet
SET ARITHIGNORE OFF
GO
-- Either ON keeps the error.
SET ANSI_WARNINGS OFF
SET ARITHABORT ON
SELECT 1 / 0 AS divided
GO
SET ANSI_WARNINGS ON
SET ARITHABORT OFF
SELECT 1 / 0 AS divided
INSERT INTO dbo.w VALUES (3, 3, 'abcdef')
GO

-- DATEFORMAT: how text without a CONVERT style reads as a date.
SET DATEFORMAT dmy
SELECT CAST('02/01/2024' AS date) AS dmy_date, CAST('31.12.24' AS datetime2(0)) AS dmy_two_digit_year,
       CAST('2024-02-01' AS date) AS iso_date, CAST('2024-02-01' AS datetime) AS legacy_datetime,
       CAST('2024-02-01T00:00:00' AS datetime) AS iso_8601, CONVERT(date, '02/01/2024', 101) AS styled,
       ISDATE('13/01/2024') AS is_date
SET DATEFORMAT ymd
SELECT CAST('24/02/01' AS date) AS ymd
SET DATEFORMAT MDY
SELECT CAST('02/01/2024' AS date) AS mdy, ISDATE('13/01/2024') AS is_date
GO
CREATE TABLE #d (id int, d date)
INSERT INTO #d VALUES (1, '2024-01-02'), (2, '2024-02-01')
SET DATEFORMAT dmy
SELECT id FROM #d WHERE d = '02/01/2024'
SET DATEFORMAT mdy
SELECT id FROM #d WHERE d = '02/01/2024'
GO
SET DATEFORMAT xyz
GO
SET DATEFORMAT 1
GO

-- DATEFIRST: @@DATEFIRST and DATEPART's weekday and week; DATEDIFF's
-- weeks always start on Sunday.
SET DATEFIRST 1
SELECT @@DATEFIRST AS date_first, DATEPART(weekday, '2024-01-07') AS sunday, DATEPART(weekday, '2024-01-08') AS monday,
       DATEPART(week, '2024-01-07') AS week, DATENAME(weekday, '2024-01-07') AS name,
       DATEDIFF(week, '2024-01-06', '2024-01-07') AS weeks
SET DATEFIRST 7
SELECT @@DATEFIRST AS date_first, DATEPART(weekday, '2024-01-07') AS sunday, DATEPART(week, '2024-01-07') AS week
GO
SET DATEFIRST 8
GO
SET DATEFIRST 'x'
GO

-- LANGUAGE: us_english (or English) only; it resets the date order and
-- the first day of the week.
SET DATEFIRST 3
SET DATEFORMAT dmy
GO
SET LANGUAGE N'English'
SELECT @@LANGUAGE AS language, @@DATEFIRST AS date_first, CAST('02/01/2024' AS date) AS mdy
GO
SET LANGUAGE Deutsch
GO
SET LANGUAGE NULL
GO

-- TEXTSIZE: long (max) values sent to the client are cut to it.
SET TEXTSIZE 5
SELECT CAST('abcdefgh' AS varchar(max)) AS text, CAST(N'abcdefgh' AS nvarchar(max)) AS unicode,
       CAST(0x0102030405060708 AS varbinary(max)) AS bytes, CAST('abcdefgh' AS varchar(8)) AS bounded,
       LEN(CAST('abcdefgh' AS varchar(max))) AS whole, @@TEXTSIZE AS text_size
SET TEXTSIZE 0
SELECT @@TEXTSIZE AS text_size
SET TEXTSIZE -1
SELECT @@TEXTSIZE AS text_size
GO
DECLARE @size int = 10
SET TEXTSIZE @size
GO

-- ROWCOUNT: a SELECT, INSERT, UPDATE or DELETE stops after n rows.
CREATE TABLE #r (id int)
INSERT INTO #r VALUES (1), (2), (3), (4), (5)
CREATE TABLE #copy (id int)
GO
DECLARE @two int = 2
SET ROWCOUNT @two
SELECT id FROM #r ORDER BY id DESC
SELECT @@ROWCOUNT AS row_count
SELECT TOP (3) id FROM #r ORDER BY id
INSERT INTO #copy SELECT id FROM #r
INSERT INTO #copy VALUES (10), (11), (12)
UPDATE #r SET id = id * 10
DELETE FROM #r WHERE id < 10
DECLARE @first int
SELECT @first = id FROM #r ORDER BY id DESC
SELECT @first AS last_assigned
SET ROWCOUNT 0
SELECT id FROM #r ORDER BY id
SELECT id FROM #copy ORDER BY id
GO
SET ROWCOUNT -1
GO
DECLARE @text varchar(5) = '4'
SET ROWCOUNT @text
GO

-- LOCK_TIMEOUT and DEADLOCK_PRIORITY are kept (hekla takes no locks).
SET LOCK_TIMEOUT 5000
SET DEADLOCK_PRIORITY HIGH
SELECT @@LOCK_TIMEOUT AS lock_timeout
GO
SET LOCK_TIMEOUT '10'
GO
SET DEADLOCK_PRIORITY '5'
GO
SET DEADLOCK_PRIORITY 11
GO

-- sys.dm_exec_sessions shows the session's own options.
SET ANSI_NULLS OFF; SET DATEFORMAT ydm; SET DATEFIRST 2; SET TEXTSIZE 100; SET ARITHABORT ON;
SET CONCAT_NULL_YIELDS_NULL OFF; SET DEADLOCK_PRIORITY -3; SET TRANSACTION ISOLATION LEVEL SERIALIZABLE
SELECT text_size, language, date_format, date_first, quoted_identifier, arithabort, ansi_null_dflt_on, ansi_defaults,
       ansi_warnings, ansi_padding, ansi_nulls, concat_null_yields_null, transaction_isolation_level, lock_timeout,
       deadlock_priority
FROM sys.dm_exec_sessions WHERE session_id = @@SPID
SET ANSI_NULLS ON; SET DATEFORMAT mdy; SET DATEFIRST 7; SET TEXTSIZE -1; SET ARITHABORT OFF;
SET CONCAT_NULL_YIELDS_NULL ON; SET DEADLOCK_PRIORITY NORMAL; SET LOCK_TIMEOUT -1;
SET TRANSACTION ISOLATION LEVEL READ COMMITTED
GO

-- A procedure's SET options last until it returns; its SET LANGUAGE
-- says nothing.
CREATE PROCEDURE dbo.settings AS
BEGIN
    SET LANGUAGE us_english
    SET DATEFIRST 1
    SET ROWCOUNT 1
    SELECT @@DATEFIRST AS inside_date_first, @@OPTIONS & 32 AS inside_ansi_nulls
    SET ANSI_NULLS OFF
END
GO
EXEC dbo.settings
SELECT @@DATEFIRST AS date_first, @@OPTIONS & 32 AS ansi_nulls
SELECT COUNT(*) AS all_rows FROM #copy
GO

-- Options hekla cannot honour are refused; a list sets all or nothing.
-- (IMPLICIT_TRANSACTIONS and ANSI_DEFAULTS ON: implicit_transactions.sql.)
SET QUOTED_IDENTIFIER OFF
GO
SET ANSI_PADDING OFF
GO
SET ANSI_DEFAULTS OFF
GO
SET NOEXEC ON
GO
SET NUMERIC_ROUNDABORT ON
GO
SET STATISTICS XML ON
GO
SET XACT_ABORT, NUMERIC_ROUNDABORT ON
SELECT @@OPTIONS & 16384 AS xact_abort
GO

-- Names SQL Server does not know, and ON/OFF options given a value.
SET BANANA ON
GO
SET BANANA 5
GO
SET ANSI_NULLS, BANANA, QUOTED_IDENTIFIER ON
GO
SET NOCOUNT maybe
GO
