-- tally-fuzz: GPU: execution error: integer out of range; CPU ran it
-- tally-fuzz: seed 105, index 1097, generated
SELECT l_orderkey, MIN(l_receiptdate - INTERVAL '2147483647' YEAR) AS a1 FROM lineitem WHERE l_suppkey >= l_partkey GROUP BY 1, CAST(l_receiptdate AS DATE)