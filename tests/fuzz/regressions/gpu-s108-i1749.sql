-- tally-fuzz: GPU/CPU mismatch: sorted row 1 differs: CPU [A], GPU [A]
-- tally-fuzz: seed 108, index 1749, generated
SELECT l_returnflag, 1.7976931348623157e308, 288.32 - VARIANCE(-1.5e0 - l_linenumber) FROM lineitem WHERE 170.26 NOT IN (lineitem.l_tax) GROUP BY l_returnflag, l_tax, 1.7976931348623157e308 ORDER BY l_returnflag ASC