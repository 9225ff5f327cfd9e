-- SELECT TOP (n) ... ORDER BY sorts with a Top N Sort, which keeps only
-- the rows the TOP can return (SQL Server's Sort(TOP n, ORDER BY:...)):
-- with WITH TIES also the rows equal to the last, with OFFSET ... FETCH
-- the skipped rows too. The rows are those a full sort puts first.
CREATE TABLE dbo.scores (id int NOT NULL PRIMARY KEY NONCLUSTERED, grp int NOT NULL, score int NOT NULL)
GO
SET NOCOUNT ON
INSERT dbo.scores SELECT number, number % 7, (number * 37) % 101 FROM master..spt_values WHERE type = 'P' AND number < 1000
SET NOCOUNT OFF
GO
SET SHOWPLAN_TEXT ON
GO
SELECT TOP (3) id, score FROM dbo.scores ORDER BY score DESC, id
SELECT TOP (2) WITH TIES grp, score FROM dbo.scores ORDER BY score DESC
SELECT id, score FROM dbo.scores ORDER BY score, id OFFSET 5 ROWS FETCH NEXT 3 ROWS ONLY
SELECT TOP (10) PERCENT id FROM dbo.scores ORDER BY score
GO
SET SHOWPLAN_TEXT OFF
GO
SELECT TOP (3) id, score FROM dbo.scores ORDER BY score DESC, id
SELECT TOP (2) WITH TIES grp, score FROM dbo.scores ORDER BY score DESC, grp
SELECT id, score FROM dbo.scores ORDER BY score, id OFFSET 5 ROWS FETCH NEXT 3 ROWS ONLY
SELECT TOP (0) id FROM dbo.scores ORDER BY score
GO
-- Rows with equal keys come in the order a full sort gives them.
SELECT TOP (4) grp FROM dbo.scores WHERE score = 0 ORDER BY score
SELECT grp FROM dbo.scores WHERE score = 0 ORDER BY score
GO
-- A variable row count, and TOP over a join.
DECLARE @n int = 2
SELECT TOP (@n) a.id, b.id AS other FROM dbo.scores AS a JOIN dbo.scores AS b ON b.grp = a.grp
WHERE a.id < 20 AND b.id < 20
ORDER BY a.score + b.score DESC, a.id, b.id
GO
