// GPU partial states without a GPU: the cells an emit_states plan's Finalizer writes for each
// part of a table, computed here from the part's rows by the field meanings of
// compiler/functions/aggregate_state.h, become the CPU engine's partial states
// (runtime/gpu/state_cells.h); combined and finished, they equal one CPU run over the table.
#include "runtime/gpu/state_cells.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <span>

#include "compiler/eval/evaluator.h"
#include "compiler/plan/partial_states.h"
#include "runtime/cpu/cpu_engine.h"
#include "templates/tally_arg_pair.cuh"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"

namespace tally {
namespace {

constexpr int kRows = 200;

std::string decimal_text(int64_t unscaled, int scale) {
  const uint64_t magnitude = unscaled < 0 ? -static_cast<uint64_t>(unscaled) : unscaled;
  uint64_t unit = 1;
  for (int i = 0; i < scale; ++i) unit *= 10;
  return fmt::format("{}{}.{:0{}}", unscaled < 0 ? "-" : "", magnitude / unit, magnitude % unit,
                     scale);
}

// One row of the table: every type a state keeps, NULLs in most columns.
std::string row_sql(int r) {
  const char* names[] = {"ab", "b", "cd", "a", "zz"};
  const char* dates[] = {"2020-01-15", "1999-12-31", "2024-02-29", "1970-01-01", "2001-07-04"};
  auto maybe = [](bool null, const std::string& text) { return null ? std::string("NULL") : text; };
  const int64_t wide = (r % 4 == 0 ? -1 : 1) * ((r * 1234567ll % 1000003) * 1000000000000ll + r);
  return fmt::format(
      "({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {})", maybe(r % 11 == 0, std::to_string(r % 5)),
      maybe(r % 13 == 0, fmt::format("'{}'", names[r * 7 % 5])),
      maybe(r % 7 == 0, std::to_string(r * 37 % 101 - 50)), r * 1000003ll % 99991 - 40000,
      maybe(r % 17 == 0, decimal_text(r * 53 % 2000 - 700, 2)), decimal_text(wide, 3),
      maybe(r % 9 == 0, fmt::format("{}", (r * 17 % 29) * 0.375 - 3.125)),
      fmt::format("{}", (r % 23) * 0.5 - 4), maybe(r % 10 == 0, r % 3 == 0 ? "TRUE" : "FALSE"),
      r * 5 % 300 - 100, maybe(r % 19 == 0, fmt::format("DATE '{}'", dates[r % 5])));
}

Database& states_db() {
  static Database* db = [] {
    auto* d = new Database();
    std::string sql =
        "CREATE TABLE sc (k INTEGER, s VARCHAR(4), i INTEGER, b BIGINT, d DECIMAL(12,2), "
        "w DECIMAL(30,3), x DOUBLE, r REAL, f BOOLEAN, sm SMALLINT, t DATE); INSERT INTO sc "
        "VALUES ";
    for (int r = 0; r < kRows; ++r) sql += (r ? ", " : "") + row_sql(r);
    test::run_script(*d, sql + ";");
    return d;
  }();
  return *db;
}

// A number a field takes in, by the argument's type (strings: their dictionary code).
int128 exact_of(const Value& v, const Type& t) { return t.is_decimal() ? v.d : v.i; }

template <typename T>
int128 bits_of(T x) {
  if constexpr (std::is_same_v<T, double>) {
    return static_cast<int128>(std::bit_cast<uint64_t>(x));
  } else {
    return static_cast<int128>(x);
  }
}

// Sums of a part's deviations from its own first-pass mean sum / n, as the second pass
// keeps them: first powers up to fourth.
struct Deviations {
  double sum = 0, mean = 0, dev[5] = {0, 0, 0, 0, 0};
  explicit Deviations(const std::vector<double>& v) {
    for (double x : v) sum += x;
    mean = sum / static_cast<double>(v.size());
    for (double x : v) {
      const double d = x - mean;
      dev[1] += d, dev[2] += d * d, dev[3] += d * d * d, dev[4] += d * d * d * d;
    }
  }
};

std::vector<double> doubles(const std::vector<Value>& values) {
  std::vector<double> out;
  for (const Value& v : values) out.push_back(v.f);
  return out;
}

// What a float field holds after `args` (its aggregate's non-NULL values; `keys` the second
// arguments of an aggregate of two), by the device's two passes: sums and extremes, then
// deviations from the part's own means.
int128 float_cell(FieldKind kind, const std::vector<Value>& args, const std::vector<Value>& keys) {
  double product = 1;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Value& v : args) product *= v.f, lo = std::min(lo, v.f), hi = std::max(hi, v.f);
  const Deviations y(doubles(args)), x(doubles(keys));
  double co = 0;
  for (size_t i = 0; i < keys.size(); ++i) co += (args[i].f - y.mean) * (keys[i].f - x.mean);
  switch (kind) {
    case FieldKind::SumF64:
      return bits_of(y.sum);
    case FieldKind::SumSqF64:
      return bits_of(y.dev[2]);
    case FieldKind::DevSumF64:
      return bits_of(y.dev[1]);
    case FieldKind::DevCubeF64:
      return bits_of(y.dev[3]);
    case FieldKind::DevFourthF64:
      return bits_of(y.dev[4]);
    case FieldKind::SumKeyF64:
      return bits_of(x.sum);
    case FieldKind::DevSqKeyF64:
      return bits_of(x.dev[2]);
    case FieldKind::DevSumKeyF64:
      return bits_of(x.dev[1]);
    case FieldKind::CoDevF64:
      return bits_of(co);
    case FieldKind::MinF64:
      return bits_of(lo);
    case FieldKind::MaxF64:
      return bits_of(hi);
    case FieldKind::ProductF64:
      return bits_of(product);
    default:
      FAIL("not a float field");
      return 0;
  }
}

// What an exact field holds after `args`; the device's identity when there are none.
int128 exact_cell(FieldKind kind, const std::vector<Value>& args, const Type& type) {
  int128 folded = 0;
  switch (kind) {
    case FieldKind::MinI64:
      folded = std::numeric_limits<int64_t>::max();
      break;
    case FieldKind::MaxI64:
      folded = std::numeric_limits<int64_t>::min();
      break;
    case FieldKind::MinI128:
      folded = ~(int128(1) << 127);
      break;
    case FieldKind::MaxI128:
      folded = int128(1) << 127;
      break;
    case FieldKind::AndI64:
      folded = -1;
      break;
    default:
      break;
  }
  for (const Value& v : args) {
    const int128 x = exact_of(v, type);
    switch (kind) {
      case FieldKind::SumI128:
        folded += x;
        break;
      case FieldKind::SumSqI128:
        folded += x * x;
        break;
      case FieldKind::MinI64:
      case FieldKind::MinI128:
        folded = std::min(folded, x);
        break;
      case FieldKind::MaxI64:
      case FieldKind::MaxI128:
        folded = std::max(folded, x);
        break;
      case FieldKind::AndI64:
        folded &= x;
        break;
      case FieldKind::OrI64:
        folded |= x;
        break;
      case FieldKind::XorI64:
        folded ^= x;
        break;
      default:
        FAIL("not an exact field");
    }
  }
  return folded;
}

// ARG_MIN / ARG_MAX's word (templates/tally_arg_pair.cuh) over a part's (value, key) rows.
int128 pair_cell(FieldKind kind, const std::vector<Value>& args, const std::vector<Value>& keys,
                 const AggregateCall& call) {
  namespace ap = tally_arg_pair;
  const bool greatest = kind == FieldKind::ArgMaxPair;
  const int128 top = ~(int128(1) << 127);
  int128 kept = greatest ? -top - 1 : top;
  for (size_t i = 0; i < args.size(); ++i) {
    const auto word = [](const Value& v, const Type& t) {
      return static_cast<long long>(exact_of(v, t));
    };
    const long long k = call.key->type.is_float() ? ap::key_image(keys[i].f)
                                                  : ap::key_image(word(keys[i], call.key->type));
    const unsigned long long v = call.arg->type.is_float()
                                     ? ap::value_image(args[i].f)
                                     : ap::value_image(word(args[i], call.arg->type));
    kept = greatest ? std::max(kept, ap::pair(k, v, true)) : std::min(kept, ap::pair(k, v, false));
  }
  return kept;
}

// What one field of one group holds on the device after a part's rows.
int128 field_cell(FieldKind kind, const std::vector<Value>& args, const std::vector<Value>& keys,
                  const AggregateCall& call) {
  const Type& type = call.arg->type;
  if (kind == FieldKind::Count) return static_cast<int128>(args.size());
  if (kind == FieldKind::ArgMinPair || kind == FieldKind::ArgMaxPair) {
    return pair_cell(kind, args, keys, call);
  }
  if (std::string_view(field_info(kind).cuda_type) == "f64") return float_cell(kind, args, keys);
  return exact_cell(kind, args, type);
}

// One group of a part as the device sees it: its rows' scan values.
struct ModelGroup {
  std::vector<Value> keys;
  std::vector<std::vector<Value>> rows;
};

// The scan values of row `r` (strings as dictionary codes, as the Scan reads them).
std::vector<Value> scan_row(const BoundSelect& q, const Table& table, size_t r) {
  std::vector<Value> row;
  for (const ScanColumn& c : q.scan) row.push_back(table.columns[c.table_column]->get_value(r));
  return row;
}

// A dictionary code of scan column `column` as an id of `heap`.
int64_t string_id(const BoundSelect& q, const Table& table, int column, int64_t code,
                  StringHeap& heap) {
  return heap.intern(table.columns[q.scan[column].table_column]->dictionary().at(code));
}

// The groups of rows [begin, end), in the order their keys first appear.
std::vector<ModelGroup> model_groups(const BoundSelect& q, const Table& table, size_t begin,
                                     size_t end, StringHeap& heap) {
  std::vector<ModelGroup> groups;
  std::map<std::string, size_t> index;
  if (q.group_keys.empty()) groups.emplace_back();  // the ungrouped query's one slot
  for (size_t r = begin; r < end; ++r) {
    std::vector<Value> row = scan_row(q, table, r);
    EvalContext ctx;
    ctx.columns = row.data();
    if (q.filter && !is_true(evaluate(*q.filter, ctx))) continue;
    std::vector<Value> keys;
    for (const ExprPtr& k : q.group_keys) {
      Value v = evaluate(*k, ctx);
      REQUIRE((!k->type.is_string() || k->kind == ExprKind::ColumnRef));
      if (!v.null && k->type.is_string()) v.i = string_id(q, table, k->index, v.i, heap);
      keys.push_back(v);
    }
    std::string encoded(keys.size() * kGroupKeySlotBytes, '\0');
    encode_group_key(keys, q, reinterpret_cast<uint8_t*>(encoded.data()));
    auto [at, added] = index.try_emplace(encoded, groups.size());
    if (added && !q.group_keys.empty()) groups.push_back({keys, {}});
    groups[q.group_keys.empty() ? 0 : at->second].rows.push_back(std::move(row));
  }
  return groups;
}

// Row g of the cells: every field of plan.layout.fields over the group's rows.
void append_cells(const BoundSelect& q, const GpuPlan& plan, const ModelGroup& g,
                  std::vector<int128>& cells) {
  for (const StateField& field : plan.layout.fields) {
    if (field.aggregate < 0) {
      cells.push_back(static_cast<int128>(g.rows.size()));
      continue;
    }
    const AggregateCall& call = q.aggregates[field.aggregate];
    std::vector<Value> args, keys;  // keys: an aggregate of two's second arguments
    for (const auto& row : g.rows) {
      EvalContext ctx;
      ctx.columns = row.data();
      Value v = evaluate(*call.arg, ctx);
      Value k = call.key ? evaluate(*call.key, ctx) : Value::from_int(0);
      if (v.null || k.null) continue;
      args.push_back(v);
      if (call.key) keys.push_back(k);
    }
    cells.push_back(field_cell(field.kind, args, keys, call));
  }
}

struct Splitting {
  BoundSelect query;
  GpuPlan plan;
  TablePtr table;
};

Splitting split_plan(const std::string& sql) {
  Splitting s{test::bind_first(states_db(), sql), {}, states_db().table("sc")};
  const GpuPlan plan = plan_for(s.query, scan_stats(s.query, *s.table), s.table->rows(), {});
  s.plan = with_streamed_scan(plan, true);
  return s;
}

// The part of rows [begin, end) as a GPU would hand it over.
PartialGroups gpu_part(const Splitting& s, size_t begin, size_t end,
                       const std::shared_ptr<StringHeap>& heap) {
  std::vector<ModelGroup> groups = model_groups(s.query, *s.table, begin, end, *heap);
  std::vector<std::vector<Value>> keys;
  std::vector<int128> cells;
  for (const ModelGroup& g : groups) {
    keys.push_back(g.keys);
    append_cells(s.query, s.plan, g, cells);
  }
  auto ids = [&](size_t a, int64_t code) {
    const int column = s.plan.layout.aggregate_dictionary.at(a);
    REQUIRE(column >= 0);
    return string_id(s.query, *s.table, column, code, *heap);
  };
  return partial_groups_from_cells(s.query, s.plan, std::move(keys), cells.data(), heap, ids);
}

// The parts at `cuts` (row numbers, first 0, last kRows) combined and finished against one CPU
// run; DOUBLE results within a relative 1e-9 (1e-12 absolute: a skewness of 0 is rounding).
void check_split(const std::string& sql, const std::vector<size_t>& cuts) {
  INFO(sql);
  const Splitting s = split_plan(sql);
  REQUIRE_FALSE(why_states_do_not_combine(s.query, s.plan).has_value());
  std::vector<PartialGroups> parts;
  for (size_t p = 0; p + 1 < cuts.size(); ++p) {
    parts.push_back(gpu_part(s, cuts[p], cuts[p + 1], std::make_shared<StringHeap>()));
  }
  PartialGroups all;
  combine_partial_groups(s.query, all, std::span(parts));
  const Result got = finish_partial_groups(s.query, std::move(all));
  const Result want = run_cpu(s.query, s.table.get(), {});
  INFO(test::result_text(want));
  CHECK(test::result_difference(want, got, test::float_tolerances(want)) == "");
}

const char* const kAggregates =
    "COUNT(*), COUNT(i), SUM(i), SUM(b), SUM(d), SUM(w), SUM(x), SUM(r), AVG(i), AVG(b), AVG(d), "
    "AVG(w), AVG(x), MIN(i), MAX(i), MIN(b), MAX(sm), MIN(d), MAX(d), MIN(w), MAX(w), MIN(x), "
    "MAX(r), MIN(s), MAX(s), MIN(t), MAX(t), MIN(f), MAX(f), VAR_SAMP(i), STDDEV_SAMP(d), "
    "VARIANCE(sm), VAR_SAMP(x), STDDEV(r), BOOL_AND(f), BOOL_OR(f), COUNT_IF(f), BIT_AND(i), "
    "BIT_OR(sm), BIT_XOR(b), PRODUCT(r), ANY_VALUE(s), FIRST(i), COVAR_POP(x, i), "
    "COVAR_SAMP(r, d), CORR(x, b), REGR_SLOPE(x, sm), REGR_INTERCEPT(x, sm), REGR_COUNT(i, x), "
    "REGR_R2(d, x), REGR_AVGX(x, w), REGR_AVGY(x, w), REGR_SXX(r, i), REGR_SYY(r, i), "
    "REGR_SXY(r, i), SKEWNESS(x), KURTOSIS(i), SKEWNESS(r), KURTOSIS(d), ARG_MIN(s, i), "
    "ARG_MAX(x, d), MIN_BY(t, r), MAX_BY(b, x), ARG_MIN(f, t), ARG_MAX(d, sm), ARG_MAX(s, k)";

}  // namespace

TEST_CASE("state cells: every convertible state splits into parts and combines exactly") {
  const std::vector<std::vector<size_t>> splits = {{0, 77, kRows}, {0, 0, 120, 121, kRows}};
  for (const auto& cuts : splits) {
    check_split(fmt::format("SELECT k, {} FROM sc GROUP BY k", kAggregates), cuts);
    check_split(fmt::format("SELECT {} FROM sc", kAggregates), cuts);
    check_split(fmt::format("SELECT s, k, {} FROM sc WHERE b > -30000 GROUP BY s, k", kAggregates),
                cuts);
  }
}

TEST_CASE("state cells: HAVING ORDER BY and LIMIT finish over the combined groups") {
  check_split(
      "SELECT k, SUM(d) AS total, MIN(s) AS lo FROM sc GROUP BY k HAVING COUNT(*) > 30 "
      "ORDER BY total DESC LIMIT 2",
      {0, 50, 150, kRows});
  // A part with no rows: the ungrouped slot's identities change nothing.
  check_split("SELECT COUNT(*), SUM(i), MIN(s), BIT_AND(sm), PRODUCT(r) FROM sc", {0, 0, kRows});
}

TEST_CASE("state cells: DISTINCT aggregates do not combine and say why") {
  const Splitting s = split_plan("SELECT k, COUNT(DISTINCT i), SUM(b) FROM sc GROUP BY k");
  const auto why = why_states_do_not_combine(s.query, s.plan);
  REQUIRE(why.has_value());
  CHECK(why->find("COUNT(DISTINCT i)") != std::string::npos);
  CHECK(why->find("set of values") != std::string::npos);
  CHECK_THROWS_AS(gpu_part(s, 0, kRows, std::make_shared<StringHeap>()), Error);
  // MIN(DISTINCT x) is MIN(x): nothing to refuse.
  const Splitting plain = split_plan("SELECT MIN(DISTINCT i), BIT_AND(DISTINCT sm) FROM sc");
  CHECK_FALSE(why_states_do_not_combine(plain.query, plain.plan).has_value());
}

TEST_CASE("state cells: out_values holds one cell per state field under emit_states") {
  const Splitting s = split_plan("SELECT k, SUM(i), AVG(i), VAR_SAMP(x) FROM sc GROUP BY k");
  // The row counter, SUM(i)'s count and sum (shared by AVG), VAR_SAMP(x)'s four fields.
  CHECK(state_cell_count(s.plan) == s.plan.layout.fields.size());
  CHECK(output_value_cells(s.plan, 3) == state_cell_count(s.plan));
  GpuPlan finals = s.plan;
  finals.emit_states = false;
  CHECK(output_value_cells(finals, 3) == 3);
  CHECK(output_value_cells(finals, 0) == 1);
}

}  // namespace tally
