-- The seed paper's Query B: group by a modulus given as a parameter (--param 1000).
-- Run with --atable ROWS. GROUP BY 1 refers to the one MOD(col1, ?) of the select list,
-- so the statement has one parameter.
SELECT MOD(col1, ?) AS bucket, COUNT(*) AS n
FROM atable
GROUP BY 1
ORDER BY 1;
