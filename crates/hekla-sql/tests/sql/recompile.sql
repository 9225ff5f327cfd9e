-- sp_recompile: hekla keeps no plans (each statement is planned when it
-- runs), so marking an object is checking that it can be marked.
CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE VIEW dbo.v AS SELECT id FROM dbo.t
GO
CREATE PROCEDURE dbo.p AS SELECT COUNT(*) AS n FROM dbo.t
GO
CREATE FUNCTION dbo.f (@x int) RETURNS int AS BEGIN RETURN @x + 1 END
GO
CREATE SEQUENCE dbo.s
GO
EXEC sp_recompile 't'
EXEC sp_recompile N'dbo.v'
EXEC sys.sp_recompile @objname = 'dbo.p'
EXECUTE sp_recompile '[dbo].[f]'
DECLARE @rc int
EXEC @rc = sp_recompile 'p'
SELECT @rc AS return_status
GO
EXEC sp_recompile 'nosuch'
GO
-- A sequence has no plans to mark.
EXEC sp_recompile 'dbo.s'
GO
EXEC sp_recompile
GO
EXEC dbo.p
GO
