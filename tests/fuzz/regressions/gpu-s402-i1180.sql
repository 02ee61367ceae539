-- tally-fuzz: GPU/CPU mismatch: 2 rows on the CPU, 3 on the GPU
-- tally-fuzz: seed 402, index 1180, generated
SELECT DISTINCT ROUND((i)::DECIMAL(37,30), -20) FROM t