-- A PostgreSQL-compatible script: CREATE TABLE, COPY from CSV (with NULLs), then a
-- GROUP BY. Run from the repository root: tally run queries/sales_script.sql
CREATE TABLE sales (
    region   VARCHAR(10) NOT NULL,
    product  VARCHAR(20),
    sold_on  DATE NOT NULL,
    units    INTEGER,
    price    DECIMAL(8,2) NOT NULL,
    discount DECIMAL(4,2),
    returned BOOLEAN
);

COPY sales FROM 'queries/data/sales.csv' (FORMAT csv, HEADER true, NULL '');

SELECT region,
       COUNT(*) AS sales,
       COUNT(units) AS with_units,
       SUM(units * price * (1 - COALESCE(discount, 0))) AS revenue,
       MAX(sold_on) AS last_sale,
       COUNT(DISTINCT product) AS products
FROM sales
WHERE returned = false OR returned IS NULL
GROUP BY region
HAVING SUM(units) IS NOT NULL
ORDER BY revenue DESC NULLS LAST;
