-- Database users and roles, role membership, GRANT / DENY / REVOKE and the
-- views and functions that show them. (What a restricted user may then do
-- is tested in tests/security.rs, which logs in as one.)
SELECT name, principal_id, type, type_desc, default_schema_name, owning_principal_id, sid,
       is_fixed_role, authentication_type_desc
FROM sys.database_principals ORDER BY principal_id
SELECT role_principal_id, member_principal_id FROM sys.database_role_members
GO
CREATE LOGIN ycsb WITH PASSWORD = 'Ycsb-Passw0rd'
CREATE LOGIN reporter WITH PASSWORD = 'Rep0rter-Pass'
CREATE USER ycsb FOR LOGIN ycsb
CREATE USER reporter
CREATE USER robot WITHOUT LOGIN
CREATE ROLE readers
ALTER ROLE readers ADD MEMBER reporter
ALTER ROLE db_datawriter ADD MEMBER ycsb
ALTER ROLE db_datawriter ADD MEMBER ycsb
GO
CREATE TABLE dbo.usertable (k int NOT NULL PRIMARY KEY NONCLUSTERED, v int) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE PROCEDURE dbo.p AS SELECT 1 AS one
GO
GRANT SELECT, INSERT, UPDATE ON dbo.usertable TO ycsb
GRANT EXECUTE ON OBJECT::dbo.p TO readers WITH GRANT OPTION
DENY DELETE ON SCHEMA::dbo TO robot
GRANT CREATE TABLE TO reporter
GRANT ALL ON dbo.usertable TO readers
GO
SELECT p.name, p.type, p.type_desc, p.default_schema_name, p.authentication_type_desc,
       CASE WHEN p.sid = l.sid THEN 'login' ELSE 'none' END AS sid_of
FROM sys.database_principals AS p LEFT JOIN sys.server_principals AS l ON l.name = p.name
WHERE p.principal_id BETWEEN 5 AND 16383 ORDER BY p.principal_id
SELECT USER_NAME(r.role_principal_id) AS role, USER_NAME(r.member_principal_id) AS member
FROM sys.database_role_members AS r ORDER BY role, member
SELECT d.class_desc, COALESCE(OBJECT_NAME(d.major_id), SCHEMA_NAME(d.major_id)) AS securable,
       USER_NAME(d.grantee_principal_id) AS grantee, USER_NAME(d.grantor_principal_id) AS grantor,
       d.type, d.permission_name, d.state, d.state_desc
FROM sys.database_permissions AS d
ORDER BY grantee, d.class, d.type
GO
-- Functions of the session (embedded: dbo, without a login) and lookups.
SELECT USER_NAME() AS me, USER_ID() AS my_id, USER_NAME(2) AS guest, USER_NAME(16390) AS reader_role,
       USER_ID('ycsb') AS ycsb_id, USER_ID('nobody') AS nobody, SUSER_SNAME() AS login,
       SUSER_ID() AS login_id, SUSER_ID('ycsb') AS ycsb_login, CURRENT_USER AS current_user_,
       SESSION_USER AS session_user_, SYSTEM_USER AS system_user_
SELECT IS_MEMBER('db_owner') AS owner, IS_MEMBER('db_datareader') AS reader, IS_MEMBER('public') AS public_,
       IS_MEMBER('ycsb') AS not_a_role, IS_MEMBER('nosuchrole') AS missing,
       IS_SRVROLEMEMBER('sysadmin') AS sysadmin, IS_SRVROLEMEMBER('sysadmin', 'ycsb') AS ycsb_sysadmin,
       IS_SRVROLEMEMBER('dbcreator') AS dbcreator, IS_SRVROLEMEMBER('nosuchrole') AS no_role,
       IS_SRVROLEMEMBER('sysadmin', 'nobody') AS no_login
GO
-- Mistakes and what is refused.
CREATE USER ycsb FOR LOGIN reporter
GO
CREATE USER other FOR LOGIN ycsb
GO
CREATE USER nologin
GO
CREATE USER sa_user FOR LOGIN sa
GO
CREATE USER schemed FOR LOGIN reporter WITH DEFAULT_SCHEMA = sales
GO
CREATE ROLE readers
GO
ALTER ROLE nosuchrole ADD MEMBER ycsb
GO
ALTER ROLE readers ADD MEMBER nobody
GO
ALTER ROLE readers ADD MEMBER dbo
GO
ALTER ROLE [public] ADD MEMBER ycsb
GO
ALTER ROLE readers ADD MEMBER readers
GO
CREATE ROLE outer_role
ALTER ROLE outer_role ADD MEMBER readers
ALTER ROLE readers ADD MEMBER outer_role
GO
DROP ROLE readers
GO
DROP ROLE db_owner
GO
DROP USER dbo
GO
DROP USER nobody
GO
DROP USER IF EXISTS nobody
GO
GRANT SELECT ON dbo.nosuchtable TO ycsb
GO
GRANT SELECT ON dbo.usertable TO nobody
GO
GRANT SELECT ON dbo.usertable TO dbo
GO
GRANT SELECT ON dbo.usertable TO db_datareader
GO
GRANT EXECUTE ON dbo.usertable TO ycsb
GO
GRANT SELECT ON dbo.p TO ycsb
GO
GRANT CREATE TABLE ON dbo.usertable TO ycsb
GO
GRANT SELECT (v) ON dbo.usertable TO ycsb
GO
GRANT CONNECT TO readers
GO
GRANT ALL ON SCHEMA::dbo TO ycsb
GO
GRANT SELECT ON SCHEMA::nosuchschema TO ycsb
GO
REVOKE EXECUTE ON dbo.p FROM readers
GO
-- REVOKE GRANT OPTION FOR keeps the permission; REVOKE removes it.
REVOKE GRANT OPTION FOR EXECUTE ON dbo.p FROM readers CASCADE
SELECT state_desc FROM sys.database_permissions WHERE type = 'EX'
REVOKE EXECUTE ON dbo.p FROM readers
REVOKE SELECT, INSERT, UPDATE ON dbo.usertable FROM ycsb
DENY SELECT ON dbo.usertable TO ycsb
GRANT SELECT ON dbo.usertable TO ycsb
SELECT USER_NAME(grantee_principal_id) AS grantee, permission_name, state_desc
FROM sys.database_permissions WHERE class = 1 ORDER BY grantee, permission_name
GO
-- Dropping an object drops the permissions on it.
DROP PROCEDURE dbo.p
DROP TABLE dbo.usertable
SELECT COUNT(*) AS object_permissions FROM sys.database_permissions WHERE class = 1
GO
-- Dropping a user drops its memberships and permissions.
ALTER ROLE outer_role DROP MEMBER readers
DROP ROLE outer_role
ALTER ROLE readers DROP MEMBER reporter
DROP ROLE readers
DROP USER robot
DROP USER reporter
SELECT name FROM sys.database_principals WHERE principal_id BETWEEN 5 AND 16383
SELECT COUNT(*) AS memberships FROM sys.database_role_members
SELECT USER_NAME(grantee_principal_id) AS grantee, permission_name FROM sys.database_permissions
GO
-- ALTER LOGIN and DROP LOGIN.
ALTER LOGIN reporter DISABLE
ALTER LOGIN reporter WITH NAME = analyst, CHECK_POLICY = OFF
ALTER LOGIN analyst WITH PASSWORD = 'short'
SELECT name, is_disabled, is_policy_checked FROM sys.sql_logins WHERE principal_id >= 256 ORDER BY principal_id
ALTER LOGIN analyst ENABLE
GO
ALTER LOGIN nobody ENABLE
GO
ALTER LOGIN analyst WITH NAME = ycsb
GO
ALTER LOGIN ycsb WITH PASSWORD = 'weak'
GO
DROP LOGIN sa
GO
DROP LOGIN nobody
GO
DROP LOGIN analyst
SELECT name FROM sys.server_principals WHERE type = 'S' ORDER BY principal_id
GO
-- Valid T-SQL hekla does not run.
CREATE ROLE owned AUTHORIZATION ycsb
GO
