-- Arithmetic, ABS, ROUND, CAST, COALESCE and modulo over the group keys and aggregates.
SELECT l_linenumber % 3 AS bucket,
       CAST(SUM(l_quantity) AS BIGINT) AS qty,
       ROUND(AVG(l_discount) * 100, 3) AS avg_disc_pct,
       ABS(MIN(l_tax) - MAX(l_tax)) AS tax_spread,
       COALESCE(MAX(l_comment), 'none') AS some_comment
FROM lineitem
WHERE l_linenumber <> 4
GROUP BY l_linenumber % 3
ORDER BY bucket;
