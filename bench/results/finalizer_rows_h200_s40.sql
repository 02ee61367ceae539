-- top_orders: 15 M order keys, ORDER BY ... LIMIT
SELECT l_orderkey, SUM(l_extendedprice) AS total, COUNT(*) AS lines FROM lineitem GROUP BY l_orderkey ORDER BY total DESC, l_orderkey LIMIT 10;
-- orders_sum: 15 M groups of 60 M slots, direct
SELECT l_orderkey, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1;
-- orders_having: HAVING on the device over 15 M groups
SELECT l_orderkey, SUM(l_quantity) FROM lineitem GROUP BY 1 HAVING SUM(l_quantity) > 250;
-- part_supp: 8 M groups of two keys
SELECT l_partkey, l_suppkey, COUNT(*) FROM lineitem GROUP BY 1, 2;
-- partkey: 2 M groups
SELECT l_partkey, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1;
-- q1: 4 groups
SELECT l_returnflag, l_linestatus, SUM(l_quantity), COUNT(*) FROM lineitem GROUP BY 1, 2;
