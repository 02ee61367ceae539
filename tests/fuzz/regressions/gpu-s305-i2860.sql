-- tally-fuzz: GPU/CPU mismatch: sorted row 1 differs: CPU [0.9999999999999999|], GPU [1|]
-- tally-fuzz: seed 305, index 2860, mutated tests/sql/decimal/exact.test:40
-- tally-fuzz: context tests/sql/decimal/exact.test:40
SELECT SUM(y)  ::VARCHAR FROM tenth