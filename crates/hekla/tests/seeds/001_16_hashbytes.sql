-- Seed 001, "HASHBYTES Scalability": a heap of '0' strings and the hashing
-- query. Scaled: 11,000 rows instead of 11,000,000.
DROP TABLE IF EXISTS HB_DEMO;
CREATE TABLE HB_DEMO (ID VARCHAR(10));

INSERT INTO HB_DEMO WITH (TABLOCK)
SELECT TOP (11000) '0'
FROM master..spt_values t1
CROSS JOIN master..spt_values t2
CROSS JOIN master..spt_values t3
OPTION (MAXDOP 1);

SELECT MAX(HASHBYTES('SHA2_256', R1.ID))
FROM HB_DEMO R1
OPTION (MAXDOP 1);
