-- SET IDENTITY_INSERT t ON lets an INSERT give the IDENTITY column its
-- values (and requires it to: Msg 545); later values continue past the
-- highest given (for a negative increment, the lowest). One table at a
-- time per session (8107); a table without IDENTITY is 8106, a missing
-- one 1088; OFF again is Msg 544 for an explicit value.
CREATE TABLE dbo.t (id int IDENTITY NOT NULL PRIMARY KEY NONCLUSTERED, v varchar(10)) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.down (id int IDENTITY(10, -1), v varchar(10))
CREATE TABLE dbo.plain (v int)
GO
INSERT dbo.t (v) VALUES ('first')
SET IDENTITY_INSERT dbo.t ON
INSERT dbo.t (id, v) VALUES (100, 'explicit'), (50, 'lower')
INSERT dbo.t (v) VALUES ('no id')
SET IDENTITY_INSERT dbo.down ON
SET IDENTITY_INSERT dbo.plain ON
SET IDENTITY_INSERT dbo.nope ON
SET IDENTITY_INSERT dbo.t OFF
INSERT dbo.t (v) VALUES ('after')
INSERT dbo.t (id, v) VALUES (5, 'refused')
SELECT id, v FROM dbo.t ORDER BY id
SELECT IDENT_CURRENT('dbo.t') AS t_current
GO
SET IDENTITY_INSERT down ON
INSERT dbo.down (id, v) VALUES (-5, 'low'), (20, 'high')
SET IDENTITY_INSERT down OFF
INSERT dbo.down (v) VALUES ('next')
SELECT id, v FROM dbo.down ORDER BY id
GO
-- A duplicate explicit key is the key's error, as any duplicate.
SET IDENTITY_INSERT dbo.t ON
INSERT dbo.t (id, v) VALUES (100, 'again')
SET IDENTITY_INSERT dbo.t OFF
GO
