-- tally-fuzz: GPU/CPU mismatch: sorted row 1 differs: CPU [0|], GPU [-nan|]
-- tally-fuzz: seed 207, index 2551, mutated tests/sql/decimal/exact.test:79
-- tally-fuzz: context tests/sql/decimal/exact.test:79
SELECT VAR_SAMP(-1e308) FROM vv