-- Under SET SHOWPLAN_TEXT ON an INSERT, UPDATE or DELETE shows its plan
-- and runs nothing: no row changes, no IDENTITY or sequence value is
-- used. The plan is the change operator on the target table over the
-- plan of the rows the statement reads.
CREATE TABLE dbo.t (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    region int NOT NULL,
    v int NULL,
    INDEX ix_region NONCLUSTERED (region)
) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.log (n int IDENTITY(1, 1) NOT NULL, id int NULL)
CREATE SEQUENCE dbo.ids START WITH 1
INSERT dbo.t VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30)
GO
SET SHOWPLAN_TEXT ON
GO
INSERT dbo.t VALUES (4, 2, 40), (5, 3, 50)
INSERT dbo.t (id, region, v) SELECT id + 10, region, v FROM dbo.t WHERE region = 1
INSERT dbo.log (id) VALUES (NEXT VALUE FOR dbo.ids)
INSERT dbo.log DEFAULT VALUES
UPDATE dbo.t SET v = v + 1 WHERE id = 3
UPDATE t SET v = l.id FROM dbo.t AS t JOIN dbo.log AS l ON l.id = t.id
DELETE dbo.t WHERE region = 2
DELETE FROM dbo.log
GO
-- A statement that would not compile fails as it would when run.
UPDATE dbo.t SET nope = 1
GO
UPDATE dbo.t SET v = nope
GO
DELETE dbo.missing
GO
INSERT dbo.t (id, nope) VALUES (1, 2)
GO
-- Table variables are planned too (and left empty).
DECLARE @tv TABLE (k int)
INSERT @tv VALUES (1)
SELECT * FROM @tv
GO
SET SHOWPLAN_TEXT OFF
GO
-- Nothing ran: the rows, the IDENTITY and the sequence are untouched.
SELECT * FROM dbo.t ORDER BY id
SELECT COUNT(*) AS logged FROM dbo.log
INSERT dbo.log (id) VALUES (NEXT VALUE FOR dbo.ids)
SELECT n AS first_identity, id AS first_sequence_value FROM dbo.log
GO
