// The binder's rules for names, parameters, aggregates, the grouping rewrite, ORDER BY and
// LIMIT, --explain's IR text and bind_constant (the expression rules: binder_test.cpp).
#include <doctest/doctest.h>

#include <string>

#include "compiler/bind/binder.h"
#include "compiler/common/date.h"
#include "compiler/common/suggest.h"
#include "compiler/functions/aggregate_function.h"
#include "tests/unit/support/binder_fixture.h"

using namespace tally;
using namespace tally::binder_test;

// ---------------------------------------------------------------- names

TEST_CASE("binder: unknown columns and tables suggest a near name") {
  check_failure("SELECT l_quantiy FROM lineitem", ErrorKind::Binder,
                "column \"l_quantiy\" does not exist (did you mean \"l_quantity\"?)", 8);
  check_failure("SELECT zzz FROM lineitem", ErrorKind::Binder, "column \"zzz\" does not exist", 8);
  check_failure("SELECT 1 FROM lineitm", ErrorKind::Binder,
                "table \"lineitm\" does not exist (did you mean \"lineitem\"?)", 15);
  check_failure("SELECT l_tax\nFROM lineitem\nWHERE l_shipdat > DATE '1998-01-01'",
                ErrorKind::Binder,
                "column \"l_shipdat\" does not exist (did you mean \"l_shipdate\"?)", 7, 3);
}

TEST_CASE("binder: qualifiers must name the FROM table or its alias") {
  CHECK(bind_sql("SELECT l.l_tax FROM lineitem l").scan.size() == 1);
  CHECK(bind_sql("SELECT lineitem.l_tax FROM lineitem").scan.size() == 1);
  CHECK(bind_sql("SELECT li.l_tax FROM lineitem AS li").scan[0].name == "l_tax");
  check_failure("SELECT x.l_tax FROM lineitem", ErrorKind::Binder,
                "missing FROM-clause entry for table \"x\"", 8);
  check_failure("SELECT lineitem.l_tax FROM lineitem l", ErrorKind::Binder,
                "missing FROM-clause entry for table \"lineitem\"", 8);
}

TEST_CASE("binder: a query without FROM has no table and no columns") {
  BoundSelect q = bind_sql("SELECT 1 + 2 AS three");
  CHECK(q.table.empty());
  CHECK(q.scan.empty());
  CHECK(q.outputs[0].name == "three");
  CHECK(q.outputs[0].expr->kind == ExprKind::Constant);
  CHECK(q.outputs[0].expr->value.i == 3);
  check_failure("SELECT a", ErrorKind::Binder, "column \"a\" does not exist", 8);
  check_failure("SELECT *", ErrorKind::Binder, "SELECT * with no tables specified is not valid", 8);
}

TEST_CASE("binder: the scan holds referenced columns in order of first reference") {
  BoundSelect q = bind_sql(
      "SELECT l_tax, l_quantity FROM lineitem WHERE l_shipdate > DATE '1998-01-01' AND "
      "l_quantity > 1 AND l_tax < 0.5");
  REQUIRE(q.scan.size() == 3);
  CHECK(q.table == "lineitem");
  CHECK(q.scan[0].name == "l_tax");
  CHECK(q.scan[0].table_column == 7);
  CHECK(q.scan[1].table_column == 4);
  CHECK(q.scan[2].name == "l_shipdate");
  CHECK(q.scan[2].table_column == 10);
  CHECK(q.scan[2].type == Type::date());
  CHECK(q.filter->kind == ExprKind::And);
  CHECK(q.filter->children.size() == 3);
  CHECK_FALSE(q.aggregated);
}

TEST_CASE("binder: * expands to every column - named after them") {
  BoundSelect q = bind_sql("SELECT * FROM alltypes");
  REQUIRE(q.outputs.size() == 12);
  CHECK(q.visible_outputs == 12);
  CHECK(q.outputs[0].name == "b");
  CHECK(q.outputs[11].name == "col1");
  CHECK(q.outputs[8].expr->type == Type::date());
  CHECK(q.scan.size() == 12);
}

TEST_CASE("binder: output names are the alias - the column - or the source text") {
  BoundSelect q = bind_sql(
      "SELECT l_tax, l_tax AS tax, l_tax * 2, SUM(l_quantity) FROM lineitem "
      "GROUP BY l_tax");
  CHECK(q.outputs[0].name == "l_tax");
  CHECK(q.outputs[1].name == "tax");
  CHECK(q.outputs[2].name == "l_tax * 2");
  CHECK(q.outputs[3].name == "SUM(l_quantity)");
}

// ---------------------------------------------------------------- parameters

TEST_CASE("binder: parameter types come from the other operand") {
  CHECK(parameters_of("SELECT COUNT(*) FROM lineitem WHERE l_shipdate <= ?") ==
        std::vector<Type>{Type::date()});
  CHECK(parameters_of("SELECT MOD(col1, ?) FROM alltypes") == std::vector<Type>{Type::integer()});
  CHECK(parameters_of("SELECT l_tax FROM lineitem WHERE l_quantity < ?") ==
        std::vector<Type>{kMoney});
  // TPC-H Q6 style: each parameter takes the type of the literal next to it.
  CHECK(parameters_of("SELECT SUM(l_tax) FROM lineitem WHERE l_discount BETWEEN ? - 0.01 AND "
                      "? + 0.01") == std::vector<Type>{Type::decimal(2, 2), Type::decimal(2, 2)});
  CHECK(parameters_of("SELECT i FROM alltypes WHERE i IN (?, ?)") ==
        std::vector<Type>{Type::integer(), Type::integer()});
  CHECK(parameters_of("SELECT i FROM alltypes WHERE ? IN (1, 2.5)") ==
        std::vector<Type>{Type::decimal(11, 1)});
  CHECK(parameters_of("SELECT i FROM alltypes WHERE ? BETWEEN i AND g") ==
        std::vector<Type>{Type::bigint()});
  CHECK(parameters_of("SELECT i FROM alltypes WHERE v LIKE 'a%' AND ? = v") ==
        std::vector<Type>{Type::varchar()});
}

TEST_CASE("binder: parameters next to a DATE in arithmetic count days") {
  CHECK(parameters_of("SELECT l_tax FROM lineitem WHERE l_shipdate <= DATE '1998-12-01' - ?") ==
        std::vector<Type>{Type::integer()});
  CHECK(parameters_of("SELECT t + ? FROM alltypes") == std::vector<Type>{Type::integer()});
  CHECK(parameters_of("SELECT ? - t FROM alltypes") == std::vector<Type>{Type::date()});
  CHECK(parameters_of("SELECT ? + INTERVAL '1' DAY FROM alltypes") ==
        std::vector<Type>{Type::date()});
}

TEST_CASE("binder: CAST - LIMIT - WHERE and CASE give parameters a type") {
  BoundSelect cast = bind_sql("SELECT CAST(? AS DATE) FROM alltypes");
  CHECK(cast.parameter_types == std::vector<Type>{Type::date()});
  CHECK(expr_to_string(*cast.outputs[0].expr) == "$1");
  BoundSelect limit = bind_sql("SELECT i FROM alltypes WHERE ? LIMIT ? OFFSET ?");
  CHECK(limit.parameter_types ==
        std::vector<Type>{Type::boolean(), Type::bigint(), Type::bigint()});
  CHECK(limit.limit_parameter == 1);
  CHECK(limit.offset_parameter == 2);
  CHECK_FALSE(limit.limit.has_value());
  // Both branches are typed from the + that uses the CASE.
  CHECK(parameters_of("SELECT CASE WHEN b THEN ? ELSE ? END + 1 FROM alltypes") ==
        std::vector<Type>{Type::integer(), Type::integer()});
}

TEST_CASE("binder: a parameter whose type cannot be inferred is an error") {
  const std::string message = "could not determine the type of parameter $1; write CAST(? AS type)";
  check_failure("SELECT ? FROM alltypes", ErrorKind::Type, message, 8);
  check_failure("SELECT ? + ? FROM alltypes", ErrorKind::Type, message, 8);
  check_failure("SELECT -? FROM alltypes", ErrorKind::Type, message, 9);
  check_failure("SELECT SUM(?) FROM alltypes", ErrorKind::Type, message, 12);
  check_failure("SELECT i FROM alltypes WHERE i = ? AND ? IS NULL", ErrorKind::Type,
                "could not determine the type of parameter $2; write CAST(? AS type)", 40);
}

// ---------------------------------------------------------------- aggregates

TEST_CASE("binder: aggregate result types") {
  auto agg_type = [](const std::string& call) {
    BoundSelect q = bind_sql("SELECT " + call + " FROM alltypes");
    REQUIRE(q.aggregates.size() == 1);
    CHECK(q.outputs[0].expr->type == q.aggregates[0].type);
    return q.aggregates[0].type;
  };
  CHECK(agg_type("SUM(i)") == Type::bigint());
  CHECK(agg_type("SUM(s)") == Type::bigint());
  CHECK(agg_type("SUM(n)") == Type::decimal(38, 2));
  CHECK(agg_type("SUM(d)") == Type::double_());
  CHECK(agg_type("SUM(r)") == Type::double_());
  CHECK(agg_type("AVG(i)") == Type::decimal(38, 6));
  CHECK(agg_type("AVG(n)") == Type::decimal(38, 6));
  CHECK(agg_type("AVG(w)") == Type::decimal(38, 10));
  CHECK(agg_type("AVG(d)") == Type::double_());
  CHECK(agg_type("MIN(t)") == Type::date());
  CHECK(agg_type("MAX(v)").is_string());
  CHECK(agg_type("MAX(n)") == kMoney);
  CHECK(agg_type("COUNT(v)") == Type::bigint());
  CHECK(agg_type("COUNT(*)") == Type::bigint());
  CHECK(agg_type("STDDEV(i)") == Type::double_());
  CHECK(agg_type("STDDEV_SAMP(n)") == Type::double_());
  CHECK(agg_type("VARIANCE(n)") == Type::double_());
  CHECK(agg_type("VAR_SAMP(d)") == Type::double_());
  CHECK(bind_sql("SELECT VARIANCE(i) FROM alltypes").aggregates[0].kind == AggKind::VarSamp);
  CHECK(bind_sql("SELECT COUNT(*) FROM alltypes").aggregates[0].kind == AggKind::CountStar);
  CHECK(bind_sql("SELECT COUNT(*) FROM alltypes").aggregates[0].arg == nullptr);
}

TEST_CASE("binder: aggregates reject argument types they cannot sum") {
  Failure f = bind_failure("SELECT SUM(v) FROM alltypes");
  CHECK(f.kind == ErrorKind::Type);
  CHECK(f.message == "cannot apply SUM to VARCHAR in \"SUM(v)\": the argument must be numeric");
  CHECK(bind_failure("SELECT AVG(t) FROM alltypes").kind == ErrorKind::Type);
  CHECK(bind_failure("SELECT STDDEV(b) FROM alltypes").kind == ErrorKind::Type);
}

TEST_CASE("binder: DISTINCT aggregates") {
  BoundSelect q = bind_sql(
      "SELECT COUNT(DISTINCT i), SUM(DISTINCT n), MIN(DISTINCT t) FROM "
      "alltypes");
  REQUIRE(q.aggregates.size() == 3);
  CHECK(q.aggregates[0].kind == AggKind::Count);
  CHECK(q.aggregates[0].distinct);
  CHECK(q.aggregates[1].distinct);
  CHECK_FALSE(q.aggregates[2].distinct);  // MIN is the same with or without DISTINCT
  check_failure("SELECT STDDEV(DISTINCT i) FROM alltypes", ErrorKind::Unsupported,
                "STDDEV_SAMP(DISTINCT ...) is not supported", 8);
}

TEST_CASE("binder: aggregates are not allowed in WHERE or GROUP BY - nor nested") {
  check_failure("SELECT i FROM alltypes WHERE SUM(i) > 1", ErrorKind::Binder,
                "aggregate functions are not allowed in WHERE", 30);
  check_failure("SELECT COUNT(*) FROM alltypes GROUP BY SUM(i)", ErrorKind::Binder,
                "aggregate functions are not allowed in GROUP BY", 40);
  check_failure("SELECT SUM(SUM(i)) FROM alltypes", ErrorKind::Binder,
                "aggregate function calls cannot be nested", 12);
}

TEST_CASE("binder: identical aggregate calls are computed once") {
  BoundSelect q = bind_sql(
      "SELECT SUM(i), SUM(i) + 1, SUM(DISTINCT i), COUNT(*), count(*), SUM(g) FROM alltypes");
  REQUIRE(q.aggregates.size() == 4);
  CHECK(q.outputs[0].expr->kind == ExprKind::AggregateRef);
  CHECK(q.outputs[0].expr->index == 0);
  CHECK(expr_to_string(*q.outputs[1].expr) == "(agg0 + 1)");
  CHECK(q.outputs[2].expr->index == 1);
  CHECK(q.outputs[3].expr->index == 2);
  CHECK(q.outputs[4].expr->index == 2);
  CHECK(q.outputs[5].expr->index == 3);
  CHECK(q.aggregated);
  CHECK(q.group_keys.empty());
}

// ---------------------------------------------------------------- grouping

TEST_CASE("binder: TPC-H Q1 binds with 2 keys and 8 aggregates") {
  BoundSelect q = bind_sql(tpch_q1());
  CHECK(q.aggregated);
  REQUIRE(q.group_keys.size() == 2);
  CHECK(expr_to_string(*q.group_keys[0]) == "#0:l_returnflag");
  CHECK(expr_to_string(*q.group_keys[1]) == "#1:l_linestatus");
  REQUIRE(q.aggregates.size() == 8);
  CHECK(q.aggregates[0].type == Type::decimal(38, 2));  // sum(l_quantity)
  // (1 - l_discount) is DECIMAL(16,2); times DECIMAL(15,2) is DECIMAL(31,4).
  CHECK(q.aggregates[2].arg->type == Type::decimal(31, 4));
  CHECK(q.aggregates[2].type == Type::decimal(38, 4));
  CHECK(q.aggregates[3].type == Type::decimal(38, 6));  // DECIMAL(31,4) * DECIMAL(16,2)
  CHECK(q.aggregates[4].type == Type::decimal(38, 6));  // avg
  CHECK(q.aggregates[7].kind == AggKind::CountStar);
  CHECK(expr_to_string(*q.filter) == "(#6:l_shipdate <= DATE '1998-09-02')");
  REQUIRE(q.outputs.size() == 10);
  CHECK(q.visible_outputs == 10);
  CHECK(q.outputs[0].expr->kind == ExprKind::GroupKeyRef);
  CHECK(q.outputs[1].expr->index == 1);
  for (size_t i = 2; i < 10; ++i) {
    CHECK(q.outputs[i].expr->kind == ExprKind::AggregateRef);
    CHECK(q.outputs[i].expr->index == static_cast<int>(i - 2));
  }
  CHECK(q.outputs[9].name == "count_order");
  REQUIRE(q.order_by.size() == 2);
  CHECK(q.order_by[0].output == 0);
  CHECK(q.order_by[1].output == 1);
  CHECK_FALSE(q.order_by[0].descending);
  CHECK_FALSE(q.order_by[0].nulls_first);
  CHECK(q.scan.size() == 7);
}

TEST_CASE("binder: outputs are rewritten over group keys - largest match first") {
  BoundSelect whole = bind_sql("SELECT i + 1, COUNT(*) FROM alltypes GROUP BY i + 1");
  CHECK(expr_to_string(*whole.outputs[0].expr) == "key0");
  BoundSelect part = bind_sql("SELECT i + 1, SUM(n) * 2 FROM alltypes GROUP BY i");
  CHECK(expr_to_string(*part.outputs[0].expr) == "(key0 + 1)");
  CHECK(part.outputs[1].expr->type == Type::decimal(38, 2));  // DECIMAL(38,2) * DECIMAL(10,0)
  BoundSelect having =
      bind_sql("SELECT i FROM alltypes GROUP BY i HAVING SUM(n) > 10 AND (i < 5 OR COUNT(*) = 1)");
  CHECK(expr_to_string(*having.having) == "((agg0 > 10) AND ((key0 < 5) OR (agg1 = 1)))");
}

TEST_CASE("binder: a column neither grouped nor aggregated is an error") {
  const std::string message =
      "column \"l_tax\" must appear in the GROUP BY clause or be used in an aggregate function";
  check_failure("SELECT l_returnflag, l_tax FROM lineitem GROUP BY l_returnflag", ErrorKind::Binder,
                message, 22);
  check_failure("SELECT l_returnflag, 1 + l_tax FROM lineitem GROUP BY l_returnflag",
                ErrorKind::Binder, message, 26);
  check_failure("SELECT COUNT(*) FROM lineitem GROUP BY l_returnflag HAVING l_tax > 1",
                ErrorKind::Binder, message, 60);
  check_failure("SELECT l_returnflag FROM lineitem GROUP BY l_returnflag ORDER BY l_tax",
                ErrorKind::Binder, message, 66);
  check_failure("SELECT l_tax, COUNT(*) FROM lineitem", ErrorKind::Binder, message, 8);
}

TEST_CASE("binder: aggregates or HAVING alone make the query aggregated") {
  BoundSelect count = bind_sql("SELECT COUNT(*) FROM lineitem");
  CHECK(count.aggregated);
  CHECK(count.group_keys.empty());
  BoundSelect having = bind_sql("SELECT 1 FROM lineitem HAVING COUNT(*) > 1");
  CHECK(having.aggregated);
  REQUIRE(having.having);
  CHECK(expr_to_string(*having.having) == "(agg0 > 1)");
}

TEST_CASE("binder: GROUP BY ordinals name select items") {
  BoundSelect q =
      bind_sql("SELECT l_returnflag, SUM(l_tax) FROM lineitem GROUP BY 1 ORDER BY 2 DESC");
  REQUIRE(q.group_keys.size() == 1);
  CHECK(expr_to_string(*q.group_keys[0]) == "#0:l_returnflag");
  CHECK(q.order_by[0].output == 1);
  CHECK(q.order_by[0].descending);
  check_failure("SELECT l_returnflag, SUM(l_tax) FROM lineitem GROUP BY 2", ErrorKind::Binder,
                "aggregate functions are not allowed in GROUP BY", 22);
  check_failure("SELECT l_returnflag, SUM(l_tax) FROM lineitem GROUP BY 3", ErrorKind::Binder,
                "GROUP BY position 3 is not in select list", 56);
}

TEST_CASE("binder: GROUP BY names a select alias unless an input column has the name") {
  BoundSelect q =
      bind_sql("SELECT l_tax * 2 AS double_tax, COUNT(*) FROM lineitem GROUP BY double_tax");
  CHECK(expr_to_string(*q.group_keys[0]) == "(#0:l_tax * 2)");
  CHECK(expr_to_string(*q.outputs[0].expr) == "key0");
  // l_quantity is a column of lineitem, so GROUP BY l_quantity groups by the column.
  check_failure("SELECT l_tax AS l_quantity, COUNT(*) FROM lineitem GROUP BY l_quantity",
                ErrorKind::Binder,
                "column \"l_tax\" must appear in the GROUP BY clause or be used in an aggregate "
                "function",
                8);
  check_failure("SELECT SUM(l_tax) AS total FROM lineitem GROUP BY total", ErrorKind::Binder,
                "aggregate functions are not allowed in GROUP BY", 8);
}

TEST_CASE("binder: SELECT * is an error in an aggregated query") {
  Failure f = bind_failure("SELECT * FROM lineitem GROUP BY l_returnflag");
  CHECK(f.kind == ErrorKind::Binder);
  CHECK(f.column == 8);
  CHECK(bind_failure("SELECT *, COUNT(*) FROM lineitem").kind == ErrorKind::Binder);
}

TEST_CASE("binder: SELECT DISTINCT without aggregates groups by the select items") {
  BoundSelect q = bind_sql("SELECT DISTINCT l_returnflag, l_linestatus FROM lineitem");
  CHECK(q.aggregated);
  CHECK_FALSE(q.distinct_outputs);
  REQUIRE(q.group_keys.size() == 2);
  CHECK(q.aggregates.empty());
  CHECK(expr_to_string(*q.outputs[0].expr) == "key0");
  CHECK(expr_to_string(*q.outputs[1].expr) == "key1");
  CHECK(q.outputs[1].expr->type == Type::char_(1));
  BoundSelect same = bind_sql("SELECT DISTINCT l_tax, l_tax FROM lineitem ORDER BY l_tax");
  CHECK(same.group_keys.size() == 1);
  CHECK(expr_to_string(*same.outputs[1].expr) == "key0");
  CHECK(same.outputs.size() == 2);
}

TEST_CASE("binder: SELECT DISTINCT over an aggregated query dedups the outputs") {
  BoundSelect q =
      bind_sql("SELECT DISTINCT COUNT(*) FROM lineitem GROUP BY l_returnflag ORDER BY COUNT(*)");
  CHECK(q.distinct_outputs);
  CHECK(q.aggregated);
  CHECK(q.outputs.size() == 1);
  CHECK(q.order_by[0].output == 0);
}

TEST_CASE("binder: with SELECT DISTINCT - ORDER BY must use the select list") {
  check_failure("SELECT DISTINCT l_returnflag FROM lineitem ORDER BY l_tax", ErrorKind::Binder,
                "for SELECT DISTINCT, ORDER BY expressions must appear in select list", 53);
  CHECK(bind_sql("SELECT DISTINCT l_returnflag AS f FROM lineitem ORDER BY l_returnflag")
            .order_by[0]
            .output == 0);
}

// ---------------------------------------------------------------- ORDER BY, LIMIT

TEST_CASE("binder: ORDER BY ordinals and output names") {
  BoundSelect q = bind_sql("SELECT l_tax, l_quantity FROM lineitem ORDER BY 2 DESC, l_tax");
  REQUIRE(q.order_by.size() == 2);
  CHECK(q.order_by[0].output == 1);
  CHECK(q.order_by[0].descending);
  CHECK(q.order_by[1].output == 0);
  CHECK(q.outputs.size() == 2);
  check_failure("SELECT l_tax FROM lineitem ORDER BY 3", ErrorKind::Binder,
                "ORDER BY position 3 is not in select list", 37);
  check_failure("SELECT l_tax FROM lineitem ORDER BY 0", ErrorKind::Binder,
                "ORDER BY position 0 is not in select list", 37);
}

TEST_CASE("binder: ORDER BY prefers output names over input columns") {
  BoundSelect q =
      bind_sql("SELECT l_tax AS l_quantity, l_quantity AS q FROM lineitem ORDER BY l_quantity");
  CHECK(q.order_by[0].output == 0);
  CHECK(q.outputs.size() == 2);
  BoundSelect alias = bind_sql("SELECT l_tax * 2 AS x FROM lineitem ORDER BY x DESC");
  CHECK(alias.order_by[0].output == 0);
  check_failure("SELECT l_tax AS x, l_quantity AS x FROM lineitem ORDER BY x", ErrorKind::Binder,
                "ORDER BY \"x\" is ambiguous", 59);
}

TEST_CASE("binder: ORDER BY expressions reuse equal outputs or add hidden ones") {
  BoundSelect reuse = bind_sql("SELECT l_tax + 1 FROM lineitem ORDER BY l_tax + 1");
  CHECK(reuse.outputs.size() == 1);
  CHECK(reuse.order_by[0].output == 0);
  BoundSelect hidden = bind_sql("SELECT l_tax FROM lineitem ORDER BY l_quantity, l_quantity");
  REQUIRE(hidden.outputs.size() == 2);
  CHECK(hidden.visible_outputs == 1);
  CHECK(hidden.order_by[0].output == 1);
  CHECK(hidden.order_by[1].output == 1);
  CHECK(expr_to_string(*hidden.outputs[1].expr) == "#1:l_quantity");
  BoundSelect agg =
      bind_sql("SELECT l_returnflag FROM lineitem GROUP BY l_returnflag ORDER BY SUM(l_tax) DESC");
  REQUIRE(agg.outputs.size() == 2);
  CHECK(agg.visible_outputs == 1);
  CHECK(agg.outputs[1].expr->kind == ExprKind::AggregateRef);
  CHECK(agg.aggregates.size() == 1);
  CHECK(agg.order_by[0].output == 1);
}

TEST_CASE("binder: NULL ordering defaults to LAST for ASC and FIRST for DESC") {
  BoundSelect q = bind_sql(
      "SELECT l_tax FROM lineitem ORDER BY l_tax, l_tax DESC, l_tax NULLS FIRST, l_tax DESC "
      "NULLS LAST");
  REQUIRE(q.order_by.size() == 4);
  CHECK_FALSE(q.order_by[0].nulls_first);
  CHECK(q.order_by[1].nulls_first);
  CHECK(q.order_by[2].nulls_first);
  CHECK_FALSE(q.order_by[3].nulls_first);
}

TEST_CASE("binder: LIMIT and OFFSET are non-negative integer constants or parameters") {
  BoundSelect q = bind_sql("SELECT l_tax FROM lineitem LIMIT 10 OFFSET 5");
  CHECK(q.limit == 10);
  CHECK(q.offset == 5);
  CHECK(q.limit_parameter == -1);
  BoundSelect none = bind_sql("SELECT l_tax FROM lineitem");
  CHECK_FALSE(none.limit.has_value());
  CHECK(none.offset == 0);
  check_failure("SELECT l_tax FROM lineitem LIMIT -1", ErrorKind::Type,
                "LIMIT must not be negative", 34);
  check_failure("SELECT l_tax FROM lineitem LIMIT 1.5", ErrorKind::Type,
                "argument of LIMIT must be an integer constant or a parameter", 34);
}

// ---------------------------------------------------------------- explain, IR helpers

TEST_CASE("binder: explain shows every phase") {
  BoundSelect q = bind_sql(trim_semicolon(tpch_q1()) + " LIMIT 3");
  std::string text = explain(q);
  CHECK(text.find("table: lineitem") != std::string::npos);
  CHECK(text.find("#0 l_returnflag CHAR(1)") != std::string::npos);
  CHECK(text.find("filter: (#6:l_shipdate <= DATE '1998-09-02')") != std::string::npos);
  CHECK(text.find("key1 = #1:l_linestatus") != std::string::npos);
  CHECK(text.find("agg0 = SUM(#2:l_quantity) -> DECIMAL(38,2) [SumWide]") != std::string::npos);
  CHECK(text.find("agg7 = COUNT(*) -> BIGINT [Count]") != std::string::npos);
  CHECK(text.find("[AvgWide]") != std::string::npos);
  CHECK(text.find("count_order = agg7 BIGINT") != std::string::npos);
  CHECK(text.find("output 1 ASC NULLS LAST") != std::string::npos);
  CHECK(text.find("limit: 3") != std::string::npos);
  BoundSelect p = bind_sql("SELECT l_quantity * 1.00 FROM lineitem WHERE l_tax > ?");
  CHECK(expr_to_string(*p.outputs[0].expr) == "(#0:l_quantity * 1.00)");
  CHECK(explain(p).find("$1 DECIMAL(15,2)") != std::string::npos);
}

TEST_CASE("binder: expr_equal compares structure - not source text") {
  ExprPtr a = make_column_ref(0, kMoney, "l_tax");
  ExprPtr b = make_column_ref(0, kMoney, "tax");
  CHECK(expr_equal(*a, *b));
  CHECK_FALSE(expr_equal(*a, *make_column_ref(1, kMoney, "l_tax")));
  CHECK_FALSE(expr_equal(*a, *make_column_ref(0, Type::decimal(15, 3), "l_tax")));
  ExprPtr one = make_constant(Value::from_int(1), Type::integer());
  ExprPtr two = make_constant(Value::from_int(2), Type::integer());
  CHECK_FALSE(expr_equal(*make_node(ExprKind::Arith, Type::integer(), {one, one}, kAdd),
                         *make_node(ExprKind::Arith, Type::integer(), {one, two}, kAdd)));
  CHECK_FALSE(expr_equal(*make_node(ExprKind::Arith, Type::integer(), {one, one}, kAdd),
                         *make_node(ExprKind::Arith, Type::integer(), {one, one}, kSub)));
  CHECK(expr_equal(*make_string_constant("x"), *make_string_constant("x", "'x'")));
  CHECK_FALSE(expr_equal(*make_string_constant("x"), *make_string_constant("y")));
  CHECK(expr_equal(*make_null_constant(Type::date()), *make_null_constant(Type::date())));
  CHECK_FALSE(expr_equal(*make_null_constant(Type::date()),
                         *make_constant(Value::from_int(0), Type::date())));
}

TEST_CASE("binder: is_constant_expr - contains_kind and expr_to_string") {
  ExprPtr col = make_column_ref(3, Type::integer(), "x");
  ExprPtr one = make_constant(Value::from_int(1), Type::integer());
  ExprPtr sum = make_node(ExprKind::Arith, Type::integer(), {col, one}, kMul);
  CHECK(expr_to_string(*sum) == "(#3:x * 1)");
  CHECK_FALSE(is_constant_expr(*sum));
  CHECK(is_constant_expr(*make_cast(one, Type::bigint())));
  CHECK(contains_kind(*sum, ExprKind::Constant));
  CHECK_FALSE(contains_kind(*sum, ExprKind::AggregateRef));
  ExprPtr dec = make_constant(Value::from_decimal(-705), Type::decimal(5, 2));
  CHECK(expr_to_string(*dec) == "-7.05");
  CHECK(expr_to_string(*make_string_constant("it's")) == "'it''s'");
  CHECK(expr_to_string(*make_null_constant(Type::integer())) == "NULL");
  CHECK(expr_to_string(*make_cast(col, Type::decimal(12, 2))) == "CAST(#3:x AS DECIMAL(12,2))");
}

TEST_CASE("binder: edit distance and name suggestions") {
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("same", "same") == 0);
  std::vector<std::string> names = {"l_quantity", "l_tax", "l_discount"};
  CHECK(nearest_name("l_quantiy", names) == "l_quantity");
  CHECK(nearest_name("l_tx", names) == "l_tax");
  CHECK_FALSE(nearest_name("price", names).has_value());
  // Long names tolerate a third of their length in edits.
  CHECK(nearest_name("l_xtnddprice", {"l_extendedprice"}) == "l_extendedprice");  // 3 edits
  CHECK_FALSE(nearest_name("xyz", {"abc"}).has_value());
  CHECK(did_you_mean("l_tx", names) == " (did you mean \"l_tax\"?)");
  CHECK(did_you_mean("zzzzzz", names).empty());
}

// ---------------------------------------------------------------- bind_constant

TEST_CASE("binder: bind_constant converts INSERT values to the column type") {
  ExprPtr price = bind_constant(*parse_value("'12.5'"), kMoney);
  CHECK(price->kind == ExprKind::Constant);
  CHECK(price->type == kMoney);
  CHECK(price->value.d == 1250);
  CHECK(bind_constant(*parse_value("5"), kMoney)->value.d == 500);
  CHECK(bind_constant(*parse_value("-5"), Type::integer())->value.i == -5);
  CHECK(bind_constant(*parse_value("'1998-12-01'"), Type::date())->value.i ==
        days_from_civil(1998, 12, 1));
  ExprPtr null = bind_constant(*parse_value("NULL"), Type::date());
  CHECK(null->value.null);
  CHECK(null->type == Type::date());
  ExprPtr text = bind_constant(*parse_value("42"), Type::varchar(10));
  CHECK(text->str == "42");
  CHECK(text->type == Type::varchar(10));
  CHECK(bind_constant(*parse_value("'ab'"), Type::char_(2))->str == "ab");
  auto kind_of = [](const std::string& value, const Type& t) {
    try {
      bind_constant(*parse_value(value), t);
    } catch (const Error& e) {
      return e.kind();
    }
    return ErrorKind::Internal;
  };
  CHECK(kind_of("'abc'", Type::varchar(2)) == ErrorKind::Type);
  CHECK(kind_of("'x'", Type::integer()) == ErrorKind::Type);
  CHECK(kind_of("DATE '1998-01-01'", Type::integer()) == ErrorKind::Type);
  CHECK(kind_of("100000", Type::smallint()) == ErrorKind::Type);
  CHECK(kind_of("x", Type::integer()) == ErrorKind::Binder);
}

// ---------------------------------------------------------------- more corners

TEST_CASE("binder: string literals next to BOOLEANs and in WHERE read as booleans") {
  CHECK(ir_of("b = 'true'") == "(#0:b = TRUE)");
  BoundSelect q = bind_sql("SELECT i FROM alltypes WHERE 'no'");
  REQUIRE(q.filter);
  CHECK(q.filter->kind == ExprKind::Constant);
  CHECK(q.filter->value.i == 0);
  check_failure("SELECT i FROM alltypes WHERE 'maybe'", ErrorKind::Type,
                "invalid input syntax for type BOOLEAN: \"maybe\"", 30);
}

TEST_CASE("binder: NULL in IN lists and LIKE patterns") {
  ExprPtr in = bound("i IN (1, NULL)");
  REQUIRE(in->children.size() == 3);
  CHECK(in->children[2]->type == Type::integer());
  CHECK(in->children[2]->value.null);
  ExprPtr like = bound("v LIKE NULL");
  CHECK(like->kind == ExprKind::Constant);
  CHECK(like->type == Type::boolean());
  CHECK(like->value.null);
}

TEST_CASE("binder: GROUP BY and ORDER BY reject ambiguous names and odd constants") {
  check_failure("SELECT l_tax AS x, l_quantity AS x FROM lineitem GROUP BY x", ErrorKind::Binder,
                "GROUP BY \"x\" is ambiguous", 59);
  check_failure("SELECT l_tax FROM lineitem ORDER BY 'a'", ErrorKind::Binder,
                "non-integer constant 'a' in ORDER BY", 37);
  check_failure("SELECT l_tax FROM lineitem LIMIT COUNT(*)", ErrorKind::Binder,
                "aggregate functions are not allowed in LIMIT", 34);
}

TEST_CASE("binder: SELECT DISTINCT * groups by every column") {
  BoundSelect q = bind_sql("SELECT DISTINCT * FROM alltypes");
  CHECK(q.aggregated);
  CHECK(q.group_keys.size() == 12);
  CHECK(q.outputs[11].expr->kind == ExprKind::GroupKeyRef);
  CHECK(q.outputs[11].expr->index == 11);
}

TEST_CASE("binder: parameters and constants survive the grouping rewrite") {
  BoundSelect q =
      bind_sql("SELECT l_returnflag, SUM(l_tax) * ? + 1 FROM lineitem GROUP BY l_returnflag");
  CHECK(q.parameter_types == std::vector<Type>{Type::decimal(38, 2)});
  CHECK(expr_to_string(*q.outputs[1].expr) == "((agg0 * $1) + 1)");
  check_failure("SELECT COUNT(*) FROM lineitem ORDER BY l_tax", ErrorKind::Binder,
                "column \"l_tax\" must appear in the GROUP BY clause or be used in an aggregate "
                "function",
                40);
}

TEST_CASE("binder: HAVING without GROUP BY or aggregates makes one group") {
  BoundSelect q = bind_sql("SELECT 1 AS one FROM lineitem HAVING 2 > 1");
  CHECK(q.aggregated);
  CHECK(q.having == nullptr);  // folded to TRUE
  CHECK(q.group_keys.empty());
  CHECK(q.aggregates.empty());
}

TEST_CASE("binder: an untyped CASE takes its type from where it is used") {
  ExprPtr e = bound("CASE WHEN b THEN NULL END = t");
  REQUIRE(e->kind == ExprKind::Compare);
  const Expr& case_node = *e->children[0];
  CHECK(case_node.kind == ExprKind::Case);
  CHECK(case_node.type == Type::date());
  CHECK(case_node.children[1]->type == Type::date());
  CHECK(case_node.children[2]->type == Type::date());
  CHECK(type_of("CASE WHEN b THEN NULL END").is_string());
}

TEST_CASE("binder: bind_constant accepts booleans and rejects parameters") {
  CHECK(bind_constant(*parse_value("TRUE"), Type::boolean())->value.i == 1);
  CHECK(bind_constant(*parse_value("'f'"), Type::boolean())->value.i == 0);
  CHECK(bind_constant(*parse_value("1.5"), Type::double_())->value.f == 1.5);
  CHECK(bind_constant(*parse_value("2.345"), kMoney)->value.d == 235);  // rounded
  try {
    bind_constant(*parse_value("?"), Type::integer());
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Binder);
    CHECK(std::string(e.what()) == "there is no parameter $1");
  }
}

TEST_CASE("binder: * is an argument only of COUNT") {
  check_failure("SELECT SUM(*) FROM alltypes", ErrorKind::Binder,
                "SUM(*) is not valid; only COUNT(*) counts rows", 8);
  check_failure("SELECT ABS(*) FROM alltypes", ErrorKind::Binder,
                "* specified, but abs is not an aggregate function", 8);
  check_failure("SELECT ABS(DISTINCT i) FROM alltypes", ErrorKind::Binder,
                "DISTINCT specified, but abs is not an aggregate function", 8);
}
