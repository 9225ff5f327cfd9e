-- IDENT_CURRENT (the last IDENTITY value any session took, the seed
-- before the first or after TRUNCATE), IDENT_SEED and IDENT_INCR, all
-- numeric(38, 0); NULL for a table without IDENTITY or a name that is not
-- a table.
CREATE TABLE dbo.t (id int IDENTITY NOT NULL PRIMARY KEY NONCLUSTERED, v int) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.p (id bigint IDENTITY(100, 5), v int)
CREATE TABLE dbo.n (v int)
GO
SELECT IDENT_CURRENT('dbo.t') AS t_current, IDENT_SEED('p') AS p_seed, IDENT_INCR('hekla.dbo.p') AS p_incr,
       IDENT_CURRENT('dbo.n') AS no_identity, IDENT_CURRENT('nope') AS no_table, IDENT_CURRENT(NULL) AS null_name
INSERT dbo.t (v) VALUES (1), (2)
INSERT dbo.p (v) VALUES (1)
SELECT IDENT_CURRENT('dbo.t') AS t_current, IDENT_CURRENT('p') AS p_current, SCOPE_IDENTITY() AS scope
TRUNCATE TABLE dbo.p
SELECT IDENT_CURRENT('p') AS after_truncate
GO
SELECT IDENT_CURRENT()
GO
