-- CREATE SCHEMA [AUTHORIZATION owner]: hekla's one database principal is
-- dbo (principal 1), whom every session acts as; it owns every schema.
CREATE SCHEMA Sales AUTHORIZATION dbo
GO
CREATE SCHEMA Staging AUTHORIZATION [DBO]
GO
CREATE SCHEMA Plain
GO
SELECT name, principal_id, USER_NAME(principal_id) AS owner
FROM sys.schemas WHERE name IN ('Sales', 'Staging', 'Plain') ORDER BY name
GO
CREATE SCHEMA Other AUTHORIZATION someone
GO
SELECT COUNT(*) AS other_schemas FROM sys.schemas WHERE name = 'Other'
GO
CREATE SCHEMA Sales AUTHORIZATION dbo
GO
