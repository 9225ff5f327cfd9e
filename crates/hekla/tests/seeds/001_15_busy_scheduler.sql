-- Seed 001, "Adding a Busy Scheduler": a TOP (1) ... ORDER BY over a
-- four-way cross join of spt_values, which the article starts and cancels
-- (2048^4 rows). Scaled: each input is the first 40 rows of spt_values, so
-- the sort sees 2,560,000 rows and keeps one (a Top N Sort).
SELECT TOP (1) t1.high + t2.high + t3.high + t4.high
FROM (SELECT TOP (40) high FROM master..spt_values) t1
CROSS JOIN (SELECT TOP (40) high FROM master..spt_values) t2
CROSS JOIN (SELECT TOP (40) high FROM master..spt_values) t3
CROSS JOIN (SELECT TOP (40) high FROM master..spt_values) t4
ORDER BY t1.high + t2.high + t3.high + t4.high
OPTION (MAXDOP 1, NO_PERFORMANCE_SPOOL)
