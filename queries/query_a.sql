-- The seed paper's Query A (Karnagel et al. 2015): average discount per zip code.
-- Run with --orders ROWS.
SELECT zip, 1 - AVG((chargedamount - tax) / ordertotal) AS avg_discount
FROM orders
GROUP BY zip
ORDER BY zip;
