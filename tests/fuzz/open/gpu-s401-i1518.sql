-- tally-fuzz: GPU/CPU mismatch: sorted row 1 differs: CPU [0|], GPU [-nan|]
-- tally-fuzz: seed 401, index 1518, generated
SELECT (STDDEV_SAMP(-1e308))::DOUBLE FROM lineitem