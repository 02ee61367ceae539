/* The tally library from C (tally/tally_c.h): a table from SQL, a GROUP BY read as text and
 * through Arrow, a prepared statement, and an error with its line and column. Like the C++
 * example it checks what it prints and ends with "c example: OK". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tally/tally_c.h>

static void expect(int condition, const char* what) {
  if (!condition) {
    fprintf(stderr, "c example: FAILED: %s (%s)\n", what, tally_error_message());
    exit(1);
  }
}

static void print_result(const tally_result* r) {
  size_t columns = tally_result_column_count(r);
  for (size_t c = 0; c < columns; ++c) {
    printf("%s%s %s", c ? " | " : "  ", tally_result_column_name(r, c),
           tally_result_column_type(r, c));
  }
  printf("\n");
  for (size_t row = 0; row < tally_result_row_count(r); ++row) {
    for (size_t c = 0; c < columns; ++c)
      printf("%s%s", c ? " | " : "  ", tally_result_text(r, row, c));
    printf("\n");
  }
}

int main(void) {
  tally_engine* engine = tally_open("auto");
  expect(engine != NULL, "open");
  tally_result* created =
      tally_execute(engine,
                    "CREATE TABLE sales (region VARCHAR(10), amount DECIMAL(10,2));"
                    "INSERT INTO sales VALUES ('north', 10.50), ('south', 3.25), ('north', 4.00), "
                    "('west', NULL)");
  expect(created != NULL, "create and insert");
  tally_result_free(created);

  /* A GROUP BY, printed as text, then read through Arrow. */
  tally_result* r = tally_execute(engine,
                                  "SELECT region, SUM(amount) AS total, COUNT(*) AS n "
                                  "FROM sales GROUP BY region ORDER BY region");
  expect(r != NULL, "group by");
  printf("sales by region (%s):\n", tally_result_device(r));
  print_result(r);
  expect(tally_result_row_count(r) == 3, "three regions");
  expect(strcmp(tally_result_text(r, 0, 1), "14.50") == 0, "north's total");
  expect(strcmp(tally_result_text(r, 2, 1), "NULL") == 0, "west's total is NULL");

  struct ArrowSchema schema;
  struct ArrowArray array;
  expect(tally_result_export_arrow(r, &schema, &array) == 0, "export");
  expect(strcmp(schema.format, "+s") == 0 && array.n_children == 3, "a struct of 3 columns");
  expect(strcmp(schema.children[2]->format, "l") == 0, "COUNT(*) is int64");
  const int64_t* counts = (const int64_t*)array.children[2]->buffers[1];
  expect(counts[0] == 2 && counts[1] == 1 && counts[2] == 1, "the counts through Arrow");
  array.release(&array);
  schema.release(&schema);
  tally_result_free(r);

  /* A prepared statement, run with two values. */
  tally_statement* above = tally_prepare(engine, "SELECT COUNT(*) FROM sales WHERE amount > ?");
  expect(above != NULL && tally_statement_parameter_count(above) == 1, "prepare");
  const char* thresholds[] = {"4.00", "0.50"};
  const char* expected[] = {"1", "3"};
  for (int i = 0; i < 2; ++i) {
    expect(tally_bind_text(above, 1, thresholds[i]) == 0, "bind");
    tally_result* count = tally_statement_execute(above);
    expect(count != NULL, "execute");
    printf("amount > %s: %s rows\n", thresholds[i], tally_result_text(count, 0, 0));
    expect(strcmp(tally_result_text(count, 0, 0), expected[i]) == 0, "the count");
    tally_result_free(count);
  }
  tally_statement_free(above);

  /* Errors: NULL back, then the message, kind, line and column. */
  tally_result* bad = tally_execute(engine, "SELECT region,\n  SUM(amout) FROM sales");
  expect(bad == NULL, "an unknown column fails");
  printf("error: %s: %s (line %d, column %d)\n", tally_error_kind(), tally_error_message(),
         tally_error_line(), tally_error_column());
  expect(strcmp(tally_error_kind(), "binder error") == 0 && tally_error_line() == 2,
         "the error's kind and line");

  tally_close(engine);
  printf("c example: OK\n");
  return 0;
}
