-- Security: CREATE/ALTER/DROP LOGIN, CREATE/DROP USER, CREATE ROLE, ALTER ROLE ... ADD MEMBER, GRANT/DENY/REVOKE on objects, columns, schemas and databases.
-- Logins
CREATE LOGIN ycsb WITH PASSWORD = 'Str0ng!Passw0rd';
CREATE LOGIN app_user WITH PASSWORD = 'An0ther''Pass', CHECK_POLICY = OFF, DEFAULT_DATABASE = AdventureWorks2022;
CREATE LOGIN [reporting] WITH PASSWORD = 'p@ss' MUST_CHANGE, CHECK_EXPIRATION = ON, CHECK_POLICY = ON, DEFAULT_LANGUAGE = us_english;
CREATE LOGIN [CONTOSO\svc_hekla] FROM WINDOWS WITH DEFAULT_DATABASE = [master];
GO
-- ALTER LOGIN / DROP LOGIN
ALTER LOGIN ycsb WITH PASSWORD = 'N3w!Passw0rd';
ALTER LOGIN ycsb WITH PASSWORD = 'N3wer!Passw0rd' OLD_PASSWORD = 'N3w!Passw0rd';
ALTER LOGIN app_user WITH DEFAULT_DATABASE = master, CHECK_POLICY = ON;
ALTER LOGIN [reporting] WITH NAME = reporting2;
DROP LOGIN reporting2;
drop login [CONTOSO\svc_hekla]
GO
-- Users
CREATE USER ycsb FOR LOGIN ycsb;
CREATE USER app_user FOR LOGIN app_user WITH DEFAULT_SCHEMA = Sales;
CREATE USER [reader] FROM LOGIN [reporting] WITH DEFAULT_SCHEMA = [dbo];
CREATE USER proc_owner WITHOUT LOGIN;
CREATE USER contained_user WITH PASSWORD = 'C0ntained!';
ALTER USER app_user WITH DEFAULT_SCHEMA = dbo;
DROP USER IF EXISTS contained_user;
DROP USER proc_owner
GO
-- Roles and membership
CREATE ROLE order_writers;
ALTER ROLE db_datareader ADD MEMBER ycsb;
ALTER ROLE db_datawriter ADD MEMBER [app_user];
ALTER ROLE order_writers ADD MEMBER app_user;
ALTER ROLE order_writers DROP MEMBER app_user;
DROP ROLE IF EXISTS [order readers];
GO
-- GRANT on objects (implicit object class and OBJECT::), column-level, WITH GRANT OPTION, multiple principals
GRANT SELECT, INSERT, UPDATE ON usertable TO ycsb;
GRANT SELECT ON dbo.Orders TO app_user, order_writers;
GRANT SELECT ON OBJECT::dbo.Orders TO [reader];
GRANT SELECT ON dbo.Customers (CustomerID, Name) TO app_user;
GRANT UPDATE (Status, Comment) ON dbo.Orders TO order_writers;
GRANT EXECUTE ON Sales.usp_InsertSalesOrder_inmem TO app_user;
GRANT EXECUTE ON OBJECT::Sales.usp_UpdateSalesOrderShipInfo_inmem TO app_user WITH GRANT OPTION;
GRANT REFERENCES ON TYPE::Sales.SalesOrderDetailType_inmem TO app_user;
GRANT EXECUTE ON TYPE::dbo.IdList TO public;
GRANT ALL ON dbo.Orders TO order_writers;
GRANT ALL PRIVILEGES ON dbo.Customers TO order_writers;
GO
-- GRANT on schemas and databases
GRANT EXECUTE ON SCHEMA::Sales TO app_user WITH GRANT OPTION;
GRANT SELECT, VIEW DEFINITION ON SCHEMA::[Production] TO [reader];
GRANT CONTROL ON DATABASE::AdventureWorks2022 TO app_user;
GRANT CREATE TABLE, CREATE PROCEDURE TO app_user;
GRANT VIEW DATABASE STATE TO ycsb;
GO
-- DENY
DENY UPDATE ON OBJECT::dbo.Orders TO ycsb;
DENY DELETE ON dbo.Orders TO app_user CASCADE;
DENY SELECT ON dbo.Customers (Name) TO [reader];
DENY EXECUTE ON SCHEMA::Demo TO public;
GO
-- REVOKE
REVOKE SELECT ON dbo.Orders FROM app_user CASCADE;
REVOKE UPDATE ON OBJECT::dbo.Orders TO ycsb;
REVOKE GRANT OPTION FOR EXECUTE ON SCHEMA::Sales FROM app_user CASCADE;
REVOKE CONTROL ON DATABASE::AdventureWorks2022 FROM app_user;
REVOKE SELECT ON dbo.Customers (CustomerID, Name) FROM app_user;
revoke insert, update on usertable from ycsb
GO
