-- Statements whose Scan body is more than decoding and adding: each runs on the quick
-- (row-by-row) and the unrolled Scan in bench/kernel_tiers.py, which flags an unrolled Scan
-- slower than the quick one. Over TPC-H lineitem.

-- distinct_2_groups: COUNT(DISTINCT) beside a 2-slot table (session 37: 266 ms unrolled)
SELECT l_linestatus, COUNT(DISTINCT l_suppkey), COUNT(DISTINCT l_shipmode), COUNT(*) FROM lineitem GROUP BY 1;

-- distinct_global: COUNT(DISTINCT) without GROUP BY
SELECT COUNT(DISTINCT l_shipmode), COUNT(*) FROM lineitem;

-- arg_min_max: 128-bit pair words merged by MIN and MAX
SELECT l_returnflag, ARG_MIN(l_orderkey, l_extendedprice), ARG_MAX(l_partkey, l_discount) FROM lineitem GROUP BY 1;

-- wide_sums: DECIMAL products summed into 128-bit cells
SELECT l_shipmode, SUM(l_extendedprice * l_quantity * l_tax), SUM(l_extendedprice * l_extendedprice) FROM lineitem GROUP BY 1;

-- double_variance: DOUBLE values, the variance's second pass
SELECT l_returnflag, VAR_SAMP(CAST(l_extendedprice AS DOUBLE)), STDDEV_SAMP(CAST(l_quantity AS DOUBLE)) FROM lineitem GROUP BY 1;

-- exact_variance: DECIMAL variances, sums of squares
SELECT l_linestatus, VAR_SAMP(l_extendedprice), STDDEV_SAMP(l_discount) FROM lineitem GROUP BY 1;

-- case_string_key: a computed string key (queries/quantity_buckets.sql's shape)
SELECT CASE WHEN l_quantity < 10 THEN 'small' WHEN l_quantity < 30 THEN 'medium' ELSE 'large' END AS size, COUNT(*), SUM(l_extendedprice) FROM lineitem GROUP BY 1;

-- like_filter: LIKE over a dictionary column, a filter with OR
SELECT l_shipmode, COUNT(*) FROM lineitem WHERE l_shipinstruct LIKE '%BACK%' OR l_comment LIKE '%regular%' GROUP BY 1;

-- count_filter: COUNT ... FILTER and CASE sums
SELECT l_returnflag, COUNT(*) FILTER (WHERE l_discount > 0.05), SUM(CASE WHEN l_tax > 0.04 THEN l_quantity ELSE 0 END) FROM lineitem GROUP BY 1;

-- many_fields: twelve state fields over 7 groups
SELECT l_shipmode, COUNT(*), SUM(l_quantity), SUM(l_extendedprice), SUM(l_discount), SUM(l_tax), MIN(l_quantity), MAX(l_quantity), MIN(l_shipdate), MAX(l_shipdate), AVG(l_extendedprice), MIN(l_discount), MAX(l_tax) FROM lineitem GROUP BY 1;

-- date_parts: EXTRACT and date_trunc keys
SELECT EXTRACT(YEAR FROM l_shipdate), date_trunc('quarter', l_shipdate), COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1, 2;

-- bit_and_or: BIT_AND and BIT_OR of integers
SELECT l_linestatus, BIT_AND(l_linenumber), BIT_OR(l_linenumber), COUNT(*) FROM lineitem GROUP BY 1;

-- distinct_small: COUNT(DISTINCT) of 7 and 12 values, kept as bits (session 38)
SELECT l_returnflag, COUNT(DISTINCT l_shipmode), COUNT(DISTINCT EXTRACT(MONTH FROM l_shipdate)), COUNT(*) FROM lineitem GROUP BY 1;

-- month_keys: date_trunc('month') keys, a digit per month (session 38)
SELECT date_trunc('month', l_shipdate), l_linestatus, COUNT(*), SUM(l_extendedprice) FROM lineitem GROUP BY 1, 2;

-- case_int_key: the CASE of case_string_key with integer results (a DECIMAL compared across scales)
SELECT CASE WHEN l_quantity < 10 THEN 0 WHEN l_quantity < 30 THEN 1 ELSE 2 END AS size, COUNT(*), SUM(l_extendedprice) FROM lineitem GROUP BY 1;

-- bool_key: a comparison as the key
SELECT l_quantity < 10 AS small, COUNT(*), SUM(l_extendedprice) FROM lineitem GROUP BY 1;

-- filtered_global: the comparison as a filter, no GROUP BY
SELECT COUNT(*), SUM(l_extendedprice) FROM lineitem WHERE l_quantity < 10;

-- distinct_partkey_global: COUNT(DISTINCT) over 2M values (a bitmap), no GROUP BY
SELECT COUNT(DISTINCT l_partkey) FROM lineitem;

-- sum_distinct_price: SUM(DISTINCT) of a DECIMAL (a bitmap of its cents)
SELECT l_linestatus, SUM(DISTINCT l_extendedprice), COUNT(*) FROM lineitem GROUP BY 1;

-- distinct_double: a DOUBLE's DISTINCT keeps the set
SELECT l_linestatus, COUNT(DISTINCT CAST(l_discount AS DOUBLE)) FROM lineitem GROUP BY 1;
