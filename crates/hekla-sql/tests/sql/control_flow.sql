-- IF / ELSE, WHILE with BREAK and CONTINUE, BEGIN ... END, GOTO, RETURN,
-- WAITFOR DELAY.
DECLARE @i int = 0, @odd int = 0, @log varchar(100) = ''
WHILE @i < 10
BEGIN
    SET @i += 1
    IF @i % 2 = 0 CONTINUE
    IF @i > 7 BREAK
    SET @odd += 1
    SET @log = @log + CAST(@i AS varchar(5)) + ' '
END
SELECT @i AS i, @odd AS odd, @log AS log
IF @odd = 4
    PRINT 'four odd numbers'
ELSE
    PRINT 'not reached'
IF NULL = NULL PRINT 'not reached: UNKNOWN is not true' ELSE PRINT 'NULL = NULL is not true'
IF EXISTS (SELECT 1 FROM sys.objects WHERE name = 'nothing') PRINT 'not reached'
ELSE IF 1 IN (SELECT 1) PRINT 'else if with a subquery'
GO
-- Nested loops; BREAK leaves only the inner one.
DECLARE @a int = 0, @b int, @pairs int = 0
WHILE @a < 3
BEGIN
    SET @a += 1
    SET @b = 0
    WHILE 1 = 1
    BEGIN
        SET @b += 1
        IF @b > @a BREAK
        SET @pairs += 1
    END
END
SELECT @pairs AS pairs
GO
-- GOTO jumps forward and backward within the batch.
DECLARE @n int = 0
again:
SET @n += 1
IF @n < 3 GOTO again
PRINT 'looped ' + CAST(@n AS varchar(5)) + ' times'
GOTO done
PRINT 'skipped'
done:
PRINT 'done'
GO
GOTO nowhere
GO
-- RETURN ends the batch quietly.
PRINT 'before return'
RETURN
PRINT 'after return: not printed'
GO
-- An error in a WHILE condition or an IF is the statement's error.
DECLARE @x int = 1
IF 1 / 0 = 1 PRINT 'no'
PRINT 'the batch goes on after a statement error'
WHILE @x < 'abc' SET @x += 1
PRINT 'not printed: conversion errors end the batch'
GO
WAITFOR DELAY '00:00:00.010'
PRINT 'waited'
WAITFOR DELAY 'soon'
GO
