#include "runtime/cpu/vector_engine.h"

#include <bit>
#include <iterator>

#include "runtime/cpu/morsels.h"
#include "runtime/cpu/vector_aggs.h"
#include "runtime/cpu/vector_plan.h"
#include "runtime/cpu/vector_scan.h"
#include "runtime/result/result_builder.h"
#include "runtime/storage/scan_stats.h"

namespace tally {

namespace {

// What every worker of one query shares.
struct QueryInputs {
  const BoundSelect& query;
  const Table& table;
  const std::vector<Value>& parameters;
  std::shared_ptr<StringHeap> strings;
  std::vector<ColumnStats> stats;
  std::vector<std::vector<int64_t>> code_to_id;  // per scan column: string codes -> heap ids
  std::vector<AggSpec> specs;
  BatchDecoder decoder;
  VectorPlan plan;

  QueryInputs(const BoundSelect& q, const Table& t, const std::vector<Value>& p,
              std::shared_ptr<StringHeap> s)
      : query(q),
        table(t),
        parameters(p),
        strings(std::move(s)),
        stats(scan_stats(q, t)),
        specs(make_agg_specs(q, strings.get())),
        decoder(q, t) {
    for (const auto& sc : q.scan) {
      code_to_id.push_back(
          strings->intern_all(t.columns[static_cast<size_t>(sc.table_column)]->dictionary()));
    }
  }

  VecEnv env(std::vector<Vec>* columns) const {
    VecEnv e;
    e.stats = &stats;
    e.parameters = &parameters;
    e.strings = strings.get();
    e.columns = columns;
    e.code_to_id = &code_to_id;
    return e;
  }
};

// One worker's operators, group table and states.
class VectorWorker {
 public:
  explicit VectorWorker(const QueryInputs& in) : in_(in) {
    for (size_t c = 0; c < in.query.scan.size(); ++c) columns_.emplace_back(in.decoder.phys(c));
    const VecEnv env = in.env(&columns_);
    if (in.query.filter) filter_ = compile_vector(*in.query.filter, env);
    compile_keys(env);
    for (size_t a = 0; a < in.query.aggregates.size(); ++a) {
      const auto& call = in.query.aggregates[a];
      args_.push_back(call.arg ? compile_vector(*call.arg, env) : nullptr);
      second_args_.push_back(call.key ? compile_vector(*call.key, env) : nullptr);
      const Phys phys = call.arg ? vector_phys(*call.arg, env) : Phys::I64;
      aggs_.push_back(make_agg_column(in.specs[a], phys));
    }
    if (in.plan.direct) {
      index_ = make_direct_index(*in.plan.direct);
      for (auto& agg : aggs_) agg->resize(index_->groups());
    } else {
      index_ = make_hash_index(in.plan.key_phys, in.plan.keys_nullable);
    }
  }

  void run(const MorselRange& m) {
    for (size_t b = m.begin; b < m.end; b += kBatchRows) batch(b, std::min(kBatchRows, m.end - b));
  }

  // Adds another worker's groups and states into this one's.
  void absorb(VectorWorker& other) {
    for (size_t g = 0; g < other.index_->groups(); ++g) {
      if (other.index_->used(g)) absorb_group(other, g);
    }
  }

  // Adds group g of another worker, its key and states, into this one.
  void absorb_group(VectorWorker& other, size_t g) {
    const uint32_t into = index_->merge_key(*other.index_, g);
    for (size_t a = 0; a < aggs_.size(); ++a) {
      if (into >= index_->groups() - 1 && !in_.plan.direct) aggs_[a]->resize(index_->groups());
      aggs_[a]->combine(into, *other.aggs_[a], g);
    }
  }

  // Group numbers of this worker's hash table by partition (hash bits above the table's).
  std::vector<std::vector<uint32_t>> partition_groups(size_t partitions) const {
    std::vector<std::vector<uint32_t>> out(partitions);
    const int shift = 64 - std::countr_zero(partitions);
    for (size_t g = 0; g < index_->groups(); ++g) {
      out[index_->group_hash(g) >> shift].push_back(static_cast<uint32_t>(g));
    }
    return out;
  }

  size_t groups() const { return index_->groups(); }

  // The worker's groups and states, keys as the row path holds them.
  PartialGroups take() {
    PartialGroups out;
    out.strings = in_.strings;
    out.keys.reserve(group_bound());
    out.states.reserve(group_bound());
    each_group([&](std::vector<Value> keys, size_t g) {
      out.keys.push_back(std::move(keys));
      std::vector<AggState> states(aggs_.size());
      for (size_t a = 0; a < aggs_.size(); ++a) aggs_[a]->to_state(g, states[a]);
      out.states.push_back(std::move(states));
    });
    return out;
  }

  // Group g's keys and aggregate finals (g null: the finals of no rows, the one row of an
  // aggregated query without GROUP BY over no input). Groups may be read on several
  // threads at once, each group once.
  void read_group(const size_t* g, Value* keys, Value* aggregates) {
    for (size_t k = 0; g && k < keys_.size(); ++k) keys[k] = key_value(*g, k);
    for (size_t a = 0; a < aggs_.size(); ++a) {
      AggState state;
      if (g) aggs_[a]->to_state(*g, state);
      aggregates[a] = agg_final(state, in_.specs[a]);
    }
  }

  // The group numbers in use, in order.
  std::vector<uint32_t> used_groups() const {
    std::vector<uint32_t> used;
    used.reserve(group_bound());
    for (size_t g = 0; g < index_->groups(); ++g) {
      if (index_->used(g)) used.push_back(static_cast<uint32_t>(g));
    }
    return used;
  }

  bool has_keys() const { return !keys_.empty(); }

 private:
  // Calls visit(keys, g) for each group, its keys as the row path holds them.
  template <typename Visit>
  void each_group(Visit&& visit) {
    for (size_t g = 0; g < index_->groups(); ++g) {
      if (!index_->used(g)) continue;
      std::vector<Value> keys;
      keys.reserve(keys_.size());
      for (size_t k = 0; k < keys_.size(); ++k) keys.push_back(key_value(g, k));
      visit(std::move(keys), g);
    }
  }

  // The groups a hash table holds (a direct table numbers every possible key: no bound).
  size_t group_bound() const { return in_.plan.direct ? 0 : index_->groups(); }

  void compile_keys(const VecEnv& env) {
    for (size_t k = 0; k < in_.query.group_keys.size(); ++k) {
      const int codes = in_.plan.key_codes[k];
      if (codes >= 0) {
        keys_.push_back(&columns_[static_cast<size_t>(codes)]);
        continue;
      }
      key_ops_.push_back(compile_vector(*in_.query.group_keys[k], env));
      keys_.push_back(&key_ops_.back()->out());
    }
  }

  Value key_value(size_t g, size_t k) const {
    if (index_->key_null(g, k)) return Value();
    const int128 payload = index_->key_payload(g, k);
    const int codes = in_.plan.key_codes[k];
    if (codes >= 0) {
      return Value::from_int(
          in_.code_to_id[static_cast<size_t>(codes)][static_cast<size_t>(payload)]);
    }
    const Type& type = in_.query.group_keys[k]->type;
    if (type.is_float())
      return Value::from_double(std::bit_cast<double>(static_cast<int64_t>(payload)));
    if (type.is_exact128()) return Value::from_decimal(payload);
    return Value::from_int(static_cast<int64_t>(payload));
  }

  void decode(bool filter_columns, size_t begin, const Sel& sel) {
    for (size_t c = 0; c < columns_.size(); ++c) {
      const bool wanted = filter_columns ? in_.plan.filter_reads[c]
                                         : in_.plan.others_read[c] && !in_.plan.filter_reads[c];
      if (wanted) in_.decoder.decode(c, begin, sel, columns_[c]);
    }
  }

  // The rows of the batch the filter keeps (a dense selection when it keeps them all).
  Sel select(const Sel& all) {
    filter_->eval(all);
    const Vec& f = filter_->out();
    uint16_t* idx = selected_.rows.data();
    size_t n = 0;
    for (uint32_t r = 0; r < all.n; ++r) {
      idx[n] = static_cast<uint16_t>(r);
      n += !f.is_null(r) && f.i[r] != 0;
    }
    selected_.n = n;
    return n == all.n ? all : selected_.sel();
  }

  void batch(size_t begin, size_t n) {
    const Sel all{nullptr, n, true};
    decode(true, begin, all);
    const Sel sel = filter_ ? select(all) : all;
    if (sel.n == 0) return;
    decode(false, begin, sel);
    for (auto& op : key_ops_) op->eval(sel);
    index_->assign(keys_, sel, gids_.data());
    if (!in_.plan.direct) {
      for (auto& agg : aggs_) agg->resize(index_->groups());
    }
    const uint32_t* gids = keys_.empty() ? nullptr : gids_.data();
    for (size_t a = 0; a < aggs_.size(); ++a) {
      if (args_[a]) args_[a]->eval(sel);
      if (second_args_[a]) {
        second_args_[a]->eval(sel);
        aggs_[a]->update_pair(args_[a]->out(), second_args_[a]->out(), sel, gids);
        continue;
      }
      aggs_[a]->update(args_[a] ? &args_[a]->out() : nullptr, sel, gids);
    }
  }

  const QueryInputs& in_;
  std::vector<Vec> columns_;
  VecOpPtr filter_;
  std::vector<VecOpPtr> key_ops_;
  std::vector<const Vec*> keys_;
  std::vector<VecOpPtr> args_;
  std::vector<VecOpPtr> second_args_;  // the second arguments of aggregates of two, else null
  std::vector<std::unique_ptr<AggColumn>> aggs_;
  std::unique_ptr<GroupIndex> index_;
  std::vector<uint32_t> gids_ = std::vector<uint32_t>(kBatchRows);
  SelBuffer selected_;
};

std::optional<std::string> expr_unsupported(const ExprPtr& e) {
  return e ? vector_unsupported(*e) : std::nullopt;
}

size_t state_bytes(const QueryInputs& in) {
  size_t bytes = 0;
  std::vector<Vec> none;
  const VecEnv env = in.env(&none);
  for (size_t a = 0; a < in.specs.size(); ++a) {
    const auto& call = in.query.aggregates[a];
    const Phys phys = call.arg ? vector_phys(*call.arg, env) : Phys::I64;
    bytes += make_agg_column(in.specs[a], phys)->bytes_per_group();
  }
  return bytes;
}

}  // namespace

std::optional<std::string> vector_path_unsupported(const BoundSelect& query, const Table* table) {
  if (!table) return "a query without FROM";
  if (!query.aggregated) return "a query without aggregates or GROUP BY";
  if (query.group_keys.size() > 64) return "more than 64 group keys";
  if (auto why = expr_unsupported(query.filter)) return why;
  for (const auto& key : query.group_keys) {
    if (auto why = expr_unsupported(key)) return why;
  }
  for (const auto& call : query.aggregates) {
    if (auto why = expr_unsupported(call.arg)) return why;
    if (auto why = expr_unsupported(call.key)) return why;
    if (!call.order.empty()) return call.text.str() + " (ORDER BY inside an aggregate)";
    // The value ARG_MIN keeps (a string's id included) is the row path's alone.
    if (call.key && aggregate_state(call.kind, call.arg->type).returns_argument) {
      return call.text.str() + " (an aggregate of two arguments that returns one)";
    }
  }
  return std::nullopt;
}

namespace {

// From this many groups in the workers' hash tables, they merge partition by partition on
// all workers instead of one after another into the first, which on 16 cores left the
// others idle through most of a 1.5 M-group query.
constexpr size_t kPartitionedMergeGroups = size_t{1} << 16;
constexpr size_t kMergePartitions = 64;

// The query's groups after the merge: one table (the first worker's) or one per partition.
struct MergedGroups {
  std::vector<std::unique_ptr<VectorWorker>> tables;
  std::vector<uint64_t> groups;  // each group as its table << 32 | its number there

  void list_groups() {
    for (size_t t = 0; t < tables.size(); ++t) {
      for (uint32_t g : tables[t]->used_groups()) groups.push_back(uint64_t{t} << 32 | g);
    }
  }
};

// Options that run `items` pieces of work, one a morsel, on the query's workers.
CpuOptions per_item_options(const CpuOptions& options) {
  CpuOptions per_item = options;
  per_item.morsel_rows = 1;
  per_item.first_row = per_item.end_row = 0;
  per_item.progress = nullptr;
  return per_item;
}

// Merges the workers' hash tables partition by partition, each partition's groups from all
// workers into a table of its own, the partitions on all workers.
MergedGroups merge_partitioned(const QueryInputs& in,
                               std::vector<std::unique_ptr<VectorWorker>>& pool,
                               const CpuOptions& options) {
  const CpuOptions per_item = per_item_options(options);
  const auto workers = static_cast<unsigned>(pool.size());
  std::vector<std::vector<std::vector<uint32_t>>> lists(pool.size());  // [worker][partition]
  run_morsels(pool.size(), workers, per_item, [&](unsigned, const MorselRange& m) {
    lists[m.index] = pool[m.index]->partition_groups(kMergePartitions);
    return false;
  });
  MergedGroups merged;
  for (size_t p = 0; p < kMergePartitions; ++p) {
    merged.tables.push_back(std::make_unique<VectorWorker>(in));
  }
  run_morsels(kMergePartitions, workers, per_item, [&](unsigned, const MorselRange& m) {
    VectorWorker& table = *merged.tables[m.index];
    for (size_t w = 0; w < pool.size(); ++w) {
      for (uint32_t g : lists[w][m.index]) table.absorb_group(*pool[w], g);
    }
    return false;
  });
  return merged;
}

// Runs the query's scan on every worker and merges the workers' groups.
MergedGroups run_merged(const QueryInputs& in, const CpuOptions& options) {
  const Table& table = in.table;
  const unsigned workers = morsel_workers(table.rows(), options);
  std::vector<std::unique_ptr<VectorWorker>> pool;
  for (unsigned t = 0; t < workers; ++t) pool.push_back(std::make_unique<VectorWorker>(in));
  run_morsels(table.rows(), workers, options, [&](unsigned t, const MorselRange& m) {
    pool[t]->run(m);
    return false;
  });
  size_t groups = 0;
  for (const auto& worker : pool) groups += worker->groups();
  MergedGroups merged;
  if (!in.plan.direct && pool.size() > 1 && groups >= kPartitionedMergeGroups) {
    merged = merge_partitioned(in, pool, options);
  } else {
    for (size_t t = 1; t < pool.size(); ++t) pool[0]->absorb(*pool[t]);
    merged.tables.push_back(std::move(pool[0]));
  }
  merged.list_groups();
  return merged;
}

std::unique_ptr<QueryInputs> query_inputs(const BoundSelect& query, const Table& table,
                                          const std::vector<Value>& parameters,
                                          std::shared_ptr<StringHeap> strings) {
  auto in = std::make_unique<QueryInputs>(query, table, parameters, std::move(strings));
  std::vector<Vec> none;
  in->plan = plan_vector(query, table, in->env(&none), state_bytes(*in));
  return in;
}

}  // namespace

PartialGroups run_vector_path(const BoundSelect& query, const Table& table,
                              const std::vector<Value>& parameters, const CpuOptions& options,
                              std::shared_ptr<StringHeap> strings) {
  const auto in = query_inputs(query, table, parameters, std::move(strings));
  MergedGroups merged = run_merged(*in, options);
  PartialGroups out = merged.tables[0]->take();
  for (size_t t = 1; t < merged.tables.size(); ++t) {
    PartialGroups part = merged.tables[t]->take();
    std::move(part.keys.begin(), part.keys.end(), std::back_inserter(out.keys));
    std::move(part.states.begin(), part.states.end(), std::back_inserter(out.states));
  }
  return out;
}

Result run_vector_query(const BoundSelect& query, const Table& table,
                        const std::vector<Value>& parameters, const CpuOptions& options,
                        std::shared_ptr<StringHeap> strings) {
  const auto in = query_inputs(query, table, parameters, strings);
  MergedGroups merged = run_merged(*in, options);
  // Finals are read group by group as the outputs need them: no Value held per cell.
  const GroupReader read = [&](size_t i, Value* keys, Value* aggregates) {
    const uint64_t id = merged.groups[i];
    const auto g = static_cast<size_t>(static_cast<uint32_t>(id));
    merged.tables[id >> 32]->read_group(&g, keys, aggregates);
  };
  const GroupReader no_rows = [&](size_t, Value*, Value* aggregates) {
    merged.tables[0]->read_group(nullptr, nullptr, aggregates);
  };
  // An aggregated query without GROUP BY has its one row even over no input.
  const bool one_empty_row = !merged.tables[0]->has_keys() && merged.groups.empty();
  Result result = finish_result(
      query,
      evaluate_group_outputs(query, one_empty_row ? 1 : merged.groups.size(),
                             one_empty_row ? no_rows : read, parameters, strings.get()),
      parameters, strings);
  result.device = "cpu";
  return result;
}

}  // namespace tally
