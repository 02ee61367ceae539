-- tally-fuzz: hang (over 5 s)
-- tally-fuzz: seed 1, index 7949, mutated tests/sql/query_forms/series.test:73
-- tally-fuzz: context tests/sql/query_forms/series.test:73
SELECT * FROM range(-1, 3000000002)