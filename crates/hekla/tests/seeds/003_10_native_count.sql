-- Seed 003: the count in a natively compiled procedure.

-- Create a natively compiled stored procedure
DROP PROCEDURE IF EXISTS test;
GO

CREATE PROCEDURE test
WITH SCHEMABINDING, NATIVE_COMPILATION
AS
	BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
		SELECT COUNT(*)
		FROM
			Sales.SalesOrderDetailMedium;
	END;
GO

-- SQL Server Execution Times:
-- CPU time = 297 (2000) (2016) ms,  elapsed time = 296 (379) (504) ms.
EXECUTE test;
GO
