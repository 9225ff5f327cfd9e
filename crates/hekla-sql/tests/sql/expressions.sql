-- Constant expressions: literal types, operators, conversions, CASE, NULL
-- logic, and SQL Server's errors for overflow, division by zero and bad
-- conversions.
SELECT 1 + 2 AS three, 10 / 3 AS int_div, -7 % 3 AS modulo, 7.0 / 3 AS dec_div, 1.5 + 10 AS dec_add
GO
SELECT 'abc' + 'def' AS concat, N'ü' + 'x' AS nat, 'a' + NULL AS with_null
GO
SELECT $1.50 * 2 AS money_product, 1e1 AS float_literal, 0x0A0B AS bin, 2147483648 AS big
GO
SELECT CAST('2024-02-29' AS date) AS leap_day, CONVERT(varchar(10), CAST('2024-02-29' AS date), 103) AS british
GO
SELECT CAST(12.345 AS decimal(5, 1)) AS rounded, CAST(12.9 AS int) AS truncated, CAST(' 42 ' AS int) AS padded
GO
SELECT TRY_CAST('abc' AS int) AS bad, TRY_CONVERT(date, '2024-13-01') AS bad_date
GO
SELECT CASE WHEN 1 < 2 THEN 'yes' ELSE 'no' END AS searched,
       CASE 3 WHEN 1 THEN 'one' WHEN 3 THEN 'three' END AS simple,
       CASE WHEN NULL = NULL THEN 'equal' ELSE 'unknown' END AS null_compare
GO
SELECT CASE WHEN 1 IN (2, 3, 1) THEN 1 ELSE 0 END AS in_list,
       CASE WHEN 5 BETWEEN 1 AND 10 AND NOT (2 > 3) THEN 1 ELSE 0 END AS between_and_not,
       CASE WHEN NULL IS NULL OR NULL = 1 THEN 1 ELSE 0 END AS true_or_unknown
GO
SELECT ~5 AS bit_not, 6 & 3 AS bit_and, 6 | 3 AS bit_or, 6 ^ 3 AS bit_xor, -(-2147483647) AS neg
GO
PRINT 'printed ' + CONVERT(varchar(12), 42)
PRINT NULL
GO
SELECT 2147483647 + 1
GO
SELECT 1 / 0
GO
SELECT CAST('abc' AS int)
GO
SELECT CAST(CAST('2024-01-01' AS date) AS time)
GO
SELECT CAST(1 AS frob)
GO
SELECT 1 + 'x'
GO
SELECT missing_column
GO
SELECT @undeclared
GO
SELECT *
GO
SELECT 1 AS a, 2 AS b FROM t
GO
SET NOCOUNT ON
SELECT 'no count below' AS quiet
GO
