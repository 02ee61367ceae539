-- The single-column GROUP BY of the seed papers: rows per return flag.
SELECT l_returnflag, COUNT(*) AS n
FROM lineitem
GROUP BY l_returnflag
ORDER BY l_returnflag;
