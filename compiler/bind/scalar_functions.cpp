// The scalar function table, and the binding rules of its numeric and date functions
// (PostgreSQL's types: FLOOR/CEIL/TRUNC keep integers and give DECIMAL scale 0, SQRT/LN/EXP/
// POWER work on DOUBLE). The string functions bind in string_functions.cpp.
#include "compiler/bind/scalar_functions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "compiler/bind/expression_binder.h"
#include "compiler/common/decimal.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

constexpr size_t kAny = SIZE_MAX;

using R = ScalarRule;

const ScalarEntry kScalarFunctions[] = {
    {"floor", kFloor, R::Rounding, 1, 1},
    {"ceil", kCeil, R::Rounding, 1, 1},
    {"ceiling", kCeil, R::Rounding, 1, 1},
    {"trunc", kTrunc, R::Rounding, 1, 2},
    {"sqrt", kSqrt, R::Double, 1, 1},
    {"power", kPower, R::Double, 2, 2},
    {"pow", kPower, R::Double, 2, 2},
    {"ln", kLn, R::Double, 1, 1},
    {"log", kLog10, R::Double, 1, 2},
    {"log10", kLog10, R::Double, 1, 1},
    {"exp", kExp, R::Double, 1, 1},
    {"sign", kSign, R::Sign, 1, 1},
    {"greatest", kGreatest, R::Extremum, 1, kAny},
    {"least", kLeast, R::Extremum, 1, kAny},
    {"nullif", -1, R::NullIf, 2, 2},
    {"upper", kUpper, R::String, 1, 1},
    {"lower", kLower, R::String, 1, 1},
    {"length", kLength, R::String, 1, 1},
    {"char_length", kLength, R::String, 1, 1},
    {"character_length", kLength, R::String, 1, 1},
    {"substring", kSubstring, R::String, 2, 3},
    {"substr", kSubstring, R::String, 2, 3},
    {"concat", kConcat, R::Concat, 1, kAny},
    {"trim", kTrim, R::String, 1, 2},
    {"btrim", kTrim, R::String, 1, 2},
    {"ltrim", kLtrim, R::String, 1, 2},
    {"rtrim", kRtrim, R::String, 1, 2},
    {"replace", kReplace, R::String, 3, 3},
    {"starts_with", kStartsWith, R::String, 2, 2},
    {"left", kLeft, R::String, 2, 2},
    {"right", kRight, R::String, 2, 2},
    {"date_part", -1, R::DatePart, 2, 2},
    {"datepart", -1, R::DatePart, 2, 2},
    {"date_trunc", kDateTrunc, R::DateTrunc, 2, 2},
    {"datetrunc", kDateTrunc, R::DateTrunc, 2, 2},
    {"strftime", kStrftime, R::Strftime, 2, 2},
};

struct NamedNumber {
  const char* name;
  int value;
};

// PostgreSQL's spellings, singular and plural; DuckDB's DAYOFWEEK and friends.
const NamedNumber kExtractFields[] = {
    {"YEAR", kYear},
    {"YEARS", kYear},
    {"MONTH", kMonth},
    {"MONTHS", kMonth},
    {"DAY", kDay},
    {"DAYS", kDay},
    {"DAYOFMONTH", kDay},
    {"QUARTER", kQuarter},
    {"WEEK", kWeek},
    {"WEEKS", kWeek},
    {"DOW", kDow},
    {"DAYOFWEEK", kDow},
    {"ISODOW", kIsoDow},
    {"DOY", kDoy},
    {"DAYOFYEAR", kDoy},
    {"ISOYEAR", kIsoYear},
    {"DECADE", kDecade},
    {"DECADES", kDecade},
    {"CENTURY", kCentury},
    {"CENTURIES", kCentury},
    {"MILLENNIUM", kMillennium},
    {"MILLENNIA", kMillennium},
    {"EPOCH", kEpoch},
    {"HOUR", kHour},
    {"HOURS", kHour},
    {"MINUTE", kMinute},
    {"MINUTES", kMinute},
    {"SECOND", kSecond},
    {"SECONDS", kSecond},
    {"MILLISECOND", kMillisecond},
    {"MILLISECONDS", kMillisecond},
    {"MICROSECOND", kMicrosecond},
    {"MICROSECONDS", kMicrosecond},
};

const NamedNumber kDateUnits[] = {
    {"YEAR", kUnitYear},
    {"YEARS", kUnitYear},
    {"QUARTER", kUnitQuarter},
    {"MONTH", kUnitMonth},
    {"MONTHS", kUnitMonth},
    {"WEEK", kUnitWeek},
    {"WEEKS", kUnitWeek},
    {"DAY", kUnitDay},
    {"DAYS", kUnitDay},
    {"DECADE", kUnitDecade},
    {"CENTURY", kUnitCentury},
    {"MILLENNIUM", kUnitMillennium},
    {"HOUR", kUnitHour},
    {"HOURS", kUnitHour},
    {"MINUTE", kUnitMinute},
    {"MINUTES", kUnitMinute},
    {"SECOND", kUnitSecond},
    {"SECONDS", kUnitSecond},
    {"MILLISECOND", kUnitMillisecond},
    {"MILLISECONDS", kUnitMillisecond},
};

template <size_t N>
std::optional<int> find_named(const NamedNumber (&table)[N], std::string_view name) {
  for (const auto& entry : table) {
    if (name == entry.name) return entry.value;
  }
  return std::nullopt;
}

void refuse_hugeint(const ast::Expr& call, const Expr& arg) {
  if (!arg.type.is_hugeint()) return;
  throw Error(ErrorKind::Unsupported,
              fmt::format("function \"{}\" of a HUGEINT is not supported (cast it to DOUBLE)",
                          lower_ascii(call.name)),
              call.location);
}

}  // namespace

const ScalarEntry* find_scalar_function(std::string_view lower_name) {
  for (const auto& entry : kScalarFunctions) {
    if (lower_name == entry.name) return &entry;
  }
  return nullptr;
}

std::vector<std::string> scalar_function_names() {
  std::vector<std::string> names;
  for (const auto& entry : kScalarFunctions) names.emplace_back(entry.name);
  return names;
}

std::optional<int> extract_field_of(std::string_view upper_name) {
  return find_named(kExtractFields, upper_name);
}

void expect_arguments(const ast::Expr& call, size_t min, size_t max) {
  size_t n = call.children.size();
  if (n >= min && n <= max) return;
  std::string expected = min == max ? std::to_string(min) : fmt::format("{} to {}", min, max);
  if (max == SIZE_MAX) expected = fmt::format("at least {}", min);
  throw Error(ErrorKind::Binder,
              fmt::format("function \"{}\" expects {} argument{}, got {}", lower_ascii(call.name),
                          expected, max == 1 ? "" : "s", n),
              call.location);
}

ExprPtr ExpressionBinder::bind_scalar_function(const ast::Expr& e, const ScalarEntry& f) {
  expect_arguments(e, f.min_args, f.max_args);
  switch (f.rule) {
    case R::Rounding:
      return bind_rounding(e, f.fn);
    case R::Double:
      return bind_double_function(e, f.fn);
    case R::Sign: {
      ExprPtr x = numeric_argument(e, *e.children[0]);
      refuse_hugeint(e, *x);
      if (x->type.is_float()) x = convert(x, Type::double_(), ctx_);
      const Type type = x->type.is_decimal() ? Type::decimal(1, 0) : x->type;
      return new_node(ExprKind::Function, type, e, {x}, kSign);
    }
    case R::Extremum: {
      std::vector<Operand> ops;
      for (const auto& child : e.children) ops.push_back(bind_operand(*child));
      Type type = unify(ops, f.fn == kGreatest ? "GREATEST" : "LEAST");
      if (type.id == TypeId::Null) type = Type::varchar();  // all NULL, as COALESCE
      std::vector<ExprPtr> children;
      for (auto& op : ops) children.push_back(settle_untyped(op.expr, type, ctx_));
      return new_node(ExprKind::Function, type, e, std::move(children), f.fn);
    }
    case R::NullIf:
      return bind_nullif(e);
    case R::DatePart:
    case R::DateTrunc:
    case R::Strftime:
      return bind_date_function(e, f);
    default:
      return bind_string_function(e, f);
  }
}

// The integer constant of ROUND(x, n) and TRUNC(x, n).
int ExpressionBinder::constant_digits(const ast::Expr& call, const ast::Expr& arg) {
  ExprPtr n = fold_constants(adapt_untyped(bind(arg), Type::integer(), ctx_));
  const std::string& name = call.name;  // upper case: ROUND, TRUNC
  if (n->kind != ExprKind::Constant) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("{} with a non-constant number of digits is not supported", name),
                arg.location);
  }
  if (!n->type.is_integer() || n->value.null) {
    throw Error(ErrorKind::Type,
                fmt::format("the digits of {} must be an integer, not {}", name,
                            n->value.null ? "NULL" : n->type.to_string()),
                arg.location);
  }
  if (n->value.i > kMaxDecimalPrecision || n->value.i < -kMaxDecimalPrecision) {
    throw Error(ErrorKind::Type,
                fmt::format("{} to {} digits is out of range (-38 to 38)", name, n->value.i),
                arg.location);
  }
  return static_cast<int>(n->value.i);
}

ExprPtr ExpressionBinder::bind_rounding(const ast::Expr& e, int fn) {
  ExprPtr x = numeric_argument(e, *e.children[0]);
  const int digits = e.children.size() == 2 ? constant_digits(e, *e.children[1]) : 0;
  if (x->type.is_hugeint() && digits >= 0) return x;  // an integer is its own floor
  refuse_hugeint(e, *x);
  Type type = x->type;
  if (type.is_decimal()) {
    // FLOOR/CEIL may carry into one more integer digit (-9.5 -> -10); TRUNC never does.
    const int scale = std::max(digits, 0);
    const int carry = fn == kTrunc ? 0 : 1;
    type = Type::decimal(
        std::clamp(type.precision - type.scale + scale + carry, 1, kMaxDecimalPrecision), scale);
  } else if (type.is_float()) {
    type = Type::double_();
    x = convert(x, type, ctx_);
  }
  auto node = new_node(ExprKind::Function, type, e, {x}, fn);
  node->digits = digits;
  return node;
}

ExprPtr ExpressionBinder::bind_double_function(const ast::Expr& e, int fn) {
  std::vector<ExprPtr> args;
  for (const auto& child : e.children) {
    args.push_back(convert(numeric_argument(e, *child), Type::double_(), ctx_));
  }
  if (fn == kLog10 && args.size() == 2) fn = kLogBase;  // log(b, x)
  return new_node(ExprKind::Function, Type::double_(), e, std::move(args), fn);
}

// NULLIF(a, b) is CASE WHEN a = b THEN NULL ELSE a END (as PostgreSQL and DuckDB define it),
// so every engine runs it with no code of its own.
ExprPtr ExpressionBinder::bind_nullif(const ast::Expr& e) {
  std::vector<Operand> ops{bind_operand(*e.children[0]), bind_operand(*e.children[1])};
  resolve_unknowns(ops, ctx_);
  Type type = is_untyped(*ops[0].expr) ? ops[1].expr->type : ops[0].expr->type;
  if (type.id == TypeId::Null) type = Type::varchar();
  ops[0].expr = convert(ops[0].expr, type, ctx_);
  ExprPtr value = ops[0].expr;
  ExprPtr equal = compare_operands(e, kEq, ops[0], ops[1]);
  return new_node(ExprKind::Case, type, e, {equal, make_null_constant(type), value});
}

// The constant text argument naming a field or unit ('month').
std::string ExpressionBinder::constant_name(const ast::Expr& call, const ast::Expr& arg) {
  ExprPtr x = fold_constants(adapt_untyped(bind(arg), Type::varchar(), ctx_));
  if (x->kind != ExprKind::Constant || !x->type.is_string() || x->value.null) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("{} with a part that is not a constant string is not supported",
                            lower_ascii(call.name)),
                arg.location);
  }
  return upper_ascii(x->str);
}

ExprPtr ExpressionBinder::date_argument(const ast::Expr& call, const ast::Expr& arg,
                                        bool time_too) {
  Operand date = bind_operand(arg);
  // A bare string is a TIMESTAMP when it has a time of day ('2024-01-01 10:00').
  const bool has_time = date.unknown_literal && arg.text.find(':') != std::string::npos;
  const Type anchor = has_time ? Type::timestamp() : Type::date();
  resolve_unknown(date, anchor, ctx_);
  ExprPtr x = settle_untyped(date.expr, anchor, ctx_);
  const bool time_like = x->type.id == TypeId::Time || x->type.is_interval();
  if (!x->type.is_datetime() && !(time_too && time_like)) {
    const std::string what = call.name == "EXTRACT"
                                 ? std::string("EXTRACT")
                                 : fmt::format("function \"{}\"", lower_ascii(call.name));
    throw Error(ErrorKind::Type,
                fmt::format("{} needs a {}, not {}", what,
                            time_too ? "DATE, TIMESTAMP, TIME or INTERVAL" : "DATE or TIMESTAMP",
                            x->type.to_string()),
                arg.location);
  }
  return x;
}

void fail_time_part_of_date(const std::string& part, const ast::Expr& site, const Expr& arg,
                            bool time_part) {
  if (!time_part || arg.type.id != TypeId::Date) return;
  throw Error(ErrorKind::Type,
              fmt::format("unit \"{}\" is not supported for type DATE (cast it to TIMESTAMP)",
                          lower_ascii(part)),
              site.location);
}

void fail_date_part_of_time(const std::string& part, const ast::Expr& site, const Expr& arg,
                            int field) {
  // An interval has years, months and days, but no weekday or week (PostgreSQL).
  const bool calendar_field =
      field == kWeek || field == kDow || field == kIsoDow || field == kDoy || field == kIsoYear;
  const bool refused =
      arg.type.is_interval() ? calendar_field : arg.type.id == TypeId::Time && field < kEpoch;
  if (!refused) return;
  throw Error(ErrorKind::Type,
              fmt::format("unit \"{}\" is not supported for type {}", lower_ascii(part),
                          arg.type.to_string()),
              site.location);
}

ExprPtr ExpressionBinder::bind_date_function(const ast::Expr& e, const ScalarEntry& f) {
  if (f.rule == R::Strftime) {
    ExprPtr date = date_argument(e, *e.children[0]);
    return new_node(ExprKind::Function, Type::varchar(), e,
                    {date, string_argument(e, *e.children[1])}, kStrftime);
  }
  const std::string part = constant_name(e, *e.children[0]);
  ExprPtr date = date_argument(e, *e.children[1], f.rule == R::DatePart);
  if (f.rule == R::DatePart) {
    auto field = extract_field_of(part);
    if (!field) {
      throw Error(ErrorKind::Binder,
                  fmt::format("date_part field \"{}\" is not recognized", lower_ascii(part)),
                  e.children[0]->location);
    }
    fail_time_part_of_date(part, *e.children[0], *date, *field >= kHour);
    fail_date_part_of_time(part, *e.children[0], *date, *field);
    return new_node(ExprKind::Extract, Type::bigint(), e, {date}, *field);
  }
  auto unit = find_named(kDateUnits, part);
  if (!unit) {
    throw Error(ErrorKind::Binder,
                fmt::format("date_trunc unit \"{}\" is not recognized (year, quarter, month, week, "
                            "day, decade, century, millennium, hour, minute, second, millisecond)",
                            lower_ascii(part)),
                e.children[0]->location);
  }
  fail_time_part_of_date(part, *e.children[0], *date, *unit >= kUnitHour);
  auto node = new_node(ExprKind::Function, date->type, e, {date}, kDateTrunc);
  node->digits = *unit;
  return node;
}

}  // namespace tally
