-- Seed 003: 5,000,000 buckets are rounded up to 8,388,608, of 8 bytes each.

-- A hash index with a definiton of 5,000,000 buckets actually creates 
-- 8,388,608 buckets 
SELECT POWER(2, CEILING(LOG(5000000) / LOG(2))) AS bucket_count;
GO

-- Every bucket needs 8 bytes
-- 67,108,864 bytes
SELECT POWER(2, CEILING(LOG(5000000) / LOG(2))) * 8 AS bucket_size;
GO
