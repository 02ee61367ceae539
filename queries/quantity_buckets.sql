-- Searched CASE as a group key, with an aggregate over another CASE.
SELECT CASE WHEN l_quantity < 10 THEN 'small'
            WHEN l_quantity < 30 THEN 'medium'
            ELSE 'large' END AS size,
       COUNT(*) AS n,
       SUM(CASE WHEN l_returnflag = 'R' THEN 1 ELSE 0 END) AS returned
FROM lineitem
GROUP BY 1
ORDER BY 1;
