-- Spread of quantities and prices per ship mode: MIN/MAX/AVG/STDDEV/VARIANCE.
SELECT l_shipmode,
       COUNT(*) AS n,
       MIN(l_quantity) AS min_qty,
       MAX(l_quantity) AS max_qty,
       AVG(l_extendedprice) AS avg_price,
       STDDEV_SAMP(l_quantity) AS sd_qty,
       VAR_SAMP(l_discount) AS var_disc
FROM lineitem
GROUP BY l_shipmode
ORDER BY l_shipmode;
