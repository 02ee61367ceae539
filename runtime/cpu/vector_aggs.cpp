#include "runtime/cpu/vector_aggs.h"

#include <cmath>

#include "compiler/common/error.h"

namespace tally {

void AggColumn::update_pair(const Vec&, const Vec&, const Sel&, const uint32_t*) {
  throw Error(ErrorKind::Internal, "an aggregate of one argument merged with two");
}

namespace {

// COUNT(*) counts rows, COUNT(x) non-NULL values.
class CountColumn : public AggColumn {
 public:
  explicit CountColumn(bool star) : star_(star) {}
  void resize(size_t groups) override { count_.resize(groups, 0); }
  size_t bytes_per_group() const override { return 8; }
  void to_state(size_t g, AggState& out) override { out.plain.count = count_[g]; }
  void combine(size_t into, AggColumn& from, size_t g) override {
    count_[into] += static_cast<CountColumn&>(from).count_[g];
  }

  void update(const Vec* arg, const Sel& sel, const uint32_t* gids) override {
    const bool all = star_ || !arg->has_nulls;
    int64_t* c = count_.data();
    if (!gids) {
      int64_t n = 0;
      if (all) {
        n = static_cast<int64_t>(sel.n);
      } else {
        for_rows(sel, [&](uint32_t r) { n += !arg->null[r]; });
      }
      c[0] += n;
    } else if (all) {
      for_rows(sel, [&](uint32_t r) { ++c[gids[r]]; });
    } else {
      for_rows(sel, [&](uint32_t r) { c[gids[r]] += !arg->null[r]; });
    }
  }

 private:
  bool star_;
  std::vector<int64_t> count_;
};

// The argument of row r as the state's input type.
template <typename In>
inline In input(const Vec& v, uint32_t r) {
  if constexpr (std::is_same_v<In, double>) return v.f[r];
  if constexpr (std::is_same_v<In, int128>) return v.w[r];
  if constexpr (std::is_same_v<In, int64_t>) return v.i[r];
}

// SUM and AVG: a count and a sum, exact (int128, as update_exact_sum keeps it) or DOUBLE.
// 64-bit inputs cannot overflow a 128-bit sum over fewer than 2^63 rows; 128-bit inputs
// are added with the row path's check.
template <typename In>
class SumColumn : public AggColumn {
  using Acc = std::conditional_t<std::is_same_v<In, double>, double, int128>;

 public:
  void resize(size_t groups) override {
    count_.resize(groups, 0);
    sum_.resize(groups, 0);
  }
  size_t bytes_per_group() const override { return 8 + sizeof(Acc); }
  void to_state(size_t g, AggState& out) override {
    out.plain.count = count_[g];
    if constexpr (std::is_same_v<Acc, double>) {
      out.plain.fsum = sum_[g];
    } else {
      out.plain.sum = sum_[g];
    }
  }

  void combine(size_t into, AggColumn& from, size_t g) override {
    const auto& other = static_cast<SumColumn&>(from);
    count_[into] += other.count_[g];
    if constexpr (std::is_same_v<Acc, double>) {
      sum_[into] += other.sum_[g];
    } else if (__builtin_add_overflow(sum_[into], other.sum_[g], &sum_[into])) {
      throw Error(ErrorKind::Execution, "sum out of range");  // combine_sums' error
    }
  }

  void update(const Vec* arg, const Sel& sel, const uint32_t* gids) override {
    if (!arg->has_nulls) return merge<false>(*arg, sel, gids);
    merge<true>(*arg, sel, gids);
  }

 private:
  static void add(Acc& into, In v) {
    if constexpr (std::is_same_v<In, int128>) {
      if (__builtin_add_overflow(into, v, &into)) {
        throw Error(ErrorKind::Execution, "sum out of range");  // add_exact's error
      }
    } else {
      into += v;
    }
  }

  template <bool Nulls>
  void merge(const Vec& arg, const Sel& sel, const uint32_t* gids) {
    const uint8_t* null = arg.null.data();
    if (!gids) {
      int64_t n = 0;
      Acc s = sum_[0];
      for_rows(sel, [&](uint32_t r) {
        if (Nulls && null[r]) return;
        ++n;
        add(s, input<In>(arg, r));
      });
      count_[0] += n;
      sum_[0] = s;
      return;
    }
    int64_t* c = count_.data();
    Acc* s = sum_.data();
    for_rows(sel, [&](uint32_t r) {
      if (Nulls && null[r]) return;
      ++c[gids[r]];
      add(s[gids[r]], input<In>(arg, r));
    });
  }

  std::vector<int64_t> count_;
  std::vector<Acc> sum_;
};

inline int order(double a, double b) {
  // NaN above every number and equal to itself, as compare_values orders DOUBLEs.
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}
inline int order(int64_t a, int64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }
inline int order(int128 a, int128 b) { return a < b ? -1 : (a > b ? 1 : 0); }

// MIN (Sign -1) and MAX (+1): a count and the extreme, kept as the row path's keep<> does
// (the first value, then any strictly beyond it).
template <typename In, int Sign>
class ExtremeColumn : public AggColumn {
 public:
  explicit ExtremeColumn(const Type& type) : type_(type) {}
  void resize(size_t groups) override {
    count_.resize(groups, 0);
    value_.resize(groups, In{});
  }
  size_t bytes_per_group() const override { return 8 + sizeof(In); }

  void to_state(size_t g, AggState& out) override {
    out.plain.count = count_[g];
    if (count_[g] == 0) return;
    if constexpr (std::is_same_v<In, double>) {
      out.plain.extreme = Value::from_double(value_[g]);
    } else {
      out.plain.extreme = type_.is_exact128() ? Value::from_decimal(value_[g])
                                              : Value::from_int(static_cast<int64_t>(value_[g]));
    }
  }

  void combine(size_t into, AggColumn& from, size_t g) override {
    const auto& other = static_cast<ExtremeColumn&>(from);
    if (other.count_[g] == 0) return;
    const int o = order(other.value_[g], value_[into]);
    if (count_[into] == 0 || (Sign < 0 ? o < 0 : o > 0)) value_[into] = other.value_[g];
    count_[into] += other.count_[g];
  }

  void update(const Vec* arg, const Sel& sel, const uint32_t* gids) override {
    int64_t* c = count_.data();
    In* x = value_.data();
    const bool nulls = arg->has_nulls;
    for_rows(sel, [&](uint32_t r) {
      if (nulls && arg->null[r]) return;
      const uint32_t g = gids ? gids[r] : 0;
      const In v = input<In>(*arg, r);
      const int o = order(v, x[g]);
      if (c[g]++ == 0 || (Sign < 0 ? o < 0 : o > 0)) x[g] = v;
    });
  }

 private:
  Type type_;
  std::vector<int64_t> count_;
  std::vector<In> value_;
};

// Any aggregate, kept as the row path keeps it: agg_merge per row on the batch's values.
class RowStateColumn : public AggColumn {
 public:
  explicit RowStateColumn(const AggSpec& spec) : spec_(spec) {}
  void resize(size_t groups) override { states_.resize(groups); }
  size_t bytes_per_group() const override { return sizeof(AggState); }
  void to_state(size_t g, AggState& out) override { out = std::move(states_[g]); }
  void combine(size_t into, AggColumn& from, size_t g) override {
    agg_combine(states_[into], static_cast<RowStateColumn&>(from).states_[g], spec_);
  }

  void update(const Vec* arg, const Sel& sel, const uint32_t* gids) override {
    const Value one = Value::from_int(1);  // what COUNT(*) merges, as the row path does
    for_rows(sel, [&](uint32_t r) {
      AggState& state = states_[gids ? gids[r] : 0];
      agg_merge(state, spec_, arg ? arg->value(r, spec_.context.arg) : one);
    });
  }

  void update_pair(const Vec& arg, const Vec& key, const Sel& sel, const uint32_t* gids) override {
    for_rows(sel, [&](uint32_t r) {
      agg_merge(states_[gids ? gids[r] : 0], spec_, arg.value(r, spec_.context.arg),
                key.value(r, spec_.context.key));
    });
  }

 private:
  AggSpec spec_;
  std::vector<AggState> states_;
};

template <int Sign>
std::unique_ptr<AggColumn> extreme(const AggSpec& spec, Phys arg) {
  switch (arg) {
    case Phys::F64:
      return std::make_unique<ExtremeColumn<double, Sign>>(spec.context.arg);
    case Phys::I128:
      return std::make_unique<ExtremeColumn<int128, Sign>>(spec.context.arg);
    default:
      return std::make_unique<ExtremeColumn<int64_t, Sign>>(spec.context.arg);
  }
}

std::unique_ptr<AggColumn> sum(Phys arg) {
  switch (arg) {
    case Phys::F64:
      return std::make_unique<SumColumn<double>>();
    case Phys::I128:
      return std::make_unique<SumColumn<int128>>();
    default:
      return std::make_unique<SumColumn<int64_t>>();
  }
}

}  // namespace

std::unique_ptr<AggColumn> make_agg_column(const AggSpec& spec, Phys arg) {
  const bool strings = spec.context.arg.is_string();
  const AggKind k = spec.kind;
  // Typed loops for the common aggregates; the others keep the row path's states.
  // ANY_VALUE keeps MIN's state (compiler/functions/any_value.cpp), so MIN's loop.
  const bool extreme_kind = k == AggKind::Min || k == AggKind::Max || k == AggKind::AnyValue;
  const bool typed =
      !spec.distinct && (k == AggKind::CountStar || k == AggKind::Count || k == AggKind::Sum ||
                         k == AggKind::Avg || (extreme_kind && !strings));
  if (!typed) return std::make_unique<RowStateColumn>(spec);
  switch (spec.kind) {
    case AggKind::CountStar:
      return std::make_unique<CountColumn>(true);
    case AggKind::Count:
      return std::make_unique<CountColumn>(false);
    case AggKind::Min:
    case AggKind::AnyValue:
      return extreme<-1>(spec, arg);
    case AggKind::Max:
      return extreme<1>(spec, arg);
    default:
      return sum(arg);
  }
}

}  // namespace tally
