-- Many groups (one per order), ORDER BY an aggregate, LIMIT.
SELECT l_orderkey, SUM(l_extendedprice) AS total, COUNT(*) AS lines
FROM lineitem
GROUP BY l_orderkey
ORDER BY total DESC, l_orderkey
LIMIT 10;
