#include "tools/fuzz/expr_generator.h"

#include <fmt/format.h>

#include "tools/fuzz/literals.h"

namespace tally::fuzz {

namespace {

const std::vector<std::string> kCompare = {"=", "<>", "!=", "<", "<=", ">", ">=", "=="};

}  // namespace

Cls ExprGenerator::random_cls() {
  static const std::vector<Cls> kAll = {Cls::Int, Cls::Int, Cls::Dec,  Cls::Dec,
                                        Cls::Dbl, Cls::Str, Cls::Date, Cls::Bool};
  return rng_.pick(kAll);
}

Cls ExprGenerator::maybe_wrong(Cls cls) { return rng_.chance(3) ? random_cls() : cls; }

std::string ExprGenerator::column(Cls cls) {
  if (table_) {
    std::vector<std::string> fits;
    for (const auto& c : table_->columns)
      if (c.cls == cls) fits.push_back(c.name);
    if (!fits.empty()) {
      // Qualified names now and then: the binder resolves table.column too.
      std::string name = rng_.pick(fits);
      return rng_.chance(5) ? table_->name + "." + name : name;
    }
  }
  return literal(rng_, cls);
}

std::string ExprGenerator::leaf(Cls cls, bool in_aggregate) {
  if (in_aggregate) return rng_.chance(75) ? aggregate(cls, max_depth_ - 1) : literal(rng_, cls);
  return table_ && rng_.chance(70) ? column(cls) : literal(rng_, cls);
}

std::string ExprGenerator::expr(Cls cls, int depth, bool agg) {
  if (depth >= max_depth_ || rng_.chance(30)) return leaf(cls, agg);
  if (rng_.chance(12)) return common(cls, depth + 1, agg);
  switch (cls) {
    case Cls::Int:
      return int_expr(depth + 1, agg);
    case Cls::Dec:
      return dec_expr(depth + 1, agg);
    case Cls::Dbl:
      return dbl_expr(depth + 1, agg);
    case Cls::Str:
      return str_expr(depth + 1, agg);
    case Cls::Date:
      return date_expr(depth + 1, agg);
    case Cls::Bool:
      return bool_expr(depth + 1, agg);
  }
  return leaf(cls, agg);
}

std::string ExprGenerator::numeric(int depth, bool agg) {
  static const std::vector<Cls> kNumeric = {Cls::Int, Cls::Int, Cls::Dec, Cls::Dbl};
  return expr(rng_.pick(kNumeric), depth, agg);
}

std::string ExprGenerator::int_expr(int d, bool agg) {
  static const std::vector<std::string> kOps = {"+", "-", "*", "/", "%"};
  switch (rng_.below(8)) {
    case 0:
    case 1:
      return fmt::format("{} {} {}", expr(Cls::Int, d, agg), rng_.pick(kOps),
                         expr(maybe_wrong(Cls::Int), d, agg));
    case 2:
      return fmt::format("- {}", expr(Cls::Int, d, agg));  // "--1" would be a comment
    case 3:
      return fmt::format("ABS({})", expr(Cls::Int, d, agg));
    case 4:
      return fmt::format("MOD({}, {})", expr(Cls::Int, d, agg), expr(Cls::Int, d, agg));
    case 5:
      return fmt::format("EXTRACT({} FROM {})",
                         rng_.pick(std::vector<std::string>{"YEAR", "MONTH", "DAY"}),
                         expr(maybe_wrong(Cls::Date), d, agg));
    case 6:
      return fmt::format("{} - {}", expr(Cls::Date, d, agg), expr(Cls::Date, d, agg));
    default:
      return cast_to(Cls::Int, d, agg);
  }
}

std::string ExprGenerator::dec_expr(int d, bool agg) {
  static const std::vector<std::string> kOps = {"+", "-", "*", "/", "%"};
  switch (rng_.below(6)) {
    case 0:
    case 1:
      return fmt::format("{} {} {}", expr(Cls::Dec, d, agg), rng_.pick(kOps), numeric(d, agg));
    case 2:
      return fmt::format(
          "ROUND({}, {})", expr(Cls::Dec, d, agg),
          rng_.chance(80) ? std::to_string(rng_.between(-3, 8)) : literal(rng_, Cls::Int));
    case 3:
      return fmt::format("ABS({})", expr(Cls::Dec, d, agg));
    case 4:
      return fmt::format("-{}", expr(Cls::Dec, d, agg));
    default:
      return cast_to(Cls::Dec, d, agg);
  }
}

std::string ExprGenerator::dbl_expr(int d, bool agg) {
  static const std::vector<std::string> kOps = {"+", "-", "*", "/"};
  switch (rng_.below(5)) {
    case 0:
    case 1:
      return fmt::format("{} {} {}", expr(Cls::Dbl, d, agg), rng_.pick(kOps), numeric(d, agg));
    case 2:
      return fmt::format("ROUND({})", expr(Cls::Dbl, d, agg));
    case 3:
      return fmt::format("{}::DOUBLE", expr(maybe_wrong(Cls::Dbl), d, agg));
    default:
      return cast_to(Cls::Dbl, d, agg);
  }
}

std::string ExprGenerator::str_expr(int d, bool agg) {
  switch (rng_.below(3)) {
    case 0:
      return fmt::format("{} || {}", expr(Cls::Str, d, agg), expr(maybe_wrong(Cls::Str), d, agg));
    default:
      return cast_to(Cls::Str, d, agg);
  }
}

std::string ExprGenerator::date_expr(int d, bool agg) {
  static const std::vector<std::string> kUnits = {"DAY",    "DAYS", "MONTH",
                                                  "MONTHS", "YEAR", "YEARS"};
  switch (rng_.below(4)) {
    case 0:
      return fmt::format(
          "{} {} INTERVAL '{}' {}", expr(Cls::Date, d, agg), rng_.chance(50) ? "+" : "-",
          rng_.chance(80) ? std::to_string(rng_.between(-40, 400))
                          : rng_.pick(std::vector<std::string>{"2147483647", "-2147483648", "", "x",
                                                               "1.5", "99999999999999999999"}),
          rng_.pick(kUnits));
    case 1:
      return fmt::format("{} + {}", expr(Cls::Date, d, agg), expr(Cls::Int, d, agg));
    case 2:
      return fmt::format("{} - {}", expr(Cls::Date, d, agg), expr(Cls::Int, d, agg));
    default:
      return cast_to(Cls::Date, d, agg);
  }
}

std::string ExprGenerator::bool_expr(int d, bool agg) {
  switch (rng_.below(10)) {
    case 0:
    case 1: {
      Cls cls = random_cls();
      return fmt::format("{} {} {}", expr(cls, d, agg), rng_.pick(kCompare),
                         expr(maybe_wrong(cls), d, agg));
    }
    case 2:
      return fmt::format("{} {} {}", expr(Cls::Bool, d, agg), rng_.chance(50) ? "AND" : "OR",
                         expr(Cls::Bool, d, agg));
    case 3:
      return fmt::format("NOT {}", expr(Cls::Bool, d, agg));
    case 4:
      return fmt::format("{} IS {}NULL", expr(random_cls(), d, agg), rng_.chance(50) ? "NOT " : "");
    case 5: {
      Cls cls = random_cls();
      return fmt::format("{} {}BETWEEN {} AND {}", expr(cls, d, agg), rng_.chance(30) ? "NOT " : "",
                         expr(cls, d, agg), expr(maybe_wrong(cls), d, agg));
    }
    case 6: {
      Cls cls = random_cls();
      std::string list = expr(cls, d, agg);
      for (int n = static_cast<int>(rng_.below(4)); n > 0; --n)
        list += ", " + expr(maybe_wrong(cls), d, agg);
      return fmt::format("{} {}IN ({})", expr(cls, d, agg), rng_.chance(30) ? "NOT " : "", list);
    }
    case 7:
      return fmt::format("{} {}LIKE {}", expr(maybe_wrong(Cls::Str), d, agg),
                         rng_.chance(30) ? "NOT " : "", literal(rng_, Cls::Str));
    default:
      return leaf(Cls::Bool, agg);
  }
}

std::string ExprGenerator::type_name(Cls cls) {
  switch (cls) {
    case Cls::Int:
      return rng_.pick(std::vector<std::string>{"SMALLINT", "INTEGER", "BIGINT", "INT", "INT8"});
    case Cls::Dec: {
      int precision = static_cast<int>(rng_.between(1, 38));
      if (rng_.chance(5))
        return rng_.pick(
            std::vector<std::string>{"DECIMAL(39,2)", "DECIMAL(0,0)", "DECIMAL(5,7)", "NUMERIC"});
      return fmt::format("DECIMAL({},{})", precision, rng_.between(0, precision));
    }
    case Cls::Dbl:
      return rng_.pick(std::vector<std::string>{"DOUBLE", "REAL", "FLOAT"});
    case Cls::Str:
      return rng_.pick(std::vector<std::string>{"VARCHAR", "VARCHAR(3)", "CHAR(2)", "TEXT",
                                                "VARCHAR", "VARCHAR(40)", "CHARACTER VARYING(9)"});
    case Cls::Date:
      return "DATE";
    case Cls::Bool:
      return "BOOLEAN";
  }
  return "INTEGER";
}

// A class whose values CAST can turn into `cls` (numbers among themselves, strings to and
// from anything, dates to and from strings); now and then any class, for the errors.
Cls ExprGenerator::castable_to(Cls cls) {
  if (rng_.chance(5)) return random_cls();
  switch (cls) {
    case Cls::Int:
    case Cls::Dec:
    case Cls::Dbl:
      return rng_.pick(std::vector<Cls>{Cls::Int, Cls::Dec, Cls::Dbl, Cls::Str});
    case Cls::Str:
      return random_cls();
    case Cls::Date:
      return rng_.chance(70) ? Cls::Date : Cls::Str;
    case Cls::Bool:
      return rng_.chance(70) ? Cls::Bool : Cls::Str;
  }
  return cls;
}

std::string ExprGenerator::cast_to(Cls cls, int d, bool agg) {
  Cls from = castable_to(cls);
  std::string inner = expr(from, d, agg);
  if (rng_.chance(25)) return fmt::format("({})::{}", inner, type_name(cls));
  return fmt::format("CAST({} AS {})", inner, type_name(cls));
}

std::string ExprGenerator::common(Cls cls, int d, bool agg) {
  switch (rng_.below(5)) {
    case 0: {
      std::string text = "CASE";
      for (int n = static_cast<int>(rng_.between(1, 3)); n > 0; --n)
        text += fmt::format(" WHEN {} THEN {}", expr(Cls::Bool, d, agg), expr(cls, d, agg));
      if (rng_.chance(70)) text += " ELSE " + expr(maybe_wrong(cls), d, agg);
      return text + " END";
    }
    case 1: {
      Cls operand = random_cls();
      return fmt::format("CASE {} WHEN {} THEN {} ELSE {} END", expr(operand, d, agg),
                         expr(operand, d, agg), expr(cls, d, agg), expr(cls, d, agg));
    }
    case 2:
      return fmt::format("COALESCE({}, {})", expr(cls, d, agg), expr(maybe_wrong(cls), d, agg));
    case 3:
      return fmt::format("({})", expr(cls, d, agg));
    default:
      return cast_to(cls, d, agg);
  }
}

std::string ExprGenerator::aggregate(Cls cls, int depth) {
  // The argument is row-level: aggregates do not nest.
  auto arg = [&](Cls c) { return expr(c, std::max(depth, max_depth_ - 2), false); };
  const char* distinct = rng_.chance(20) ? "DISTINCT " : "";
  switch (cls) {
    case Cls::Int:
      if (rng_.chance(40)) return "COUNT(*)";
      if (rng_.chance(50)) return fmt::format("COUNT({}{})", distinct, arg(random_cls()));
      return fmt::format("{}({}{})", rng_.pick(std::vector<std::string>{"SUM", "MIN", "MAX"}),
                         distinct, arg(Cls::Int));
    case Cls::Dec:
      return fmt::format("{}({}{})",
                         rng_.pick(std::vector<std::string>{"SUM", "AVG", "MIN", "MAX"}), distinct,
                         arg(rng_.chance(70) ? Cls::Dec : Cls::Int));
    case Cls::Dbl:
      return fmt::format(
          "{}({}{})",
          rng_.pick(std::vector<std::string>{"SUM", "AVG", "MIN", "MAX", "STDDEV_SAMP", "STDDEV",
                                             "VAR_SAMP", "VARIANCE"}),
          distinct, arg(rng_.chance(50) ? Cls::Dbl : random_cls()));
    case Cls::Str:
    case Cls::Date:
      return fmt::format("{}({}{})", rng_.chance(50) ? "MIN" : "MAX", distinct, arg(cls));
    case Cls::Bool:
      return fmt::format("{}({}{})",
                         rng_.pick(std::vector<std::string>{"BOOL_AND", "BOOL_OR", "EVERY"}),
                         distinct, arg(maybe_wrong(Cls::Bool)));
  }
  return "COUNT(*)";
}

}  // namespace tally::fuzz
