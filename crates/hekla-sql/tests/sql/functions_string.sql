-- String functions: searching (CHARINDEX, PATINDEX, REPLACE) under the
-- default case-insensitive collation, building (REPLICATE, REVERSE, STUFF,
-- SPACE, CONCAT, CONCAT_WS, QUOTENAME), characters and codes, STR and
-- FORMAT, with SQL Server's errors. Expected values follow SQL Server's
-- documentation, its own examples where it has them.
SELECT CHARINDEX('bicycle', 'Reflectors are vital safety components of your bicycle.') AS bicycle,
       CHARINDEX('is', 'This is a string') AS first_is, CHARINDEX('is', 'This is a string', 4) AS from4,
       CHARINDEX('TEST', 'This is a Test') AS any_case, CHARINDEX('x', 'abc') AS missing,
       CHARINDEX('', 'abc') AS empty, CHARINDEX('b', 'abc', -5) AS before_start, CHARINDEX(NULL, 'abc') AS null_find,
       CHARINDEX('c', CAST('abc' AS varchar(max))) AS in_max
GO
SELECT PATINDEX('%ter%', 'interesting data') AS ter, PATINDEX('%ensure%', 'Please ensure the door is locked!') AS ensure,
       PATINDEX('%en_ure%', 'Please ensure the door is locked!') AS one_char,
       PATINDEX('%[^ 0-9A-z]%', 'Please ensure the door is locked!') AS not_in_set,
       PATINDEX('%[0-9]%', 'abc7d') AS digit, PATINDEX('A%', 'abc') AS anchored, PATINDEX('b%', 'abc') AS not_first,
       PATINDEX('%c', 'abcd') AS not_last
GO
SELECT REPLACE('abcdefghicde', 'cde', 'xxx') AS doc_example, REPLACE('This is a Test', 'test', 'Exam') AS any_case
SELECT REPLACE('aaaa', 'aa', 'b') AS left_to_right, REPLACE('abc', '', 'x') AS empty_find, REPLACE('abc', NULL, 'x') AS null_find
GO
SELECT REPLICATE('ab', 3) AS ab3, REPLICATE('x', 0) AS none, REPLICATE('x', -1) AS negative
SELECT REVERSE('abc') AS cba, REVERSE(1234) AS number, '[' + SPACE(3) + ']' AS spaced, SPACE(-1) AS negative
GO
SELECT STUFF('abcdef', 2, 3, 'ijklmn') AS doc_example, STUFF('abc', 2, 10, 'X') AS to_end
SELECT STUFF('abc', 2, 1, NULL) AS null_insert, STUFF('abc', 4, 1, 'x') AS past_end, STUFF('abc', 0, 1, 'x') AS zero_start
GO
SELECT CHAR(65) AS a, CHAR(128) AS euro, CHAR(256) AS too_big, NCHAR(8364) AS n_euro, NCHAR(65536) AS n_too_big,
       ASCII('A') AS ascii_a, ASCII('€') AS ascii_euro, ASCII('') AS ascii_empty, UNICODE(N'€') AS code,
       UNICODE('abc') AS first_code
GO
SELECT QUOTENAME('abc[]def') AS brackets, QUOTENAME('abc', '"') AS quotes, QUOTENAME('it''s', CHAR(39)) AS apostrophe,
       QUOTENAME('a', '(') AS parens, QUOTENAME('a', 'x') AS bad_quote, QUOTENAME(REPLICATE('a', 129)) AS too_long
GO
SELECT CONCAT('a', NULL, 1, 2.50, CAST(NULL AS int), N'ü') AS mixed, CONCAT(NULL, NULL) AS nothing,
       CONCAT_WS(',', '1 Microsoft Way', NULL, NULL, 'Redmond', 'WA', 98052) AS address, CONCAT_WS('-', NULL, NULL) AS all_null
GO
SELECT CONCAT('a')
GO
SELECT CONCAT_WS(',', 'a')
GO
SELECT LEN('abc  ') AS len, LEN(CAST('abc' AS varchar(max))) AS len_max, LEFT('abcdef', 2) AS l2, RIGHT('abcdef', 2) AS r2
GO
SELECT LEFT('abc', -1)
GO
SELECT RIGHT('abc', -1)
GO
DECLARE @n int = -1;
SELECT SUBSTRING('abc', 1, @n)
GO
DECLARE @n int = -1;
SELECT RIGHT('abc', @n)
GO
SELECT STR(123.45, 6, 1) AS doc_example, STR(123.45, 2, 2) AS stars, STR(FLOOR(123.45), 8, 3) AS floored,
       STR(12) AS default_width, STR(1223, 2) AS stars2, STR(123.456, 5, 2) AS fewer_places, STR(2.567, 6, 2) AS rounded
GO
-- FORMAT: .NET Framework's format strings under en-US; NULL where .NET rejects the format.
SELECT FORMAT(1234567.891, 'N') AS n, FORMAT(1234567.891, 'N0') AS n0, FORMAT(-1234.5, 'N2') AS negative
SELECT FORMAT(123, 'D5') AS d5, FORMAT(-42, 'D') AS d, FORMAT(1.5, 'D') AS d_of_decimal
SELECT FORMAT(255, 'X') AS x, FORMAT(-1, 'x') AS minus_one, FORMAT(255, 'X4') AS x4
SELECT FORMAT(1234.5678, 'F2') AS f2, FORMAT(1234.5678, '#,##0.00') AS grouped, FORMAT(5, '0000') AS padded
SELECT FORMAT(0.125, '0.0%') AS pct, FORMAT(1234567890, '(###) ###-####') AS phone, FORMAT(0, '#') AS nothing
SELECT FORMAT(0.4, '#.##') AS no_whole, FORMAT(12.3456, '0.##') AS optional, FORMAT(CAST(1.005 AS float), 'N2') AS float_n2
SELECT FORMAT($1234.5, 'N2') AS money, FORMAT(123, 'Z') AS bad_format, FORMAT(NULL, 'N') AS null_value
GO
DECLARE @dt datetime2 = '2024-03-05 14:07:09.1234567';
SELECT FORMAT(@dt, 'yyyy-MM-dd') AS iso, FORMAT(@dt, 'HH:mm:ss') AS clock, FORMAT(@dt, 'dd/MM/yyyy') AS european
SELECT FORMAT(@dt, 'MMMM') AS month_name, FORMAT(@dt, 'dddd, MMMM d, yyyy') AS long_date, FORMAT(@dt, 'hh:mm tt') AS twelve_hour
SELECT FORMAT(@dt, 'd') AS short_date, FORMAT(@dt, 'D') AS standard_long, FORMAT(@dt, 'yyyy-MM-dd HH:mm:ss.fff') AS millis
SELECT FORMAT(@dt, 'MMM d yy') AS short_month, FORMAT(@dt, 'ss.FFF') AS trimmed, FORMAT(CAST('2024-03-05 14:07:09' AS datetime2), 'ss.FFF') AS no_fraction
SELECT FORMAT(CAST('2024-03-05' AS date), 'yyyyMMdd') AS compact, FORMAT(CAST('2024-03-05 14:07 +05:30' AS datetimeoffset), 'yyyy-MM-dd HH:mm zzz') AS offset,
       FORMAT(@dt, 'Q') AS bad_standard
GO
SELECT FORMAT('abc', 'N')
GO
SELECT FORMAT(123, 'C')
GO
SELECT FORMAT(1, 'N', 'de-DE')
GO
SELECT FORMAT(CAST('10:00' AS time), 'hh')
GO
