-- Logins: CREATE LOGIN with SQL Server's options and errors, and the
-- views that list them. Passwords are never shown, only that one is set.
SELECT name, principal_id, sid, type, type_desc, is_disabled, default_database_name,
       default_language_name, owning_principal_id, is_fixed_role
FROM sys.server_principals ORDER BY principal_id
GO
CREATE LOGIN ycsb WITH PASSWORD = 'Ycsb-Passw0rd'
CREATE LOGIN [Report User] WITH PASSWORD = N'weak', CHECK_POLICY = OFF, DEFAULT_DATABASE = hekla
CREATE LOGIN app WITH PASSWORD = 'abcdefgH1' , CHECK_POLICY = ON, CHECK_EXPIRATION = OFF
GO
SELECT name, principal_id, sid, type_desc, is_disabled, default_database_name,
       is_policy_checked, is_expiration_checked, password_hash
FROM sys.sql_logins ORDER BY principal_id
SELECT COUNT(*) AS recent FROM sys.server_principals
WHERE type = 'S' AND principal_id > 1 AND create_date > DATEADD(minute, -5, GETDATE())
GO
-- Names are unique whatever their case.
CREATE LOGIN YCSB WITH PASSWORD = 'Another-0ne'
GO
-- CHECK_POLICY (on unless turned off): 8 characters of three kinds.
CREATE LOGIN short_pw WITH PASSWORD = 'Ab1!'
GO
CREATE LOGIN simple_pw WITH PASSWORD = 'lowercase1'
GO
-- Options hekla does not have, and mistakes.
CREATE LOGIN l1 WITH PASSWORD = 'Xx-1xxxxx', CHECK_EXPIRATION = ON
GO
CREATE LOGIN l2 WITH PASSWORD = 'Xx-1xxxxx' MUST_CHANGE, CHECK_EXPIRATION = ON
GO
CREATE LOGIN l3 WITH PASSWORD = 'Xx-1xxxxx', DEFAULT_DATABASE = nosuchdb
GO
CREATE LOGIN l4 WITH PASSWORD = 'Xx-1xxxxx', DEFAULT_DATABASE = master
GO
CREATE LOGIN l5 WITH PASSWORD = 'Xx-1xxxxx', CHECK_POLICY = MAYBE
GO
CREATE LOGIN l6 WITH CHECK_POLICY = OFF
GO
CREATE LOGIN l7 FROM WINDOWS
GO
-- Security statements are DDL: not inside a user transaction.
BEGIN TRANSACTION
CREATE LOGIN l8 WITH PASSWORD = 'Xx-1xxxxx'
ROLLBACK
GO
SELECT COUNT(*) AS logins FROM sys.sql_logins
GO
-- sysadmin: sa always; ALTER SERVER ROLE adds others.
ALTER SERVER ROLE sysadmin ADD MEMBER app
SELECT role_principal_id, member_principal_id
FROM sys.server_role_members ORDER BY member_principal_id
SELECT IS_SRVROLEMEMBER('sysadmin', 'app') AS app, IS_SRVROLEMEMBER('sysadmin', 'ycsb') AS ycsb
ALTER SERVER ROLE sysadmin DROP MEMBER app
SELECT COUNT(*) AS sysadmins FROM sys.server_role_members
GO
ALTER SERVER ROLE sysadmin DROP MEMBER sa
GO
ALTER SERVER ROLE sysadmin ADD MEMBER nobody
GO
ALTER SERVER ROLE dbcreator ADD MEMBER app
GO
ALTER SERVER ROLE nosuchrole ADD MEMBER app
GO
