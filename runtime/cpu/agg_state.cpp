#include "runtime/cpu/agg_state.h"

#include <bit>
#include <cmath>

#include "compiler/common/decimal.h"
#include "compiler/common/error.h"
#include "compiler/eval/evaluator.h"
#include "templates/tally_finals.cuh"

namespace tally {

namespace {

[[noreturn]] void overflow(const char* what) {
  throw Error(ErrorKind::Execution, std::string(what) + " out of range");
}

int128 add_exact(int128 a, int128 b, const char* what) {
  auto r = checked_add(a, b);
  if (!r) overflow(what);
  return *r;
}

// Distinct values are kept as 128-bit keys: integers and ids widened, DECIMAL as is,
// floating point by bit pattern (with -0.0 folded into 0.0 and one NaN).
int128 distinct_key(const Value& v, const Type& t) {
  if (t.is_decimal()) return v.d;
  if (t.is_float()) {
    double f = v.f == 0.0 ? 0.0 : (std::isnan(v.f) ? std::nan("") : v.f);
    return static_cast<int128>(std::bit_cast<uint64_t>(f));
  }
  return v.i;
}

Value from_distinct_key(int128 k, const Type& t) {
  if (t.is_decimal()) return Value::from_decimal(k);
  if (t.is_float()) return Value::from_double(std::bit_cast<double>(static_cast<uint64_t>(k)));
  return Value::from_int(static_cast<int64_t>(k));
}

void merge_extreme(AggState& s, const AggSpec& spec, const Value& v, const StringHeap* strings) {
  if (s.extreme.null) {
    s.extreme = v;
    return;
  }
  int c = compare_values(v, s.extreme, spec.arg, strings);
  if (spec.kind == AggKind::Min ? c < 0 : c > 0) s.extreme = v;
}

void merge_value(AggState& s, const AggSpec& spec, const Value& v, const StringHeap* strings) {
  switch (spec.state) {
    case AggStateKind::Count:
      ++s.count;
      break;
    case AggStateKind::SumInt:
    case AggStateKind::AvgWide:
      ++s.count;
      s.sum = add_exact(s.sum, spec.arg.is_decimal() ? v.d : v.i, "sum");
      break;
    case AggStateKind::SumWide:
      ++s.count;
      s.sum = add_exact(s.sum, v.d, "sum");
      break;
    case AggStateKind::SumDouble:
    case AggStateKind::AvgDouble:
      ++s.count;
      s.fsum += v.f;
      break;
    case AggStateKind::MinMaxInt:
    case AggStateKind::MinMaxWide:
    case AggStateKind::MinMaxDouble:
      merge_extreme(s, spec, v, strings);
      break;
    case AggStateKind::VarianceWide: {
      int128 x = spec.arg.is_decimal() ? v.d : v.i;
      auto sq = checked_mul(x, x);
      if (!sq) overflow("variance");
      ++s.count;
      s.sum = add_exact(s.sum, x, "variance");
      s.sumsq = add_exact(s.sumsq, *sq, "variance");
      break;
    }
    case AggStateKind::VarianceDouble: {
      // Welford: fsum holds the running mean and fsumsq the sum of squared deviations
      // (M2), so a large mean next to a small spread loses nothing to cancellation.
      ++s.count;
      double delta = v.f - s.fsum;
      s.fsum += delta / static_cast<double>(s.count);
      s.fsumsq += delta * (v.f - s.fsum);
      break;
    }
    case AggStateKind::DistinctSet:
      break;  // handled by the caller
  }
}

// Chan et al.'s pairwise combination of two (count, mean, M2) states.
void combine_welford(AggState& into, const AggState& from) {
  if (from.count == 0) return;
  if (into.count == 0) {
    into.count = from.count;
    into.fsum = from.fsum;
    into.fsumsq = from.fsumsq;
    return;
  }
  double na = static_cast<double>(into.count), nb = static_cast<double>(from.count);
  double delta = from.fsum - into.fsum;
  into.count += from.count;
  into.fsum += delta * nb / (na + nb);
  into.fsumsq += from.fsumsq + delta * delta * na * nb / (na + nb);
}

AggSpec undistinct(const AggSpec& spec) {
  AggSpec plain = spec;
  plain.distinct = false;
  plain.state = aggregate_state_kind(spec.kind, false, spec.arg);
  return plain;
}

}  // namespace

std::vector<AggSpec> make_agg_specs(const BoundSelect& query) {
  std::vector<AggSpec> specs;
  for (const auto& a : query.aggregates) {
    Type arg = a.arg ? a.arg->type : Type::bigint();
    specs.push_back(
        {a.kind, a.distinct, aggregate_state_kind(a.kind, a.distinct, arg), arg, a.type});
  }
  return specs;
}

void agg_merge(AggState& s, const AggSpec& spec, const Value& v, const StringHeap* strings) {
  if (spec.kind == AggKind::CountStar) {
    ++s.count;
    return;
  }
  if (v.null) return;  // aggregates skip NULLs
  if (spec.distinct) {
    if (!s.distinct) s.distinct = std::make_unique<std::unordered_set<int128, Int128Hash>>();
    s.distinct->insert(distinct_key(v, spec.arg));
    return;
  }
  merge_value(s, spec, v, strings);
}

void agg_combine(AggState& into, AggState& from, const AggSpec& spec, const StringHeap* strings) {
  if (spec.distinct) {
    if (!from.distinct) return;
    if (!into.distinct) {
      into.distinct = std::move(from.distinct);
    } else {
      into.distinct->insert(from.distinct->begin(), from.distinct->end());
    }
    return;
  }
  if (spec.state == AggStateKind::VarianceDouble) {
    combine_welford(into, from);
    return;
  }
  into.count += from.count;
  into.sum = add_exact(into.sum, from.sum, "sum");
  into.sumsq = add_exact(into.sumsq, from.sumsq, "variance");
  into.fsum += from.fsum;
  into.fsumsq += from.fsumsq;
  if (!from.extreme.null) merge_extreme(into, spec, from.extreme, strings);
}

Value agg_final(const AggState& s, const AggSpec& spec, const StringHeap* strings) {
  if (spec.distinct) {
    AggSpec plain = undistinct(spec);
    AggState folded;
    if (s.distinct) {
      for (int128 k : *s.distinct)
        merge_value(folded, plain, from_distinct_key(k, spec.arg), strings);
    }
    return agg_final(folded, plain, strings);
  }
  switch (spec.state) {
    case AggStateKind::Count:
      return Value::from_int(s.count);
    case AggStateKind::SumInt:
      if (s.count == 0) return Value();
      if (s.sum < INT64_MIN || s.sum > INT64_MAX) overflow("bigint");
      return Value::from_int(static_cast<int64_t>(s.sum));
    case AggStateKind::SumWide:
      if (s.count == 0) return Value();
      if (!fits_precision(s.sum, kMaxDecimalPrecision)) overflow("sum");
      return Value::from_decimal(s.sum);
    case AggStateKind::SumDouble:
      return s.count ? Value::from_double(s.fsum) : Value();
    case AggStateKind::MinMaxInt:
    case AggStateKind::MinMaxWide:
    case AggStateKind::MinMaxDouble:
      return s.extreme;
    case AggStateKind::AvgWide: {
      if (s.count == 0) return Value();
      int128 out;
      int in_scale = spec.arg.is_decimal() ? spec.arg.scale : 0;
      if (!tally_finals::average_exact(s.sum, s.count, in_scale, spec.result.scale, &out))
        overflow("avg");
      return Value::from_decimal(out);
    }
    case AggStateKind::AvgDouble:
      return s.count ? Value::from_double(s.fsum / static_cast<double>(s.count)) : Value();
    case AggStateKind::VarianceWide:
    case AggStateKind::VarianceDouble: {
      if (s.count < 2) return Value();
      double var = spec.state == AggStateKind::VarianceWide
                       ? tally_finals::variance_exact(s.count, s.sum, s.sumsq,
                                                      spec.arg.is_decimal() ? spec.arg.scale : 0)
                       : tally_finals::variance_from_m2(s.count, s.fsumsq);
      return Value::from_double(spec.kind == AggKind::StddevSamp ? std::sqrt(var) : var);
    }
    case AggStateKind::DistinctSet:
      break;
  }
  return Value();
}

}  // namespace tally
