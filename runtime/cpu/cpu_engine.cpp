#include "runtime/cpu/cpu_engine.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "compiler/eval/evaluator.h"
#include "runtime/cpu/agg_state.h"
#include "runtime/result/group_table.h"
#include "runtime/result/result_builder.h"

namespace tally {

namespace {

constexpr size_t kKeySlotBytes = 17;  // NULL flag + 16 payload bytes per group key

// Decodes a morsel of scan columns into row-major Values; VARCHAR codes become heap ids.
class MorselDecoder {
 public:
  MorselDecoder(const BoundSelect& query, const Table* table, StringHeap& strings)
      : query_(query), table_(table) {
    for (const auto& sc : query.scan) {
      std::vector<int64_t> ids;
      const Column& column = *table->columns[sc.table_column];
      if (sc.type.is_string()) {
        for (const auto& s : column.dictionary()) ids.push_back(strings.intern(s));
      }
      code_to_id_.push_back(std::move(ids));
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
  explicit LocalAggregation(size_t keys) : table(keys * kKeySlotBytes) {}
  GroupTable table;
  std::vector<std::vector<Value>> keys;
  std::vector<std::vector<AggState>> states;
};

void encode_key(const std::vector<Value>& keys, const BoundSelect& query, uint8_t* out) {
  for (size_t k = 0; k < keys.size(); ++k) {
    Value v = keys[k].null ? Value() : keys[k];
    if (!v.null && query.group_keys[k]->type.is_float()) {
      // One group for 0.0 and -0.0, and one for every NaN.
      if (v.f == 0.0) v = Value::from_double(0.0);
      if (std::isnan(v.f)) v = Value::from_double(std::nan(""));
    }
    out[k * kKeySlotBytes] = v.null;
    std::memcpy(out + k * kKeySlotBytes + 1, &v.d, 16);
  }
}

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
    size_t rows = table_ ? table_->rows() : 1;
    size_t morsels = (rows + options_.morsel_rows - 1) / options_.morsel_rows;
    unsigned threads = options_.threads ? options_.threads : std::thread::hardware_concurrency();
    threads = static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(threads, morsels)));
    std::optional<MorselDecoder> decoder;
    if (table_) decoder.emplace(query_, table_, *strings_);
    locals_.clear();
    for (unsigned t = 0; t < threads; ++t) locals_.emplace_back(query_.group_keys.size());
    projected_.assign(morsels, {});
    run_workers(threads, morsels, rows, decoder ? &*decoder : nullptr);
    std::vector<std::vector<Value>> out;
    if (query_.aggregated) {
      out = evaluate_group_outputs(query_, merge_groups(), parameters_, strings_.get());
    } else {
      for (auto& m : projected_) {
        for (auto& r : m) out.push_back(std::move(r));
      }
    }
    Result result = finish_result(query_, std::move(out), parameters_, strings_);
    result.device = "cpu";
    return result;
  }

 private:
  void run_workers(unsigned threads, size_t morsels, size_t rows, const MorselDecoder* decoder) {
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    InOrderPrefix prefix(morsels, rows_needed_in_order(query_, parameters_));
    std::mutex progress_mutex;
    uint64_t rows_done = 0;
    auto work = [&](unsigned t) {
      try {
        std::vector<Value> buffer;
        for (size_t m; (m = next.fetch_add(1)) < morsels;) {
          if (options_.cancelled && options_.cancelled()) {
            throw Error(ErrorKind::Cancelled, "the statement was cancelled");
          }
          size_t begin = m * options_.morsel_rows;
          size_t end = std::min(rows, begin + options_.morsel_rows);
          if (decoder) decoder->decode(begin, end, buffer);
          process_morsel(t, m, end - begin, buffer);
          if (options_.progress) {
            std::lock_guard lock(progress_mutex);
            rows_done += end - begin;
            options_.progress(rows_done, rows);
          }
          if (prefix.done(m, projected_[m].size())) next = morsels;  // LIMIT has its rows
        }
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = morsels;  // stop the other workers early
      }
    };
    if (threads == 1) {
      work(0);
    } else {
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work, t);
      for (auto& th : pool) th.join();
    }
    if (failure) std::rethrow_exception(failure);
  }

  // COUNT(*)s alone over every row: the morsel's row count is the answer, no row is read.
  bool counts_rows_only() const {
    if (!query_.aggregated || query_.filter || !query_.group_keys.empty()) return false;
    for (const AggSpec& spec : specs_) {
      if (spec.kind != AggKind::CountStar || spec.distinct) return false;
    }
    return true;
  }

  void count_morsel(unsigned t, size_t count) {
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
    if (counts_rows_only()) {
      count_morsel(t, count);
      return;
    }
    EvalContext ctx;
    ctx.parameters = parameters_.data();
    ctx.parameter_count = parameters_.size();
    ctx.strings = strings_.get();
    size_t width = query_.scan.size();
    LocalAggregation& local = locals_[t];
    std::vector<Value> keys(query_.group_keys.size());
    std::vector<uint8_t> key_bytes(keys.size() * kKeySlotBytes);
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
      encode_key(keys, query_, key_bytes.data());
      uint32_t g = local.table.find_or_insert(key_bytes.data());
      if (g == local.states.size()) {
        local.keys.push_back(keys);
        local.states.emplace_back(specs_.size());
      }
      auto& states = local.states[g];
      for (size_t a = 0; a < specs_.size(); ++a) {
        const auto& call = query_.aggregates[a];
        Value v = call.arg ? evaluate(*call.arg, ctx) : Value::from_int(1);
        agg_merge(states[a], specs_[a], v);
      }
    }
  }

  // Combines the thread-local tables and computes every group's finals.
  GroupRows merge_groups() {
    LocalAggregation merged(query_.group_keys.size());
    std::vector<uint8_t> key_bytes(query_.group_keys.size() * kKeySlotBytes);
    for (auto& local : locals_) {
      for (size_t g = 0; g < local.states.size(); ++g) {
        encode_key(local.keys[g], query_, key_bytes.data());
        uint32_t m = merged.table.find_or_insert(key_bytes.data());
        if (m == merged.states.size()) {
          merged.keys.push_back(std::move(local.keys[g]));
          merged.states.push_back(std::move(local.states[g]));
          continue;
        }
        for (size_t a = 0; a < specs_.size(); ++a) {
          agg_combine(merged.states[m][a], local.states[g][a], specs_[a]);
        }
      }
    }
    // Aggregates without GROUP BY give one row even over no input.
    if (query_.group_keys.empty() && merged.states.empty()) {
      merged.keys.emplace_back();
      merged.states.emplace_back(specs_.size());
    }
    GroupRows groups;
    groups.keys = std::move(merged.keys);
    for (const auto& states : merged.states) {
      std::vector<Value> finals;
      for (size_t a = 0; a < specs_.size(); ++a) {
        finals.push_back(agg_final(states[a], specs_[a]));
      }
      groups.aggregates.push_back(std::move(finals));
    }
    return groups;
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

}  // namespace

Result run_cpu(const BoundSelect& query, const Table* table, const std::vector<Value>& parameters,
               const CpuOptions& options) {
  return CpuQuery(query, table, parameters, options).run();
}

}  // namespace tally
