-- Local variables: DECLARE with initial values, SET (with compound
-- operators, including the sample's own `+ =`), assignment SELECT over a
-- table (each row assigns in turn), variables in WHERE, TOP and DML; they
-- live for one batch.
CREATE TABLE dbo.items (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(10) NOT NULL, qty int NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.items VALUES (1, 'bolt', 5), (2, 'nut', 7), (3, 'gear', 2)
GO
DECLARE @i int = 0, @total int, @names varchar(100) = '', @short varchar(3) = 'abcdef'
SET @i += 2
SET @i + = 1
SELECT @total = 0
SELECT @total += qty, @names = @names + name + ';' FROM dbo.items
SELECT @i AS i, @total AS total, @names AS names, @short AS short
UPDATE dbo.items SET qty = qty + @i WHERE id = @i - 2
DECLARE @n int = 2
SELECT TOP (@n) id, qty FROM dbo.items WHERE qty > @i
GO
SELECT @i
GO
DECLARE @a int
DECLARE @a bigint
GO
DECLARE @d date = 'not a date'
GO
DECLARE @x int = 1
SELECT @x = 2, 3
GO
