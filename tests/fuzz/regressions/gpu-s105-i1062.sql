-- tally-fuzz: GPU: execution error: integer out of range; CPU ran it
-- tally-fuzz: seed 105, index 1062, mutated tests/sql/types/date.test:92
-- tally-fuzz: context tests/sql/types/date.test:92
SELECT id, d + INTERVAL 2147483648 MONTH FROM ev