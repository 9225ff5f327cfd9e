-- System functions: NEWID (a random version 4 GUID per call), HASHBYTES
-- against the digests' published test vectors, CHECKSUM's properties
-- (its values are hekla's own, not SQL Server's), ISNUMERIC, ISDATE,
-- DATALENGTH and CHOOSE.
DECLARE @g uniqueidentifier = NEWID(), @h uniqueidentifier = NEWID();
DECLARE @text char(36) = CAST(@g AS char(36));
SELECT CASE WHEN @g <> @h THEN 'different' ELSE 'same' END AS two_calls, SUBSTRING(@text, 15, 1) AS version,
       CASE WHEN SUBSTRING(@text, 20, 1) IN ('8', '9', 'A', 'B') THEN 'RFC 4122' ELSE 'other' END AS variant,
       CASE WHEN NEWID() IS NULL THEN 'null' ELSE 'value' END AS not_null
GO
SELECT HASHBYTES('MD5', 'abc') AS md5, HASHBYTES('SHA1', 'abc') AS sha1, HASHBYTES('SHA', 0x616263) AS sha_binary
SELECT HASHBYTES('SHA2_256', '') AS sha256_empty
SELECT HASHBYTES('SHA2_512', 'abc') AS sha512
SELECT HASHBYTES('md5', N'abc') AS md5_utf16, HASHBYTES('FOO', 'abc') AS unknown, HASHBYTES('MD5', NULL) AS null_input
GO
SELECT HASHBYTES('MD2', 'abc')
GO
SELECT HASHBYTES('MD5', 1)
GO
SELECT CASE WHEN CHECKSUM('abc') = CHECKSUM('ABC  ') THEN 'equal' ELSE 'differ' END AS case_folded,
       CASE WHEN BINARY_CHECKSUM('abc') = BINARY_CHECKSUM('ABC') THEN 'equal' ELSE 'differ' END AS binary,
       CASE WHEN CHECKSUM(1, 'a', NULL) = CHECKSUM(1, 'a', NULL) THEN 'equal' ELSE 'differ' END AS deterministic,
       CASE WHEN CHECKSUM(1) = CHECKSUM(CAST(1 AS bigint)) AND CHECKSUM(1.50) = CHECKSUM(1.5) THEN 'equal' ELSE 'differ' END AS numbers,
       CASE WHEN CHECKSUM(1, 2) = CHECKSUM(2, 1) THEN 'equal' ELSE 'differ' END AS ordered
GO
SELECT ISNUMERIC('123') AS int_text, ISNUMERIC('1e5') AS float_text, ISNUMERIC('$1,000.50') AS money_text, ISNUMERIC(' 12 ') AS padded,
       ISNUMERIC('-') AS minus, ISNUMERIC('12a') AS letters, ISNUMERIC('') AS empty, ISNUMERIC(NULL) AS null_value,
       ISNUMERIC(1.5) AS number, ISNUMERIC(GETDATE()) AS date
GO
SELECT ISDATE('2024-02-29') AS leap, ISDATE('2023-02-29') AS not_leap, ISDATE('abc') AS text,
       ISDATE('2024-01-01 10:00:00.1234') AS too_precise, ISDATE(NULL) AS null_value, ISDATE(GETDATE()) AS datetime
GO
SELECT ISDATE(CAST('2024-01-01' AS date))
GO
SELECT DATALENGTH('abc  ') AS varchar5, DATALENGTH(N'abc') AS nvarchar3, DATALENGTH(12) AS int, DATALENGTH(CAST(1 AS bigint)) AS bigint,
       DATALENGTH(1.5) AS numeric, DATALENGTH(0x0102) AS binary, DATALENGTH(CAST('a' AS char(10))) AS char10, DATALENGTH(NULL) AS null_value,
       DATALENGTH(CAST('x' AS varchar(max))) AS max, DATALENGTH(SYSDATETIME()) AS dt2, DATALENGTH(CAST('2020-01-01' AS date)) AS date,
       DATALENGTH(NEWID()) AS guid
GO
SELECT CHOOSE(2, 'a', 'b', 'c') AS second, CHOOSE(4, 'a', 'b', 'c') AS past_end, CHOOSE(0, 'a') AS zero, CHOOSE(NULL, 'a') AS null_index,
       CHOOSE(2.9, 'a', 'b', 'c') AS truncated, CHOOSE(1, 1, 2.5) AS typed
GO
SELECT CHOOSE(1)
GO
-- A bare NULL takes the other values' type, even one int does not convert to.
SELECT CASE WHEN COALESCE(NULL, NEWID()) IS NULL THEN 'null' ELSE 'guid' END AS coalesce_guid,
       CASE WHEN IIF(1 = 1, NULL, NEWID()) IS NULL THEN 'null' ELSE 'guid' END AS iif_null
GO
