-- COUNT(DISTINCT) per group next to plain counts.
SELECT l_linestatus,
       COUNT(DISTINCT l_suppkey) AS suppliers,
       COUNT(DISTINCT l_shipmode) AS modes,
       COUNT(*) AS n
FROM lineitem
GROUP BY l_linestatus
ORDER BY l_linestatus;
