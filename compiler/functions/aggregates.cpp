#include "compiler/functions/aggregates.h"

#include <algorithm>
#include <array>

#include "compiler/common/decimal.h"

namespace tally {

namespace {

struct AggregateName {
  std::string_view name;
  AggKind kind;
};

// COUNT resolves to Count; the binder turns COUNT(*) into CountStar.
constexpr std::array<AggregateName, 9> kAggregateNames = {{
    {"COUNT", AggKind::Count},
    {"SUM", AggKind::Sum},
    {"MIN", AggKind::Min},
    {"MAX", AggKind::Max},
    {"AVG", AggKind::Avg},
    {"STDDEV_SAMP", AggKind::StddevSamp},
    {"STDDEV", AggKind::StddevSamp},
    {"VAR_SAMP", AggKind::VarSamp},
    {"VARIANCE", AggKind::VarSamp},
}};

AggregateTyping accepted(Type t) { return {t, nullptr}; }
AggregateTyping rejected(const char* why) { return {std::nullopt, why}; }

constexpr const char* kNeedsNumeric = "the argument must be numeric";

}  // namespace

std::optional<AggKind> aggregate_from_name(std::string_view upper_name) {
  for (const auto& entry : kAggregateNames) {
    if (entry.name == upper_name) return entry.kind;
  }
  return std::nullopt;
}

const char* aggregate_sql_name(AggKind kind) {
  switch (kind) {
    case AggKind::CountStar:
    case AggKind::Count:
      return "COUNT";
    case AggKind::Sum:
      return "SUM";
    case AggKind::Min:
      return "MIN";
    case AggKind::Max:
      return "MAX";
    case AggKind::Avg:
      return "AVG";
    case AggKind::VarSamp:
      return "VAR_SAMP";
    case AggKind::StddevSamp:
      return "STDDEV_SAMP";
  }
  return "?";
}

AggregateTyping aggregate_result_type(AggKind kind, const Type& arg) {
  switch (kind) {
    case AggKind::CountStar:
    case AggKind::Count:
      return accepted(Type::bigint());
    case AggKind::Sum:
      if (arg.is_integer()) return accepted(Type::bigint());
      if (arg.is_decimal()) return accepted(Type::decimal(kMaxDecimalPrecision, arg.scale));
      if (arg.is_float()) return accepted(Type::double_());
      return rejected(kNeedsNumeric);
    case AggKind::Min:
    case AggKind::Max:
      if (arg.id == TypeId::Null) return rejected("the argument type is unknown");
      return accepted(arg);
    case AggKind::Avg:
      if (arg.is_integer()) return accepted(Type::decimal(kMaxDecimalPrecision, 6));
      if (arg.is_decimal()) {
        return accepted(Type::decimal(kMaxDecimalPrecision, std::max<int>(arg.scale, 6)));
      }
      if (arg.is_float()) return accepted(Type::double_());
      return rejected(kNeedsNumeric);
    case AggKind::VarSamp:
    case AggKind::StddevSamp:
      if (arg.is_numeric()) return accepted(Type::double_());
      return rejected(kNeedsNumeric);
  }
  return rejected("unknown aggregate");
}

AggStateKind aggregate_state_kind(AggKind kind, bool distinct, const Type& arg) {
  const bool exact = arg.is_integer() || arg.is_decimal();
  switch (kind) {
    case AggKind::CountStar:
      return AggStateKind::Count;
    case AggKind::Count:
      return distinct ? AggStateKind::DistinctSet : AggStateKind::Count;
    case AggKind::Sum:
      if (distinct) return AggStateKind::DistinctSet;
      if (arg.is_integer()) return AggStateKind::SumInt;
      return arg.is_decimal() ? AggStateKind::SumWide : AggStateKind::SumDouble;
    case AggKind::Min:
    case AggKind::Max:
      if (arg.is_decimal()) return AggStateKind::MinMaxWide;
      return arg.is_float() ? AggStateKind::MinMaxDouble : AggStateKind::MinMaxInt;
    case AggKind::Avg:
      if (distinct) return AggStateKind::DistinctSet;
      return exact ? AggStateKind::AvgWide : AggStateKind::AvgDouble;
    case AggKind::VarSamp:
    case AggKind::StddevSamp:
      return exact ? AggStateKind::VarianceWide : AggStateKind::VarianceDouble;
  }
  return AggStateKind::Count;
}

}  // namespace tally
