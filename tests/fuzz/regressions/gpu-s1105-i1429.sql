-- tally-fuzz: GPU/CPU mismatch: sorted row 1 differs: CPU [-10469283.00000000000000|191|-350|], GPU [-19173.29233378164736|-265|-350|]
-- tally-fuzz: seed 1105, index 1429, generated
SELECT CAST(s AS DECIMAL(35,14)) * i, COALESCE(ROUND(-3.5e2) * CAST('1' AS REAL), d), s FROM t WHERE f;
