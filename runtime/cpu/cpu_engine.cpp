#include "runtime/cpu/cpu_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string_view>

#include "compiler/eval/evaluator.h"
#include "runtime/cpu/agg_state.h"
#include "runtime/cpu/morsels.h"
#include "runtime/cpu/vector_engine.h"
#include "runtime/result/group_table.h"
#include "runtime/result/result_builder.h"

namespace tally {

namespace {

// Decodes a morsel of scan columns into row-major Values; VARCHAR codes become heap ids.
class MorselDecoder {
 public:
  MorselDecoder(const BoundSelect& query, const Table* table, StringHeap& strings)
      : query_(query), table_(table) {
    for (const auto& sc : query.scan) {
      const Column& column = *table->columns[sc.table_column];
      code_to_id_.push_back(sc.type.is_string() ? strings.intern_all(column.dictionary())
                                                : std::vector<int64_t>{});
    }
  }

  void decode(size_t begin, size_t end, std::vector<Value>& rows) const {
    size_t width = query_.scan.size();
    rows.resize((end - begin) * width);
    for (size_t c = 0; c < width; ++c) {
      const Column& column = *table_->columns[query_.scan[c].table_column];
      const auto& ids = code_to_id_[c];
      for (size_t r = begin; r < end; ++r) {
        Value& v = rows[(r - begin) * width + c];
        if (!column.is_valid(r)) {
          v = Value();
          continue;
        }
        v = column.get_value(r);
        if (!ids.empty()) v.i = ids[static_cast<size_t>(v.i)];
      }
    }
  }

 private:
  const BoundSelect& query_;
  const Table* table_;
  std::vector<std::vector<int64_t>> code_to_id_;
};

// Per-thread aggregation: group table, key values and states.
struct LocalAggregation {
  explicit LocalAggregation(size_t keys) : table(keys * kGroupKeySlotBytes) {}
  GroupTable table;
  std::vector<std::vector<Value>> keys;
  std::vector<std::vector<AggState>> states;
};

// Morsels are claimed in order; once those finished from the first on hold the rows a
// LIMIT needs (in input order), the others need not run.
class InOrderPrefix {
 public:
  InOrderPrefix(size_t morsels, std::optional<size_t> needed)
      : needed_(needed), rows_(needed ? morsels : 0, kPending) {}

  // Morsel m produced `rows` rows; true once the finished prefix holds enough.
  bool done(size_t m, size_t rows) {
    if (!needed_) return false;
    std::lock_guard lock(mutex_);
    rows_[m] = rows;
    while (finished_ < rows_.size() && rows_[finished_] != kPending) {
      prefix_rows_ += rows_[finished_++];
    }
    return prefix_rows_ >= *needed_;
  }

 private:
  static constexpr size_t kPending = SIZE_MAX;
  const std::optional<size_t> needed_;
  std::vector<size_t> rows_;
  size_t finished_ = 0, prefix_rows_ = 0;
  std::mutex mutex_;
};

// COUNT(*)s alone over every row: each morsel's row count is the answer, no row is read.
bool only_counts_rows(const BoundSelect& query) {
  if (!query.aggregated || query.filter || !query.group_keys.empty()) return false;
  for (const auto& call : query.aggregates) {
    if (call.kind != AggKind::CountStar || call.distinct) return false;
  }
  return true;
}

class CpuQuery {
 public:
  CpuQuery(const BoundSelect& query, const Table* table, const std::vector<Value>& parameters,
           const CpuOptions& options)
      : query_(query),
        table_(table),
        parameters_(parameters),
        options_(options),
        strings_(options.strings ? options.strings : std::make_shared<StringHeap>()),
        specs_(make_agg_specs(query, strings_.get())) {}

  Result run() {
    scan();
    if (query_.aggregated) return finish_partial_groups(query_, merge_locals(), parameters_);
    std::vector<std::vector<Value>> out;
    for (auto& m : projected_) {
      for (auto& r : m) out.push_back(std::move(r));
    }
    Result result = finish_result(query_, std::move(out), parameters_, strings_);
    result.device = "cpu";
    return result;
  }

  // The aggregated query's merged states per group, before the final step.
  PartialGroups run_partial() {
    if (!query_.aggregated) {
      throw Error(ErrorKind::Unsupported,
                  "partial aggregate states are for queries with aggregates or GROUP BY");
    }
    scan();
    return merge_locals();
  }

 private:
  void scan() {
    size_t rows = table_ ? table_->rows() : 1;
    locals_.clear();
    if (only_counts_rows(query_)) {  // the answer is the row count: no row is read
      locals_.emplace_back(0);
      const size_t end = options_.end_row > 0 ? std::min<size_t>(options_.end_row, rows) : rows;
      count_rows(0, end - std::min<size_t>(options_.first_row, end));
      return;
    }
    const std::optional<size_t> needed = rows_needed_in_order(query_, parameters_);
    // A LIMIT of a few rows decodes a few rows, not a morsel of every column on every core.
    if (needed) {
      options_.morsel_rows = std::min(options_.morsel_rows, std::max<size_t>(*needed, 1024));
      if (!query_.filter) options_.threads = 1;
    }
    size_t morsels = (rows + options_.morsel_rows - 1) / options_.morsel_rows;
    unsigned threads = morsel_workers(rows, options_);
    std::optional<MorselDecoder> decoder;
    if (table_) decoder.emplace(query_, table_, *strings_);
    for (unsigned t = 0; t < threads; ++t) locals_.emplace_back(query_.group_keys.size());
    projected_.assign(morsels, {});
    InOrderPrefix prefix(morsels, needed);
    std::vector<std::vector<Value>> buffers(threads);
    run_morsels(rows, threads, options_, [&](unsigned t, const MorselRange& m) {
      if (decoder) decoder->decode(m.begin, m.end, buffers[t]);
      process_morsel(t, m.index, m.end - m.begin, buffers[t]);
      return prefix.done(m.index, projected_[m.index].size());  // LIMIT has its rows
    });
  }

  void count_rows(unsigned t, size_t count) {
    LocalAggregation& local = locals_[t];
    if (local.states.empty()) {
      local.keys.emplace_back();
      local.states.emplace_back(specs_.size());
    }
    for (size_t a = 0; a < specs_.size(); ++a) {
      AggState morsel;
      morsel.plain.count = static_cast<int64_t>(count);
      agg_combine(local.states[0][a], morsel, specs_[a]);
    }
  }

  void process_morsel(unsigned t, size_t morsel, size_t count, const std::vector<Value>& rows) {
    EvalContext ctx;
    ctx.parameters = parameters_.data();
    ctx.parameter_count = parameters_.size();
    ctx.strings = strings_.get();
    size_t width = query_.scan.size();
    LocalAggregation& local = locals_[t];
    std::vector<Value> keys(query_.group_keys.size());
    std::vector<uint8_t> key_bytes(keys.size() * kGroupKeySlotBytes);
    std::vector<Value> sort_keys;  // an ordered aggregate's ORDER BY values for one row
    for (size_t r = 0; r < count; ++r) {
      ctx.columns = width ? &rows[r * width] : nullptr;
      if (query_.filter && !is_true(evaluate(*query_.filter, ctx))) continue;
      if (!query_.aggregated) {
        std::vector<Value> out;
        for (const auto& o : query_.outputs) out.push_back(evaluate(*o.expr, ctx));
        projected_[morsel].push_back(std::move(out));
        continue;
      }
      for (size_t k = 0; k < keys.size(); ++k) keys[k] = evaluate(*query_.group_keys[k], ctx);
      encode_group_key(keys, query_, key_bytes.data());
      uint32_t g = local.table.find_or_insert(key_bytes.data());
      if (g == local.states.size()) {
        local.keys.push_back(keys);
        local.states.emplace_back(specs_.size());
      }
      auto& states = local.states[g];
      for (size_t a = 0; a < specs_.size(); ++a) {
        const auto& call = query_.aggregates[a];
        Value v = call.arg ? evaluate(*call.arg, ctx) : Value::from_int(1);
        sort_keys.clear();
        for (const auto& o : call.order) sort_keys.push_back(evaluate(*o.expr, ctx));
        agg_merge(states[a], specs_[a], v, call.key ? evaluate(*call.key, ctx) : Value(),
                  call.order.empty() ? nullptr : sort_keys.data());
      }
    }
  }

  // Combines the thread-local tables into one.
  PartialGroups merge_locals() {
    std::vector<PartialGroups> parts(locals_.size());
    for (size_t t = 0; t < locals_.size(); ++t) {
      parts[t].keys = std::move(locals_[t].keys);
      parts[t].states = std::move(locals_[t].states);
      parts[t].strings = strings_;
    }
    PartialGroups merged;
    merged.strings = strings_;
    combine_partial_groups(query_, merged, parts);
    return merged;
  }

  const BoundSelect& query_;
  const Table* table_;
  const std::vector<Value>& parameters_;
  CpuOptions options_;
  std::shared_ptr<StringHeap> strings_;
  std::vector<AggSpec> specs_;
  std::vector<LocalAggregation> locals_;
  std::vector<std::vector<std::vector<Value>>> projected_;  // per morsel, in input order
};

// The path a query runs on, decided before its scan: TALLY_CPU_PATH stands in for Auto.
bool runs_vectorized(const BoundSelect& query, const Table* table, const CpuOptions& options) {
  CpuPath path = options.path;
  if (path == CpuPath::Auto) {
    const char* env = std::getenv("TALLY_CPU_PATH");
    const std::string_view name = env ? env : "auto";
    if (name == "row") path = CpuPath::Row;
    if (name == "vector") path = CpuPath::Vector;
    if (name != "row" && name != "vector" && name != "auto" && !name.empty()) {
      throw Error(ErrorKind::Unsupported,
                  fmt::format("TALLY_CPU_PATH is '{}': use row, vector or auto", name));
    }
  }
  if (path == CpuPath::Row) return false;
  if (path == CpuPath::Auto && only_counts_rows(query)) return false;  // reads no row at all
  const std::optional<std::string> why = vector_path_unsupported(query, table);
  if (why && path == CpuPath::Vector) {
    throw Error(ErrorKind::Unsupported, "the CPU engine's vector path does not run " + *why);
  }
  return !why;
}

}  // namespace

Result run_cpu(const BoundSelect& query, const Table* table, const std::vector<Value>& parameters,
               const CpuOptions& options) {
  if (!runs_vectorized(query, table, options)) {
    return CpuQuery(query, table, parameters, options).run();
  }
  auto strings = options.strings ? options.strings : std::make_shared<StringHeap>();
  return run_vector_query(query, *table, parameters, options, strings);
}

PartialGroups run_cpu_partial(const BoundSelect& query, const Table* table,
                              const CpuOptions& options, const std::vector<Value>& parameters) {
  if (!runs_vectorized(query, table, options)) {
    return CpuQuery(query, table, parameters, options).run_partial();
  }
  auto strings = options.strings ? options.strings : std::make_shared<StringHeap>();
  return run_vector_path(query, *table, parameters, options, strings);
}

}  // namespace tally
