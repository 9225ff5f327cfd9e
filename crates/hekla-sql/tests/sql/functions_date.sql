-- Date and time functions: DATEADD, DATEDIFF, DATEDIFF_BIG, DATEPART,
-- DATENAME, EOMONTH, the FROMPARTS family, and their errors. Expected
-- values follow SQL Server's documentation (its examples where it has
-- them), under us_english and DATEFIRST 7.
DECLARE @d datetime2 = '2007-01-01 13:10:10.1111111';
SELECT DATEADD(year, 1, @d) AS yr, DATEADD(quarter, 1, @d) AS q, DATEADD(month, 1, @d) AS m, DATEADD(dayofyear, 1, @d) AS dy
SELECT DATEADD(day, 1, @d) AS d, DATEADD(week, 1, @d) AS wk, DATEADD(weekday, 1, @d) AS dw, DATEADD(hour, 1, @d) AS hh
SELECT DATEADD(minute, 1, @d) AS mi, DATEADD(second, 1, @d) AS ss, DATEADD(millisecond, 1, @d) AS ms, DATEADD(microsecond, 1, @d) AS mcs
SELECT DATEADD(nanosecond, 49, @d) AS ns49, DATEADD(nanosecond, 50, @d) AS ns50, DATEADD(nanosecond, 150, @d) AS ns150, DATEADD(yy, -1, @d) AS minus
GO
-- A string is read as datetime; a missing day becomes the month's last.
SELECT DATEADD(month, 1, '20060830') AS aug30, DATEADD(month, 1, '20060831') AS aug31, DATEADD(mm, -1, '2015-03-31') AS mar31,
       DATEADD(year, 1, CAST('2024-02-29' AS date)) AS leap, DATEADD(d, 1.9, CAST('2024-01-01' AS date)) AS truncated
GO
-- datetime rounds to 1/300 s, smalldatetime to the minute (29.999 s up).
DECLARE @days int = 365, @datetime datetime = '2000-01-01 01:01:01.111';
SELECT DATEADD(day, @days, @datetime) AS leap_year, DATEADD(ms, -3, CAST('2011-01-01' AS datetime)) AS minus3,
       DATEADD(ms, -1, CAST('2011-01-01' AS datetime)) AS minus1
DECLARE @s smalldatetime = '2024-01-01 10:00';
SELECT DATEADD(second, 29, @s) AS s29, DATEADD(second, 30, @s) AS s30, DATEADD(second, -30, @s) AS s_30,
       DATEADD(ms, 29998, @s) AS ms29998, DATEADD(ms, 29999, @s) AS ms29999
GO
-- time wraps around midnight; datetimeoffset keeps its offset.
SELECT DATEADD(hour, 25, CAST('23:30' AS time)) AS t, DATEADD(minute, -31, CAST('00:30' AS time(0))) AS t0,
       DATEADD(hour, 1, CAST('2024-01-01 23:30 +05:00' AS datetimeoffset)) AS dto
GO
SELECT DATEADD(xx, 1, GETDATE())
GO
SELECT DATEADD('day', 1, GETDATE())
GO
SELECT DATEADD(tz, 1, SYSDATETIME())
GO
SELECT DATEADD(hour, 1, CAST('2024-01-01' AS date))
GO
SELECT DATEADD(day, 1, CAST('10:00' AS time))
GO
SELECT DATEADD(ns, 1, CAST('2024-01-01' AS datetime))
GO
SELECT DATEADD(year, 2147483647, '20060731')
GO
SELECT DATEADD(day, 1)
GO
-- DATEDIFF counts boundaries: a tenth of a microsecond crosses one of each.
DECLARE @a datetime2 = '2005-12-31 23:59:59.9999999', @b datetime2 = '2006-01-01 00:00:00.0000000';
SELECT DATEDIFF(year, @a, @b) AS y, DATEDIFF(quarter, @a, @b) AS q, DATEDIFF(month, @a, @b) AS m, DATEDIFF(dayofyear, @a, @b) AS dy,
       DATEDIFF(day, @a, @b) AS d, DATEDIFF(week, @a, @b) AS wk, DATEDIFF(hour, @a, @b) AS hh, DATEDIFF(minute, @a, @b) AS mi,
       DATEDIFF(second, @a, @b) AS ss, DATEDIFF(millisecond, @a, @b) AS ms, DATEDIFF(microsecond, @a, @b) AS mcs, DATEDIFF(nanosecond, @a, @b) AS ns
GO
SELECT DATEDIFF(day, '2036-03-01', '2036-02-28') AS back2, DATEDIFF(week, '2024-01-06', '2024-01-07') AS sat_sun,
       DATEDIFF(week, '2024-01-07', '2024-01-13') AS sun_sat, DATEDIFF(month, '1987-05-02', '1995-11-15') AS months,
       DATEDIFF(hour, '4:00AM', '5:50AM') AS hours, DATEDIFF(day, '00:00', '23:59') AS same_day
GO
-- Offsets count (the instants are compared in UTC); datetime is read at the millisecond it shows.
SELECT DATEDIFF(hour, CAST('2024-01-01 10:00 +05:00' AS datetimeoffset), CAST('2024-01-01 10:00 +00:00' AS datetimeoffset)) AS utc_hours,
       DATEDIFF(ms, CAST('2020-01-01 00:00:00.000' AS datetime), CAST('2020-01-01 00:00:00.007' AS datetime)) AS ms,
       DATEDIFF_BIG(second, '19470101', '20160101') AS big_seconds, DATEDIFF(day, NULL, '2020-01-01') AS null_start
GO
SELECT DATEDIFF(second, '19470101', '20160101')
GO
SELECT DATEDIFF_BIG(nanosecond, '0001-01-01', '9999-12-31 23:59:59.9999999')
GO
SELECT DATEDIFF(iso_week, '2020-01-01', '2020-02-01')
GO
-- DATEPART of a datetimeoffset(7) string, as in SQL Server's table.
DECLARE @p varchar(40) = '2007-10-30 12:15:32.1234567 +05:10';
SELECT DATEPART(year, @p) AS y, DATEPART(quarter, @p) AS q, DATEPART(month, @p) AS m, DATEPART(dayofyear, @p) AS dy,
       DATEPART(day, @p) AS d, DATEPART(week, @p) AS wk, DATEPART(weekday, @p) AS dw, DATEPART(hour, @p) AS hh
SELECT DATEPART(minute, @p) AS mi, DATEPART(second, @p) AS ss, DATEPART(millisecond, @p) AS ms, DATEPART(microsecond, @p) AS mcs,
       DATEPART(nanosecond, @p) AS ns, DATEPART(tzoffset, @p) AS tz, DATEPART(iso_week, @p) AS isowk
GO
-- Week and weekday under DATEFIRST 7; a number is a datetime; a literal without a date part reads 1900-01-01.
SELECT DATEPART(week, '2007-04-21') AS wk, DATEPART(dw, '2007-04-21') AS dw, DATEPART(year, 0) AS y0, DATEPART(month, 0) AS m0,
       DATEPART(year, '12:10:30.123') AS y, DATEPART(dy, '12:10:30.123') AS dy, DATEPART(weekday, '12:10:30.123') AS dw1900,
       DATEPART(ms, CAST('2020-01-01 00:00:00.007' AS datetime)) AS ms, DATEPART(isowk, '2021-01-03') AS iso53, YEAR(0) AS year0
GO
DECLARE @t time = '12:10:30.123';
SELECT DATEPART(year, @t)
GO
SELECT DATEPART(tz, CAST('2020-01-01' AS datetime))
GO
DECLARE @part varchar(10) = 'year';
SELECT DATEPART(@part, '2020-01-01')
GO
SELECT DATEPART(fortnight, '2020-01-01')
GO
SELECT DATENAME(month, '2007-10-30 12:15:32.1234567 +05:10') AS m, DATENAME(weekday, '2007-10-30') AS dw,
       DATENAME(tz, '2007-10-30 12:15:32 +05:10') AS tz, DATENAME(tz, '2007-10-30 12:15:32 -03:30') AS west,
       DATENAME(year, '2007-10-30') AS y, DATENAME(dw, CAST('2024-02-29' AS date)) AS leap_day
GO
DECLARE @date datetime = '12/1/2011';
SELECT EOMONTH(@date) AS this_month, EOMONTH(@date, 1) AS next_month, EOMONTH(@date, -1) AS last_month,
       EOMONTH('2024-01-31', 1) AS february, EOMONTH(NULL) AS nothing
GO
SELECT EOMONTH('9999-12-01', 1)
GO
SELECT DATEFROMPARTS(2010, 12, 31) AS d, DATEFROMPARTS(2015, 13, NULL) AS null_part,
       DATETIMEFROMPARTS(2010, 12, 31, 23, 59, 59, 997) AS dt, TIMEFROMPARTS(23, 59, 59, 5, 1) AS t
SELECT DATETIME2FROMPARTS(2011, 8, 15, 14, 23, 44, 5, 1) AS p1, DATETIME2FROMPARTS(2011, 8, 15, 14, 23, 44, 50, 2) AS p2,
       DATETIME2FROMPARTS(2011, 8, 15, 14, 23, 44, 500, 3) AS p3, DATETIME2FROMPARTS(2010, 12, 31, 23, 59, 59, 0, 0) AS p0
GO
SELECT DATEFROMPARTS(2015, 13, 25)
GO
SELECT DATETIMEFROMPARTS(1600, 1, 1, 1, 1, 1, 500)
GO
SELECT DATETIME2FROMPARTS(2010, 12, 31, 23, 59, 59, 10, 1)
GO
SELECT DATETIME2FROMPARTS(2010, 12, 31, 23, 59, 59, 0, NULL)
GO
-- The clock functions: server time is UTC.
SELECT CASE WHEN DATEPART(tz, SYSDATETIMEOFFSET()) = 0 AND DATEDIFF(day, SYSUTCDATETIME(), GETUTCDATE()) = 0 THEN 'utc' ELSE 'other' END AS clock
GO
