-- TRY/CATCH: the CATCH block sees the error through ERROR_NUMBER() and
-- its siblings; the client sees nothing unless CATCH shows it.
CREATE TABLE dbo.k (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.k VALUES (1)
GO
BEGIN TRY
    INSERT INTO dbo.k VALUES (2), (1)
    PRINT 'not reached'
END TRY
BEGIN CATCH
    SELECT ERROR_NUMBER() AS number, ERROR_SEVERITY() AS severity, ERROR_STATE() AS state,
           ERROR_LINE() AS line, ERROR_PROCEDURE() AS [procedure], @@ERROR AS [@@error]
    PRINT ERROR_MESSAGE()
END CATCH
SELECT COUNT(*) AS rows_after FROM dbo.k
SELECT ERROR_NUMBER() AS outside_catch
GO
-- Divide by zero, conversion, and RAISERROR are caught alike.
BEGIN TRY
    SELECT 1 / 0
END TRY
BEGIN CATCH
    PRINT 'caught ' + CAST(ERROR_NUMBER() AS varchar(10))
END CATCH
BEGIN TRY
    SELECT CAST('abc' AS int)
END TRY
BEGIN CATCH
    PRINT 'caught ' + CAST(ERROR_NUMBER() AS varchar(10))
END CATCH
BEGIN TRY
    RAISERROR('order %d of %s failed', 16, 3, 42, 'Contoso')
END TRY
BEGIN CATCH
    SELECT ERROR_NUMBER() AS number, ERROR_MESSAGE() AS message, ERROR_STATE() AS state
END CATCH
PRINT 'the batch goes on'
GO
-- Nested TRY: the inner CATCH handles its error; an error in a CATCH
-- block goes to the outer CATCH, and ERROR_NUMBER() is the innermost.
BEGIN TRY
    BEGIN TRY
        SELECT 1 / 0
    END TRY
    BEGIN CATCH
        PRINT 'inner caught ' + CAST(ERROR_NUMBER() AS varchar(10))
        SELECT CAST('x' AS int)
    END CATCH
END TRY
BEGIN CATCH
    PRINT 'outer caught ' + CAST(ERROR_NUMBER() AS varchar(10))
    BEGIN TRY
        THROW 50001, 'from the outer catch', 1
    END TRY
    BEGIN CATCH
        PRINT 'innermost ' + CAST(ERROR_NUMBER() AS varchar(10))
    END CATCH
    PRINT 'back to ' + CAST(ERROR_NUMBER() AS varchar(10))
END CATCH
GO
-- THROW with arguments ends the batch; THROW alone rethrows.
PRINT 'before'
THROW 50000, 'a user error', 1
PRINT 'not printed'
GO
BEGIN TRY
    INSERT INTO dbo.k VALUES (1)
END TRY
BEGIN CATCH
    PRINT 'rethrowing'
    THROW
END CATCH
PRINT 'not printed: the rethrown error ends the batch'
GO
THROW
GO
THROW 49999, 'too small', 1
GO
THROW 50000, 'bad state', 256
GO
-- RAISERROR: severity 10 or less is a message; the batch goes on after
-- severity 11-18; formats and limits.
RAISERROR('just information', 10, 1)
RAISERROR('an error at %s', 16, 1, 'noon')
PRINT 'the batch goes on'
RAISERROR('width [%5d] [%-5d] [%05d] [%x] [%.2s] [%%]', 16, 1, 42, 42, 42, 255, 'abcdef')
RAISERROR('%d', 16, 1, 'text')
RAISERROR('too severe', 19, 1)
RAISERROR(60000, 16, 1)
RAISERROR('silent', 10, 1) WITH SETERROR
SELECT @@ERROR AS seterror
GO
-- A missing table is a compile error of its scope: the batch stops, and
-- a TRY in the same batch does not catch it.
BEGIN TRY
    SELECT * FROM dbo.nothing_here
END TRY
BEGIN CATCH
    PRINT 'not caught at the same level'
END CATCH
PRINT 'not printed'
GO
-- XACT_ABORT ON: an error inside TRY is caught, and XACT_STATE() says
-- the transaction can only be rolled back.
SET XACT_ABORT ON
BEGIN TRY
    BEGIN TRANSACTION
    INSERT INTO dbo.k VALUES (10)
    INSERT INTO dbo.k VALUES (10)
END TRY
BEGIN CATCH
    SELECT XACT_STATE() AS xact_state, @@TRANCOUNT AS trancount
    ROLLBACK
END CATCH
SELECT COUNT(*) AS tens FROM dbo.k WHERE id = 10
SET XACT_ABORT OFF
GO
