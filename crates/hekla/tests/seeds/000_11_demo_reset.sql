-- Seed 000, "Reset the demo": `ostress.exe -S. -E -dAdventureWorks2022 -Q"EXEC Demo.usp_DemoReset"`.
EXEC Demo.usp_DemoReset
GO
SELECT (SELECT COUNT(*) FROM Sales.SalesOrderHeader_inmem) AS inmem_orders,
       (SELECT COUNT(*) FROM Sales.SalesOrderHeader_ondisk) AS ondisk_orders
GO
