-- tally-fuzz: GPU/CPU mismatch: sorted row 31 differs: CPU [191|true|350|2|], GPU [191|true|350|1|]
-- tally-fuzz: seed 206, index 582, generated
SELECT 3.5e2, l_orderkey, CAST((1 = 1) AS BOOLEAN), CAST(COUNT(*) AS REAL) FROM lineitem GROUP BY l_tax, 3.5e2, 2 HAVING NOT BOOL_OR(3.5e3 IN (9.5e-1, -9.5e-1)) ORDER BY l_orderkey ASC NULLS FIRST