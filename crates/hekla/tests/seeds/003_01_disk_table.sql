-- Seed 003: the on-disk copy with 5,000,000 rows and its clustered index.
-- Scaled: TOP 5000. hekla serves one database, so USE of AdventureWorks2017
-- fails and the statements run in hekla's database.
-- refused: 911 hekla serves one database per data directory ('hekla'); other databases do not exist
-- refused: 10794 disk-based clustered indexes are out of scope (docs/sql.md)
USE AdventureWorks2017;
GO

DROP TABLE IF EXISTS Sales.SalesOrderDetailMedium;
GO

-- Create a table with 5,000,000 records
SELECT TOP 5000
	*
INTO Sales.SalesOrderDetailMedium
FROM
	Sales.SalesOrderDetailBig;
GO

-- Add a clustered key
-- Later we will see that an in-memory table always needs an index.
-- Since we are comparing the size of in-memory to an on-disk table, it is
-- appropriate to create a similar index.
CREATE CLUSTERED INDEX CL_SalesOrderDetailMedium_SalesOrderID_SalesOrderDetailID
ON Sales.SalesOrderDetailMedium (
									SalesOrderID
								  , SalesOrderDetailID
								);
GO
