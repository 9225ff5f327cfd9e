-- Mathematical functions: ROUND's result types and overflow, FLOOR,
-- CEILING, SIGN, POWER's type rules, the float functions and their
-- domain errors, and RAND's seeded repeatability. Expected values follow
-- SQL Server's documentation, its own examples where it has them.
SELECT ROUND(123.9994, 3) AS r1, ROUND(123.9995, 3) AS r2, ROUND(123.4545, 2) AS r3, ROUND(123.45, -2) AS r4,
       ROUND(150.75, 0) AS rounded, ROUND(150.75, 0, 1) AS truncated, ROUND(748.58, -1) AS tens, ROUND(748.58, -2) AS hundreds,
       ROUND(748.58, -4) AS past_digits, ROUND(CAST(748.58 AS decimal(6, 2)), -3) AS wider
GO
SELECT ROUND(-2.5, 0) AS away_from_zero, ROUND(1234, -2) AS int_down, ROUND(1250, -2) AS int_up, ROUND(CAST(2.5 AS float), 0) AS float_half,
       ROUND(CAST(1.2345 AS real), 2) AS from_real, ROUND($1.2345, 2) AS money, ROUND(CAST(7 AS tinyint), -1) AS tiny, ROUND(2.5, NULL) AS null_length
GO
SELECT ROUND(748.58, -3)
GO
SELECT ROUND(2147483647, -1)
GO
SELECT ROUND(1.5, 1.5)
GO
SELECT ROUND(1)
GO
SELECT ROUND(CAST(1 AS bit), 0)
GO
SELECT FLOOR(123.45) AS f1, FLOOR(-123.45) AS f2, FLOOR($123.45) AS f3, CEILING(123.45) AS c1, CEILING(-123.45) AS c2,
       CEILING($123.45) AS c3, CEILING(0.0) AS c0, FLOOR(CAST(-1.5 AS float)) AS ff, CEILING('2.1') AS from_text
GO
SELECT SIGN(-125) AS neg, SIGN(0) AS zero, SIGN(564) AS pos, SIGN(-2.50) AS dec, SIGN(CAST(-1 AS real)) AS real_sign,
       SIGN($5) AS money
GO
SELECT POWER(2, 10) AS int_power, POWER(2, 0.5) AS int_root, POWER(2.0, -100.0) AS dec1, POWER(2.00, -100.0) AS dec2,
       POWER(CAST(2.0 AS float), 3) AS float_cube, POWER(2.5, 3) AS dec_cube, POWER(CAST(10 AS bigint), 15) AS big
GO
SELECT POWER(2, 31)
GO
SELECT SQRT(16) AS four, SQRT(2) AS root2, SQUARE(5) AS sq, EXP(0) AS e0, EXP(1) AS e, LOG(1) AS ln1,
       LOG(8, 2) AS log2_8, LOG10(1000) AS log10, PI() AS pi, ABS(-5) AS abs_int
GO
SELECT SQRT(-1)
GO
SELECT LOG(0)
GO
-- RAND: a seed restarts the sequence, so the same seed gives the same values.
DECLARE @a float = RAND(42), @b float = RAND(), @c float = RAND(42), @d float = RAND(), @e float = RAND();
SELECT CASE WHEN @a = @c AND @b = @d THEN 'repeats' ELSE 'differs' END AS seeded,
       CASE WHEN @a >= 0 AND @a < 1 AND @e >= 0 AND @e < 1 THEN 'in [0, 1)' ELSE 'out of range' END AS range,
       CASE WHEN @a <> @b AND @d <> @e THEN 'moves' ELSE 'stuck' END AS sequence
GO
SELECT PI(1)
GO
