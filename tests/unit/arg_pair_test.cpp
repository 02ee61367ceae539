// ARG_MIN / ARG_MAX's device state word (templates/tally_arg_pair.cuh), compiled on the host:
// the value survives the word bit for bit, and the word's min (max) keeps the row the CPU
// engine's state keeps (compiler/functions/arg_min_max.cpp), ties and signed zeros included.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "compiler/functions/aggregate_function.h"
#include "templates/tally_arg_pair.cuh"

namespace tally {
namespace {

namespace ap = tally_arg_pair;

// The device library's 64-bit integer (int64_t is a long here, which would make the images'
// overloads ambiguous).
using i64 = long long;

i64 bits_of(double d) { return std::bit_cast<i64>(d); }

// The value kept by the word's fold over (value, key) rows, as the device merges them.
template <typename V, typename K>
int128 fold_pairs(const std::vector<std::pair<V, K>>& rows, bool greatest) {
  const int128 top = ~(int128(1) << 127);
  int128 kept = greatest ? -top - 1 : top;
  for (const auto& [v, k] : rows) {
    const int128 p = ap::pair(ap::key_image(k), ap::value_image(v), greatest);
    kept = greatest ? std::max(kept, p) : std::min(kept, p);
  }
  return kept;
}

// The value the CPU engine's state keeps for the same rows.
Value cpu_kept(AggKind kind, const std::vector<std::pair<Value, Value>>& rows, const Type& arg,
               const Type& key) {
  AggContext ctx;
  ctx.arg = arg;
  ctx.result = arg;
  ctx.key = key;
  const StateInfo& s = aggregate_state(kind, arg);
  HostAggState state;
  for (const auto& [v, k] : rows) s.update_pair(state, v, k, ctx);
  return s.final(state, ctx);
}

}  // namespace

TEST_CASE("arg pair: values come back bit for bit - both directions") {
  for (bool greatest : {false, true}) {
    for (i64 v : {i64{0}, i64{-1}, i64{7}, std::numeric_limits<i64>::min(),
                  std::numeric_limits<i64>::max()}) {
      const int128 p = ap::pair(ap::key_image(i64{3}), ap::value_image(v), greatest);
      CHECK(ap::pair_value_bits(p, greatest, false) == v);
      CHECK(ap::pair_key(p) == 3);
    }
    for (double d : {0.0, -0.0, 1.5, -2.25, std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::denorm_min(), -1e308}) {
      const int128 p = ap::pair(ap::key_image(-1.0), ap::value_image(d), greatest);
      CHECK(ap::pair_value_bits(p, greatest, true) == bits_of(d));
    }
    const int128 nan = ap::pair(0, ap::value_image(std::nan("")), greatest);
    CHECK(std::isnan(std::bit_cast<double>(ap::pair_value_bits(nan, greatest, true))));
  }
}

TEST_CASE("arg pair: keys order as the CPU engine compares doubles") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(ap::key_image(-0.0) == ap::key_image(0.0));
  CHECK(ap::key_image(std::nan("")) == ap::key_image(-std::nan("")));
  CHECK(ap::key_image(inf) < ap::key_image(std::nan("")));
  CHECK(ap::key_image(-inf) < ap::key_image(-1e308));
  CHECK(ap::key_image(-2.0) < ap::key_image(-1.0));
  CHECK(ap::key_image(-1e-300) < ap::key_image(0.0));
  CHECK(ap::key_image(0.0) < ap::key_image(std::numeric_limits<double>::denorm_min()));
  // The decoded key compares equal to the row's: a part's state combines on the host.
  CHECK(std::bit_cast<double>(ap::double_bits_of_ordered(ap::key_image(-2.5))) == -2.5);
}

// Random rows of few keys (many ties) and few values: the word keeps the CPU's row.
TEST_CASE("arg pair: the word's fold keeps the CPU engine's row - ties included") {
  std::mt19937_64 random(42);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::pair<i64, double>> rows;
    std::vector<std::pair<Value, Value>> values;
    const int n = 1 + static_cast<int>(random() % 12);
    for (int r = 0; r < n; ++r) {
      const i64 v = static_cast<i64>(random() % 7) - 3;
      const double k = static_cast<double>(static_cast<int>(random() % 5) - 2) * 0.5;
      const double key = k == 0.0 && random() % 2 == 0 ? -0.0 : k;  // signed zeros tie
      rows.push_back({v, key});
      values.push_back({Value::from_int(v), Value::from_double(key)});
    }
    for (AggKind kind : {AggKind::ArgMin, AggKind::ArgMax}) {
      const bool greatest = kind == AggKind::ArgMax;
      const Value cpu = cpu_kept(kind, values, Type::bigint(), Type::double_());
      CHECK(ap::pair_value_bits(fold_pairs(rows, greatest), greatest, false) == cpu.i);
    }
  }
}

TEST_CASE("arg pair: -0.0 wins a tie with 0.0 as the value on both engines") {
  const std::vector<std::pair<double, i64>> rows = {{0.0, 1}, {-0.0, 1}, {5.0, 2}};
  const std::vector<std::pair<Value, Value>> values = {
      {Value::from_double(0.0), Value::from_int(1)},
      {Value::from_double(-0.0), Value::from_int(1)},
      {Value::from_double(5.0), Value::from_int(2)}};
  const Value cpu = cpu_kept(AggKind::ArgMin, values, Type::double_(), Type::integer());
  CHECK(std::signbit(cpu.f));
  CHECK(ap::pair_value_bits(fold_pairs(rows, false), false, true) == bits_of(-0.0));
  // The other order of arrival keeps it too.
  const std::vector<std::pair<Value, Value>> reversed = {values[1], values[0], values[2]};
  CHECK(std::signbit(cpu_kept(AggKind::ArgMin, reversed, Type::double_(), Type::integer()).f));
}

}  // namespace tally
