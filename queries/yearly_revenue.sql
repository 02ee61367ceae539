-- Revenue by ship year, keeping the years above a threshold (EXTRACT, HAVING).
SELECT EXTRACT(YEAR FROM l_shipdate) AS ship_year,
       SUM(l_extendedprice * (1 - l_discount)) AS revenue,
       COUNT(*) AS lines
FROM lineitem
GROUP BY EXTRACT(YEAR FROM l_shipdate)
HAVING COUNT(*) > 1000
ORDER BY ship_year;
