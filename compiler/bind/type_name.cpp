// Type names of CAST and CREATE TABLE -> Type.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "compiler/bind/binder.h"
#include "compiler/common/decimal.h"

namespace tally {

namespace {

// DuckDB's default for a bare DECIMAL.
constexpr int kDefaultDecimalPrecision = 18;
constexpr int kDefaultDecimalScale = 3;

[[noreturn]] void fail(const ast::TypeName& name, const std::string& message) {
  throw Error(ErrorKind::Type, message, name.location);
}

Type decimal_type(const ast::TypeName& name) {
  const auto& p = name.params;
  if (p.size() > 2) fail(name, "DECIMAL takes at most two parameters (precision, scale)");
  if (p.empty()) return Type::decimal(kDefaultDecimalPrecision, kDefaultDecimalScale);
  const int64_t precision = p[0], scale = p.size() == 2 ? p[1] : 0;
  if (precision < 1 || precision > kMaxDecimalPrecision) {
    fail(name, fmt::format("DECIMAL precision {} must be between 1 and {}", precision,
                           kMaxDecimalPrecision));
  }
  if (scale < 0 || scale > precision) {
    fail(name,
         fmt::format("DECIMAL scale {} must be between 0 and the precision {}", scale, precision));
  }
  return Type::decimal(static_cast<int>(precision), static_cast<int>(scale));
}

Type string_type(const ast::TypeName& name, bool fixed) {
  const auto& p = name.params;
  if (p.size() > 1) fail(name, fmt::format("{} takes at most one parameter (length)", name.name));
  if (p.empty()) return fixed ? Type::char_(1) : Type::varchar();
  if (p[0] < 1 || p[0] > INT32_MAX) {
    fail(name, fmt::format("length {} of {} must be between 1 and {}", p[0], name.name, INT32_MAX));
  }
  auto length = static_cast<uint32_t>(p[0]);
  return fixed ? Type::char_(length) : Type::varchar(length);
}

}  // namespace

Type resolve_type_name(const ast::TypeName& name) {
  static const std::pair<const char*, Type> kPlain[] = {
      {"SMALLINT", Type::smallint()},       {"INTEGER", Type::integer()},
      {"BIGINT", Type::bigint()},           {"REAL", Type::real()},
      {"DOUBLE", Type::double_()},          {"DATE", Type::date()},
      {"BOOLEAN", Type::boolean()},         {"TIMESTAMP", Type::timestamp()},
      {"TIMESTAMPTZ", Type::timestamptz()}, {"TIME", Type::time()},
      {"HUGEINT", Type::hugeint()},         {"INT128", Type::hugeint()},
      {"INTERVAL", Type::interval()}};
  for (const auto& [spelling, type] : kPlain) {
    if (name.name != spelling) continue;
    if (!name.params.empty()) fail(name, fmt::format("type {} takes no parameters", spelling));
    return type;
  }
  if (name.name == "DECIMAL") return decimal_type(name);
  if (name.name == "CHAR") return string_type(name, true);
  if (name.name == "VARCHAR") return string_type(name, false);
  // Types of PostgreSQL and DuckDB that scripts name; tally has none of them yet.
  static const char* const kKnownUnsupported[] = {"TIMETZ",    "UHUGEINT", "TINYINT",
                                                  "UTINYINT",  "USMALLINT", "UINTEGER",
                                                  "UBIGINT",   "BLOB",      "BYTEA",
                                                  "UUID",      "JSON"};
  for (const char* spelling : kKnownUnsupported) {
    if (name.name != spelling) continue;
    throw Error(ErrorKind::Unsupported, fmt::format("type {} is not supported", spelling),
                name.location);
  }
  std::string lower = name.name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  fail(name, fmt::format("type \"{}\" does not exist", lower));
}

}  // namespace tally
