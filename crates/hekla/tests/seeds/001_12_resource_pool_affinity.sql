-- Seed 001: scheduler affinity through Resource Governor.
-- refused: 10794 Resource Governor DDL is out of scope (docs/sql.md)
ALTER RESOURCE POOL [default] WITH
	(AFFINITY SCHEDULER = (24 to 47));
ALTER RESOURCE GOVERNOR RECONFIGURE;
