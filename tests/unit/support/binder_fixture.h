// What the binder's tests share (tests/unit/binder_test.cpp, binder_rules_test.cpp): a catalog of
// lineitem and a table of every type, SQL bound through parse_script, and the error a
// statement must raise (kind, message, line and column).
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <variant>

#include "compiler/bind/binder.h"
#include "compiler/ir/query.h"
#include "compiler/parse/parser.h"

namespace tally::binder_test {

class TestCatalog : public Catalog {
 public:
  TestCatalog() {
    const Type money = Type::decimal(15, 2);
    tables_.push_back({"lineitem",
                       {{"l_orderkey", Type::bigint()},
                        {"l_partkey", Type::bigint()},
                        {"l_suppkey", Type::bigint()},
                        {"l_linenumber", Type::integer()},
                        {"l_quantity", money},
                        {"l_extendedprice", money},
                        {"l_discount", money},
                        {"l_tax", money},
                        {"l_returnflag", Type::char_(1)},
                        {"l_linestatus", Type::char_(1)},
                        {"l_shipdate", Type::date()},
                        {"l_commitdate", Type::date()},
                        {"l_receiptdate", Type::date()},
                        {"l_shipinstruct", Type::char_(25)},
                        {"l_shipmode", Type::char_(10)},
                        {"l_comment", Type::varchar(44)}}});
    tables_.push_back({"alltypes",
                       {{"b", Type::boolean()},
                        {"s", Type::smallint()},
                        {"i", Type::integer()},
                        {"g", Type::bigint()},
                        {"r", Type::real()},
                        {"d", Type::double_()},
                        {"n", Type::decimal(15, 2)},
                        {"w", Type::decimal(38, 10)},
                        {"t", Type::date()},
                        {"v", Type::varchar()},
                        {"c", Type::char_(3)},
                        {"col1", Type::integer()}}});
  }
  const TableSchema* find_table(std::string_view name) const override {
    for (const auto& t : tables_) {
      if (t.name == name) return &t;
    }
    return nullptr;
  }
  std::vector<std::string> table_names() const override { return {"lineitem", "alltypes"}; }

 private:
  std::vector<TableSchema> tables_;
};

inline const Catalog& catalog() {
  static const TestCatalog c;
  return c;
}

inline BoundSelect bind_sql(const std::string& sql) {
  auto statements = parse_script(sql);
  REQUIRE(statements.size() == 1);
  const auto* select = std::get_if<ast::SelectStmt>(&statements[0].body);
  REQUIRE(select != nullptr);
  return bind_select(*select, catalog(), statements[0].parameter_count);
}

struct Failure {
  ErrorKind kind = ErrorKind::Internal;
  std::string message;
  int line = 0;
  int column = 0;
};

inline Failure bind_failure(const std::string& sql) {
  try {
    bind_sql(sql);
  } catch (const Error& e) {
    Failure f{e.kind(), e.what()};
    if (e.location()) {
      f.line = e.location()->line;
      f.column = e.location()->column;
    }
    return f;
  }
  FAIL("binding succeeded: " << sql);
  return {};
}

inline void check_failure(const std::string& sql, ErrorKind kind, const std::string& message,
                          int column, int line = 1) {
  INFO(sql);
  Failure f = bind_failure(sql);
  CHECK(f.kind == kind);
  CHECK(f.message == message);
  CHECK(f.line == line);
  CHECK(f.column == column);
}

// The first output of SELECT <expr> FROM alltypes.
inline ExprPtr bound(const std::string& expr) {
  return bind_sql("SELECT " + expr + " FROM alltypes").outputs.at(0).expr;
}
inline Type type_of(const std::string& expr) { return bound(expr)->type; }
inline std::string ir_of(const std::string& expr) { return expr_to_string(*bound(expr)); }
inline std::vector<Type> parameters_of(const std::string& sql) {
  return bind_sql(sql).parameter_types;
}

inline ast::ExprPtr parse_value(const std::string& sql_value) {
  auto statements = parse_script("INSERT INTO t VALUES (" + sql_value + ")");
  auto& insert = std::get<ast::InsertStmt>(statements.at(0).body);
  return std::move(insert.rows.at(0).at(0));
}

inline const Type kMoney = Type::decimal(15, 2);
// TPC-H Q1 as the repository ships it.
inline std::string trim_semicolon(std::string sql) {
  while (!sql.empty() && (sql.back() == ';' || sql.back() == '\n')) sql.pop_back();
  return sql;
}

inline std::string tpch_q1() {
  std::ifstream file(std::string(TALLY_SOURCE_DIR) + "/queries/tpch_q1.sql");
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace tally::binder_test
