#include "bench/groupby_workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>

#include "runtime/load/parallel.h"
#include "tools/data/paper_tables.h"
#include "tools/data/zipf.h"

namespace tally::bench {

namespace {

// Runs fn(begin, end) over [0, rows) in chunks on every core.
void parallel_rows(size_t rows, const std::function<void(size_t, size_t)>& fn) {
  const size_t chunks = std::clamp<size_t>(rows / 65536, 1, worker_threads() * 4);
  run_parallel(chunks, [&](size_t c) { fn(rows * c / chunks, rows * (c + 1) / chunks); });
}

// generate_atable's col1 over [0, range).
std::vector<int32_t> draw_col1(size_t rows, uint64_t range, double exponent, uint64_t seed) {
  std::optional<ZipfSampler> zipf;
  if (exponent > 0) zipf.emplace(range, exponent);
  std::vector<int32_t> keys(rows);
  parallel_rows(rows, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      keys[row] = static_cast<int32_t>(atable_col1(seed, row, range, zipf ? &*zipf : nullptr));
    }
  });
  return keys;
}

// A column of `type` built from `values` with tally's own encoding choice (bit-packed).
ColumnPtr build_column(Type type, size_t rows,
                       const std::function<void(ColumnBuilder&, size_t, size_t)>& fill) {
  TableSchema schema{"part", {{"v", type, true}}};
  return build_table_parallel(schema, rows,
                              [&](std::vector<ColumnBuilder>& columns, size_t begin, size_t end) {
                                fill(columns[0], begin, end);
                              })
      ->columns[0];
}

ColumnPtr int_column(Type type, const std::vector<int32_t>& values) {
  return build_column(type, values.size(), [&](ColumnBuilder& column, size_t begin, size_t end) {
    column.reserve(end - begin);
    for (size_t row = begin; row < end; ++row) column.append_int(values[row]);
  });
}

// "k" and i in `width` decimal digits, for i in [0, k).
std::vector<std::string> string_pool(uint64_t k) {
  const int width = static_cast<int>(fmt::format("{}", k > 1 ? k - 1 : 0).size());
  std::vector<std::string> pool(k);
  parallel_rows(k, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) pool[i] = fmt::format("k{:0{}}", i, width);
  });
  return pool;
}

std::vector<int32_t> reduced(const std::vector<int32_t>& base, uint64_t k) {
  std::vector<int32_t> keys(base.size());
  const auto m = static_cast<int32_t>(k);
  parallel_rows(base.size(), [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) keys[row] = base[row] % m;
  });
  return keys;
}

// Digit `key / unit % radix` of each key: kind two's key columns.
std::vector<int32_t> digits(const std::vector<int32_t>& keys, uint64_t radix, uint64_t unit) {
  std::vector<int32_t> out(keys.size());
  const auto r = static_cast<int32_t>(radix), u = static_cast<int32_t>(unit);
  parallel_rows(keys.size(), [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) out[row] = keys[row] / u % r;
  });
  return out;
}

class Stopwatch {
 public:
  explicit Stopwatch(double& total) : total_(total) {}
  ~Stopwatch() {
    total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  Stopwatch(const Stopwatch&) = delete;
  Stopwatch& operator=(const Stopwatch&) = delete;

 private:
  double& total_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

const char* key_kind_name(KeyKind kind) {
  switch (kind) {
    case KeyKind::Column:
      return "column";
    case KeyKind::Mod:
      return "mod";
    case KeyKind::Two:
      return "two";
    case KeyKind::String:
      return "string";
  }
  return "?";
}

KeyKind key_kind_from_name(const std::string& name) {
  for (KeyKind k : {KeyKind::Column, KeyKind::Mod, KeyKind::Two, KeyKind::String}) {
    if (name == key_kind_name(k)) return k;
  }
  throw std::invalid_argument("unknown key kind \"" + name + "\" (column, mod, two, string)");
}

KeyDist key_dist_from_name(const std::string& name) {
  if (name == "uniform") return {name, 0};
  if (name.rfind("zipf", 0) == 0) {
    size_t used = 0;
    double exponent = 0;
    try {
      exponent = std::stod(name.substr(4), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used > 0 && used == name.size() - 4 && exponent > 0) return {name, exponent};
  }
  throw std::invalid_argument("unknown distribution \"" + name +
                              "\" (uniform, or zipf with an exponent > 0: zipf1.0)");
}

uint64_t two_key_split(uint64_t k) {
  uint64_t best = 1;
  for (uint64_t d = 1; d * d <= k; ++d) {
    if (k % d == 0) best = d;
  }
  return best;
}

Workload::Workload(size_t rows, uint64_t k_max, uint64_t seed) : seed_(seed) {
  base_range_ = uint64_t{1} << 24;
  while (base_range_ < k_max) base_range_ *= 2;
  if (base_range_ > (uint64_t{1} << 31)) throw std::invalid_argument("K above 2^31");
  Stopwatch watch(generation_s_);
  values_.resize(rows);
  parallel_rows(rows, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      values_[row] = static_cast<int32_t>(atable_col2(seed_, row));
    }
  });
  col2_ = int_column(Type::integer(), values_);
}

const Workload::Base& Workload::base(const KeyDist& dist) {
  auto it = bases_.find(dist.name);
  if (it != bases_.end()) return it->second;
  Base b;
  b.keys = draw_col1(rows(), base_range_, dist.exponent, seed_);
  b.column = int_column(Type::bigint(), b.keys);
  return bases_.emplace(dist.name, std::move(b)).first->second;
}

void Workload::keep_only(const KeyDist& dist) {
  std::erase_if(bases_, [&](const auto& entry) { return entry.first != dist.name; });
}

Point Workload::point(KeyKind kind, const KeyDist& dist, uint64_t k) {
  Stopwatch watch(generation_s_);
  Point p;
  p.k = k;
  auto table = std::make_shared<Table>();
  table->schema.name = "atable";
  auto add = [&](const std::string& name, Type type, ColumnPtr column) {
    table->schema.columns.push_back({name, type, true});
    table->columns.push_back(std::move(column));
  };
  const std::string aggregates = "COUNT(*) AS n, SUM(col2) AS s FROM atable GROUP BY";
  switch (kind) {
    case KeyKind::Column:
      p.keys = draw_col1(rows(), k, dist.exponent, seed_);
      add("col1", Type::bigint(), int_column(Type::bigint(), p.keys));
      p.sql = fmt::format("SELECT col1 AS g, {} 1", aggregates);
      break;
    case KeyKind::Mod:
      add("col1", Type::bigint(), base(dist).column);
      p.keys = reduced(base(dist).keys, k);
      p.sql = fmt::format("SELECT MOD(col1, {}) AS g, {} 1", k, aggregates);
      break;
    case KeyKind::Two: {
      p.keys = reduced(base(dist).keys, k);
      p.k1 = two_key_split(k);
      add("ka", Type::integer(), int_column(Type::integer(), digits(p.keys, p.k1, 1)));
      add("kb", Type::integer(), int_column(Type::integer(), digits(p.keys, k / p.k1, p.k1)));
      p.sql = fmt::format("SELECT ka AS g1, kb AS g2, {} 1, 2", aggregates);
      break;
    }
    case KeyKind::String: {
      p.keys = reduced(base(dist).keys, k);
      const std::vector<std::string> pool = string_pool(k);
      const Type type = Type::varchar(static_cast<uint32_t>(pool.empty() ? 1 : pool[0].size()));
      add("skey", type,
          build_column(type, rows(), [&](ColumnBuilder& column, size_t begin, size_t end) {
            std::vector<uint32_t> index(p.keys.begin() + begin, p.keys.begin() + end);
            column.append_pooled_strings(pool, index);
          }));
      p.sql = fmt::format("SELECT skey AS g, {} 1", aggregates);
      break;
    }
  }
  add("col2", Type::integer(), col2_);
  p.table = std::move(table);
  return p;
}

}  // namespace tally::bench
