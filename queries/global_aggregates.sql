-- Aggregates with no GROUP BY: one row.
SELECT COUNT(*) AS n,
       SUM(l_quantity) AS qty,
       AVG(l_tax) AS avg_tax,
       MIN(l_shipdate) AS first_ship,
       MAX(l_receiptdate) AS last_receipt,
       STDDEV(l_extendedprice) AS sd_price,
       VARIANCE(l_linenumber) AS var_line
FROM lineitem;
