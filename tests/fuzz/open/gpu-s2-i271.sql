-- tally-fuzz: GPU/CPU mismatch: sorted row 1 differs: CPU [0.77083333333333326|0|1.5699999999999998|], GPU [0.77083333333333326|-nan|1.5699999999999998|]
-- tally-fuzz: seed 2, index 271, mutated tests/sql/aggregate/all_types.test:77
-- tally-fuzz: context tests/sql/aggregate/all_types.test:77
SELECT VARIANCE(r), VARIANCE(1.7976931348623157e308), VARIANCE(m) FROM v