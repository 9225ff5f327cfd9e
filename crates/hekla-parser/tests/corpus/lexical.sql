-- Lexical coverage: comments (line, block, nested), bracketed/quoted identifiers, string/binary/money/numeric literals, variables, @@functions, temp tables, multi-part names.
-- Line comments: at end of a statement, alone on a line, and directly after a token
SELECT 1; -- trailing comment
-- a comment line between statements
SELECT 2--no space before the comment
;
GO
/* a block comment before the statement */ SELECT /* inside the select list */ 1 AS /* before alias */ a /* after alias */;
GO
/* nested /* inner comment */ still in the outer comment */
SELECT 'after nested comment' AS x;
GO
/* multi-line block comment
   spanning /* a nested
   multi-line */ several lines
   -- a line comment marker inside a block comment does not end it */
SELECT/**/1/**/AS/**/b;
GO
SELECT 1 /* comment containing 'quote and "double quote and [bracket */ AS c;
GO
-- Block comment containing '*' and '/' separately, and ending with '**/'
SELECT 3 /* a * b / c ***/ AS d;
GO
-- Bracketed identifiers with spaces, keywords, and an escaped closing bracket ]]
SELECT [bracketed ]]name] = 1, [select] = 2, [Order Details].[Unit Price]
FROM [dbo].[Order Details];
GO
-- Double-quoted identifiers (QUOTED_IDENTIFIER ON), including an escaped "" and mixed with brackets
SELECT "quoted", "with space", "a""b"
FROM "dbo"."quoted table" AS "q"
WHERE "q"."quoted" = [q].[with space];
GO
-- Identifiers with _, #, $ and @ after the first character, and a Unicode identifier
SELECT _col, col$1, col#2, col@3, Größe, [Größe 2]
FROM dbo.t_1;
GO
-- Strings: escaped quotes, N'' Unicode, lowercase n prefix, empty string
SELECT 'it''s', N'Unicode ''quoted'' text', n'lower-case prefix', '', N'', '''';
GO
-- Multi-line string literal (the newlines are part of the value)
SELECT 'line one
line two
  line three with ''quotes''' AS multi_line, N'ünïcødé
second line' AS multi_line_n;
GO
-- Strings containing comment markers and GO-like text are not comments
SELECT '-- not a comment', '/* not a comment */', 'GO' AS go_text;
GO
-- Binary literals, including the empty 0x
SELECT 0x, 0x00, 0xDEADBEEF, 0Xabcdef0123456789, 0x0;
GO
-- Money literals
SELECT $1.50, -$2, $0, $1000000.9999, +$3, -$0.01;
GO
-- Integer, decimal and float literals
SELECT 0, 42, 2147483647, 9223372036854775807, 00012,
       1.5, .5, 1., 0.000001, 123456789012345678.123,
       1.5E10, 1.5e-3, 6E2, 2.5E+3, 1E0;
GO
-- Unary signs and adjacent operators
SELECT -1, +1, - 1, -(-1), 1-1, 1 - -1, 1+-1, -.5, -1.5E10;
GO
-- Local variables and @@functions
DECLARE @i int = 1, @s nvarchar(20) = N'x', @_x int, @a$b int;
SELECT @i, @s, @@ROWCOUNT, @@ERROR, @@IDENTITY, @@VERSION, @@SERVERNAME, @@spid, @@TranCount;
GO
-- Temporary and global temporary tables
CREATE TABLE #temp (id int);
CREATE TABLE ##global (id int);
INSERT INTO #temp (id) SELECT id FROM ##global;
SELECT * FROM #temp AS t JOIN ##global g ON g.id = t.id;
DROP TABLE #temp, ##global;
GO
-- Multi-part names: schema.object, db.schema.object, db..object, server.db.schema.object
SELECT TOP (5) number FROM master..spt_values WHERE type = 'P';
SELECT name FROM master.sys.databases;
SELECT * FROM AdventureWorks2022.Sales.SalesOrderHeader_inmem;
SELECT * FROM LINKEDSRV.AdventureWorks2022.dbo.usertable;
SELECT * FROM [LINKED SRV].[Adventure Works].[dbo].[user table];
SELECT t.[object_id], sys.objects.name FROM sys.objects, sys.tables AS t WHERE sys.objects.object_id = t.object_id;
GO
-- Multi-part column references
SELECT dbo.t.a, t2.b, Sales.SalesOrderHeader_inmem.SalesOrderID
FROM dbo.t, dbo.t2, Sales.SalesOrderHeader_inmem;
GO
-- Whitespace variety: tabs, multiple spaces, no spaces around operators
SELECT	1+2*3	AS	x ,  4/2   AS y,(5)%3 AS z;
GO
	  select   1	;
GO
-- Keywords in mixed case
sElEcT DiStInCt TOP 1 name FrOm sys.objects WhErE 1=1 OrDeR bY name;
GO
-- Several statements on one line, with and without semicolons
SELECT 1 SELECT 2; SELECT 3;SELECT 4
GO
-- Empty statements (lone semicolons)
;
SELECT 5;;
;;
GO
