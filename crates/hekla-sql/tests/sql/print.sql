-- PRINT converts its value implicitly to varchar(8000), or to
-- nvarchar(4000) when it is Unicode text, and cuts longer text there.
DECLARE @i int = 5, @d decimal(10, 3) = 12.5, @g uniqueidentifier = '6F9619FF-8B86-D011-B42D-00C04FC964FF'
PRINT @i
PRINT @d
PRINT @g
PRINT 5
PRINT -7 * 6
PRINT 1.5e0
PRINT $3.10
PRINT CAST(1 AS bit)
PRINT CAST('2020-01-02T03:04:05' AS datetime)
PRINT CAST('2020-01-02' AS date)
PRINT CAST('2020-01-02T03:04:05.1234567' AS datetime2)
PRINT 0x414243
PRINT NULL
PRINT N'unicode ' + NCHAR(233)
GO
-- The article's form: text and CONVERT style 113 (dd mon yyyy hh:mi:ss:mmm).
Print 'Start time:  ' + convert(varchar, CAST('2020-01-02T03:04:05.123' AS datetime), 113)
PRINT 'Length: ' + CAST(LEN(convert(varchar, GETDATE(), 113)) AS varchar(10))
GO
-- Longer text is cut: varchar at 8000 characters, nvarchar at 4000
-- (each line below ends before its '<cut>').
PRINT REPLICATE(CAST('v' AS varchar(max)), 7990) + '123456789_<cut>'
PRINT REPLICATE(CAST(N'n' AS nvarchar(max)), 3990) + N'123456789_<cut>'
GO
