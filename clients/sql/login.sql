-- The restricted login of the "denied" check, run as `sa`: it may read
-- dbo.{p}_kv and nothing else, so its INSERT must fail with Msg 229.
CREATE LOGIN {p}_reader WITH PASSWORD = 'Reader#Pass1', CHECK_POLICY = OFF
GO
CREATE USER {p}_reader FOR LOGIN {p}_reader
GO
GRANT SELECT ON dbo.{p}_kv TO {p}_reader
GO
