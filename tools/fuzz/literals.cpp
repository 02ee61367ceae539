#include "tools/fuzz/literals.h"

#include <fmt/format.h>

#include <vector>

namespace tally::fuzz {

namespace {

const std::vector<std::string>& edges(Cls cls) {
  static const std::vector<std::string> kInt = {"0",
                                                "-1",
                                                "1",
                                                "2147483647",
                                                "-2147483648",
                                                "2147483648",
                                                "9223372036854775807",
                                                "-9223372036854775808",
                                                "9223372036854775808",
                                                "32767",
                                                "-32768",
                                                "99999999999999999999999999999999999999",
                                                "000000000000000000000000000000000000000001",
                                                "4294967296"};
  static const std::vector<std::string> kDec = {"0.0",
                                                "-0.0",
                                                "0.000000000000000000000000000000000000001",
                                                "1.5",
                                                "-1.5",
                                                "0.5",
                                                "99999999999999999999999999999999999999.0",
                                                "1234567890123456789.123456789",
                                                "9999999999999999999999999999999999999.9",
                                                ".5",
                                                "5.",
                                                "0.05",
                                                "-0.005",
                                                "123456789012345678901234567890123456789.5"};
  static const std::vector<std::string> kDbl = {"1e308",
                                                "-1e308",
                                                "1e309",
                                                "1e-308",
                                                "4.9e-324",
                                                "0e0",
                                                "-0e0",
                                                "1.7976931348623157e308",
                                                "2.5e0",
                                                "1e-5",
                                                "3.4e38",
                                                "1e-400",
                                                "9.999999999999999e22"};
  static const std::vector<std::string> kStr = {"''",
                                                "'a'",
                                                "'%'",
                                                "'_'",
                                                "'%%'",
                                                "'a%b_c'",
                                                "'é'",
                                                "'日本'",
                                                "'\xF0\x9F\x98\x80'",
                                                "''''",
                                                "' '",
                                                "'\\'",
                                                std::string("'") + std::string(300, 'x') + "'",
                                                std::string("'") + std::string(70, '%') + "'",
                                                "'1'",
                                                "'2024-02-30'",
                                                "'NaN'"};
  static const std::vector<std::string> kDate = {
      "DATE '0001-01-01'", "DATE '9999-12-31'",  "DATE '0000-01-01'", "DATE '1970-01-01'",
      "DATE '2000-02-29'", "DATE '1900-02-29'",  "DATE '2024-13-01'", "DATE ''",
      "DATE '1969-12-31'", "DATE '10000-01-01'", "DATE '-0001-01-01'"};
  static const std::vector<std::string> kBool = {"TRUE", "FALSE", "NULL", "(1 = 1)",
                                                 "(NULL IS NULL)"};
  switch (cls) {
    case Cls::Int:
      return kInt;
    case Cls::Dec:
      return kDec;
    case Cls::Dbl:
      return kDbl;
    case Cls::Str:
      return kStr;
    case Cls::Date:
      return kDate;
    case Cls::Bool:
      return kBool;
  }
  return kInt;
}

std::string ordinary(Rng& rng, Cls cls) {
  switch (cls) {
    case Cls::Int:
      return std::to_string(rng.between(-20, 100));
    case Cls::Dec:
      return fmt::format("{}.{:02}", rng.between(-50, 500), rng.below(100));
    case Cls::Dbl:
      return fmt::format("{}.5e{}", rng.between(-9, 9), rng.between(-2, 3));
    case Cls::Str:
      return fmt::format("'{}'", rng.pick(std::vector<std::string>{"a", "b", "c", "%a%", "b%", "_",
                                                                   "x%", "AIR", "R", "O"}));
    case Cls::Date:
      return fmt::format("DATE '{:04}-{:02}-{:02}'", rng.between(1990, 2030), rng.between(1, 12),
                         rng.between(1, 28));
    case Cls::Bool:
      return rng.chance(50) ? "TRUE" : "FALSE";
  }
  return "0";
}

}  // namespace

std::string literal(Rng& rng, Cls cls) {
  if (rng.chance(6)) return "NULL";
  if (rng.chance(15)) return rng.pick(edges(cls));
  return ordinary(rng, cls);
}

std::string edge_literal(Rng& rng) {
  static const std::vector<Cls> kAll = {Cls::Int, Cls::Dec,  Cls::Dbl,
                                        Cls::Str, Cls::Date, Cls::Bool};
  if (rng.chance(8)) return "NULL";
  return rng.pick(edges(rng.pick(kAll)));
}

}  // namespace tally::fuzz
