#include "tools/fuzz/generator.h"

#include <fmt/format.h>

#include <vector>

#include "tools/fuzz/expr_generator.h"
#include "tools/fuzz/literals.h"

namespace tally::fuzz {

namespace {

const FuzzTable& pick_table(Rng& rng) {
  int total = 0;
  for (const auto& t : fuzz_tables()) total += t.weight;
  int64_t at = rng.between(0, total - 1);
  for (const auto& t : fuzz_tables()) {
    if (at < t.weight) return t;
    at -= t.weight;
  }
  return fuzz_tables().front();
}

std::string join(const std::vector<std::string>& items, const char* separator = ", ") {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) text += (i ? separator : "") + items[i];
  return text;
}

// LIMIT/OFFSET: small counts mostly, the edges (0, negative, huge, NULL, expressions) too.
std::string limit_clause(Rng& rng) {
  auto count = [&] {
    if (rng.chance(70)) return std::to_string(rng.between(0, 12));
    return rng.pick(std::vector<std::string>{"-1", "9223372036854775807", "NULL", "1 + 1",
                                             "2147483648", "1.5", "'3'", "0"});
  };
  std::string text = " LIMIT " + count();
  if (rng.chance(40)) text += " OFFSET " + count();
  if (rng.chance(10)) text = " OFFSET " + count();
  return text;
}

std::string order_direction(Rng& rng) {
  std::string text = rng.pick(std::vector<std::string>{"", " ASC", " DESC"});
  if (rng.chance(30)) text += rng.chance(50) ? " NULLS FIRST" : " NULLS LAST";
  return text;
}

// An aggregating query: keys first (so the SELECT list and GROUP BY can refer to them by
// text, ordinal or alias), then aggregated expressions, HAVING, ORDER BY, LIMIT.
std::string grouped(Rng& rng, ExprGenerator& gen, const FuzzTable& table, int key_count) {
  std::vector<std::string> items, group_by, order_by;
  for (int k = 0; k < key_count; ++k) {
    Cls cls = gen.random_cls();
    std::string key = rng.chance(60) ? gen.column(cls) : gen.scalar(cls);
    bool selected = rng.chance(80);
    std::string alias = rng.chance(30) ? fmt::format("key{}", k) : "";
    if (selected) items.push_back(alias.empty() ? key : key + " AS " + alias);
    int ordinal = static_cast<int>(items.size());
    if (selected && rng.chance(30)) {
      group_by.push_back(std::to_string(ordinal));
    } else if (!alias.empty() && selected && rng.chance(50)) {
      group_by.push_back(alias);
    } else {
      group_by.push_back(key);
    }
    if (rng.chance(30)) order_by.push_back(key + order_direction(rng));
  }
  for (int n = static_cast<int>(rng.between(1, 4)); n > 0; --n) {
    std::string item = gen.aggregated(gen.random_cls());
    items.push_back(rng.chance(20) ? item + " AS a" + std::to_string(n) : item);
  }
  if (rng.chance(5)) group_by.push_back(rng.pick(std::vector<std::string>{"0", "99", "-1"}));
  std::string sql = "SELECT " + join(items) + " FROM " + table.name;
  if (rng.chance(50)) sql += " WHERE " + gen.scalar(Cls::Bool);
  if (key_count > 0) sql += " GROUP BY " + join(group_by);
  if (rng.chance(30)) sql += " HAVING " + gen.aggregated(Cls::Bool);
  if (rng.chance(30))
    order_by.push_back(std::to_string(rng.between(1, static_cast<int64_t>(items.size()))) +
                       order_direction(rng));
  if (!order_by.empty() && rng.chance(70)) sql += " ORDER BY " + join(order_by);
  if (rng.chance(20)) sql += limit_clause(rng);
  return sql;
}

// A query without aggregates: SELECT expressions (or *), WHERE, ORDER BY, LIMIT.
std::string projection(Rng& rng, ExprGenerator& gen, const FuzzTable& table, bool distinct) {
  std::vector<std::string> items, order_by;
  if (!distinct && rng.chance(10)) {
    items.push_back("*");
  } else {
    for (int n = static_cast<int>(rng.between(1, 4)); n > 0; --n) {
      std::string item = gen.scalar(gen.random_cls());
      items.push_back(rng.chance(20) ? item + " AS p" + std::to_string(n) : item);
    }
  }
  std::string sql =
      std::string("SELECT ") + (distinct ? "DISTINCT " : "") + join(items) + " FROM " + table.name;
  if (rng.chance(60)) sql += " WHERE " + gen.scalar(Cls::Bool);
  if (rng.chance(40)) {
    for (int n = static_cast<int>(rng.between(1, 2)); n > 0; --n)
      order_by.push_back(
          (rng.chance(50) ? gen.scalar(gen.random_cls()) : std::to_string(rng.between(1, 3))) +
          order_direction(rng));
    sql += " ORDER BY " + join(order_by);
  }
  if (rng.chance(30)) sql += limit_clause(rng);
  return sql;
}

// SELECT without FROM: the constant folder and the evaluator on literals at the edges.
std::string constants(Rng& rng, ExprGenerator& gen) {
  std::vector<std::string> items;
  for (int n = static_cast<int>(rng.between(1, 3)); n > 0; --n)
    items.push_back(gen.scalar(gen.random_cls()));
  std::string sql = "SELECT " + join(items);
  if (rng.chance(10)) sql += " WHERE " + gen.scalar(Cls::Bool);
  return sql;
}

// Shapes the binder may refuse (subqueries, set operations, joins, windows): each must be
// a clear error or a right answer.
std::string exotic(Rng& rng, ExprGenerator& gen, const FuzzTable& table) {
  switch (rng.below(6)) {
    case 0:
      return fmt::format("SELECT COUNT(*) FROM (SELECT {} AS x FROM {}) s", gen.scalar(Cls::Int),
                         table.name);
    case 1:
      return fmt::format("SELECT {} FROM {} UNION ALL SELECT {} FROM {}", gen.column(Cls::Int),
                         table.name, gen.column(Cls::Int), table.name);
    case 2:
      return fmt::format("SELECT COUNT(*) FROM {} a JOIN {} b ON a.{} = b.{}", table.name,
                         table.name, table.columns[0].name, table.columns[0].name);
    case 3:
      return fmt::format("SELECT SUM({}) OVER (PARTITION BY 1) FROM {}", gen.column(Cls::Int),
                         table.name);
    case 4:
      return fmt::format("WITH w AS (SELECT * FROM {}) SELECT COUNT(*) FROM w", table.name);
    default:
      return fmt::format("SELECT {} FROM {} WHERE {} IN (SELECT {} FROM {})", gen.column(Cls::Int),
                         table.name, gen.column(Cls::Int), gen.column(Cls::Int), table.name);
  }
}

}  // namespace

std::string generate_statement(uint64_t seed, uint64_t index) {
  Rng rng(seed * 0x9e3779b97f4a7c15ULL ^ (index + 1) * 0xc2b2ae3d27d4eb4fULL);
  const FuzzTable& table = pick_table(rng);
  ExprGenerator gen(rng, &table, static_cast<int>(rng.between(1, 4)));
  uint64_t shape = rng.below(100);
  if (shape < 45) return grouped(rng, gen, table, static_cast<int>(rng.between(1, 3)));
  if (shape < 60) return grouped(rng, gen, table, 0);
  if (shape < 80) return projection(rng, gen, table, false);
  if (shape < 88) return projection(rng, gen, table, true);
  ExprGenerator no_table(rng, nullptr, static_cast<int>(rng.between(1, 5)));
  if (shape < 96) return constants(rng, no_table);
  return exotic(rng, gen, table);
}

}  // namespace tally::fuzz
