-- UPDATE and DELETE over one table: WHERE, compound assignments, key
-- changes, statement atomicity and errors.
CREATE TABLE dbo.accounts (
    id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    owner nvarchar(20) NOT NULL,
    balance money NOT NULL,
    INDEX ix_owner NONCLUSTERED (owner)
) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.accounts VALUES (1, N'ada', 100), (2, N'bob', 50), (3, N'cy', 0)
GO
UPDATE dbo.accounts SET balance += 10 WHERE balance > 0
GO
UPDATE accounts SET owner = owner + N'!', balance = balance * 2 WHERE id = 3
GO
UPDATE dbo.accounts SET id = id + 10 WHERE owner = N'bob'
GO
SELECT * FROM dbo.accounts
GO
-- A key collision in the second row undoes the first.
UPDATE dbo.accounts SET id = 12 WHERE id IN (1, 3)
GO
SELECT id, owner FROM dbo.accounts WHERE id = 12 OR id = 1
GO
UPDATE dbo.accounts SET owner = NULL WHERE id = 1
GO
UPDATE dbo.accounts SET nope = 1
GO
UPDATE dbo.accounts SET balance = 1, balance = 2
GO
DELETE FROM dbo.accounts WHERE balance < 100
GO
DELETE dbo.accounts WHERE owner = N'nobody'
GO
SELECT * FROM dbo.accounts
GO
DELETE FROM dbo.accounts
GO
SELECT * FROM dbo.accounts
GO
