-- tally-fuzz: CPU engine: internal error: unknown expression kind
-- tally-fuzz: seed 1, index 7779, mutated tests/sql/grouping_forms/grouping_sets.test:140
-- tally-fuzz: context tests/sql/grouping_forms/grouping_sets.test:140
SELECT GROUPING(NULL) FROM t