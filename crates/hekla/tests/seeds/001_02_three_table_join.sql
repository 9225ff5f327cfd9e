-- Seed 001, "The Long-Awaited Demo": the three-table join at MAXDOP 1, and
-- (not printed in the article, whose text runs it) at MAXDOP 4. The rows are
-- summarised here so the expected output stays short; the article's query
-- itself runs first under SHOWPLAN_TEXT to show the join plan, then for real.
SET SHOWPLAN_TEXT ON
GO
SELECT LARGE.ID_U
FROM dbo.SMALL
INNER JOIN dbo.LARGE ON SMALL.ID_U = LARGE.ID_U
INNER JOIN dbo.MEDIUM ON LARGE.ID_A = MEDIUM.ID_A
OPTION (MAXDOP 1);
GO
SET SHOWPLAN_TEXT OFF
GO
SET NOCOUNT ON
SELECT COUNT(*) AS [rows], SUM(ID_U) AS sum_id_u
FROM (
SELECT LARGE.ID_U
FROM dbo.SMALL
INNER JOIN dbo.LARGE ON SMALL.ID_U = LARGE.ID_U
INNER JOIN dbo.MEDIUM ON LARGE.ID_A = MEDIUM.ID_A
) AS q
OPTION (MAXDOP 1);
SELECT COUNT(*) AS [rows], SUM(ID_U) AS sum_id_u
FROM (
SELECT LARGE.ID_U
FROM dbo.SMALL
INNER JOIN dbo.LARGE ON SMALL.ID_U = LARGE.ID_U
INNER JOIN dbo.MEDIUM ON LARGE.ID_A = MEDIUM.ID_A
) AS q
OPTION (MAXDOP 4);
GO
