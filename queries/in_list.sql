-- IN lists and BETWEEN with dates.
SELECT l_shipmode, l_linestatus, COUNT(*) AS n, AVG(l_discount) AS avg_disc
FROM lineitem
WHERE l_shipmode IN ('AIR', 'REG AIR', 'MAIL')
  AND l_receiptdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31'
GROUP BY l_shipmode, l_linestatus
ORDER BY l_shipmode, l_linestatus;
