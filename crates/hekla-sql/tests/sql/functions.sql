-- Built-in scalar functions: NULL handling (COALESCE, ISNULL, NULLIF,
-- IIF), strings, ABS, date parts, and SQL Server's argument errors.
SELECT COALESCE(NULL, NULL, 3, 4) AS c, ISNULL(NULL, 'x') AS i, NULLIF(5, 5) AS n, NULLIF(5, 6) AS m, IIF(2 > 1, 'yes', 'no') AS iif
GO
SELECT LEN('abc  ') AS len_trailing, LEN(12345) AS len_number, UPPER('MiXed') AS up, LOWER('MiXed') AS low,
       '[' + LTRIM('  a  ') + ']' AS l, '[' + RTRIM('  a  ') + ']' AS r, '[' + TRIM('  a  ') + ']' AS t
GO
SELECT SUBSTRING('abcdef', 2, 3) AS mid, SUBSTRING('abcdef', 0, 2) AS before_start, SUBSTRING('abc', 5, 2) AS past_end,
       LEFT('abcdef', 2) AS l2, RIGHT('abcdef', 2) AS r2, LEFT(N'ab', 10) AS more
GO
SELECT ABS(-5) AS a, ABS(-2.50) AS d, ABS(-$3) AS m, YEAR('2024-02-29') AS y, MONTH('2024-02-29') AS mo, DAY('2024-02-29') AS d2
GO
SELECT CASE WHEN SYSDATETIME() > '2020-01-01' AND GETDATE() > '2020-01-01' THEN 'now' ELSE 'past' END AS clock
GO
SELECT LEN()
GO
SELECT frob(1)
GO
SELECT SUBSTRING('abc', 1, -1)
GO
SELECT ABS('x')
GO
SELECT COALESCE(1)
GO
