-- Date arithmetic with intervals, and a parameterised date bound: pass the same date twice
-- (-p 1995-03-15 -p 1995-03-15), one for each ?.
SELECT EXTRACT(MONTH FROM l_shipdate) AS month,
       COUNT(*) AS n,
       ROUND(AVG(l_extendedprice), 2) AS avg_price
FROM lineitem
WHERE l_shipdate >= CAST(? AS DATE)
  AND l_shipdate < CAST(? AS DATE) + INTERVAL '6' MONTH
GROUP BY 1
ORDER BY 1;
