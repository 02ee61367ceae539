-- LIKE / NOT LIKE on dictionary-encoded strings.
SELECT l_shipinstruct, COUNT(*) AS n, SUM(l_quantity) AS qty
FROM lineitem
WHERE l_shipinstruct LIKE '%RE%' AND l_shipmode NOT LIKE '%AIR'
GROUP BY l_shipinstruct
ORDER BY l_shipinstruct;
