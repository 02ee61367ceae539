// PartialResult: an aggregate SELECT's per-group states over one part of its input, and
// Engine::execute_partial, which makes them on the CPU engine.
#include <fmt/format.h>

#include <mutex>

#include "api/engine_impl.h"
#include "api/partial_impl.h"
#include "runtime/cpu/cpu_engine.h"

namespace tally {

void bind_partial(PartialResult::Impl& impl) {
  impl.database = std::make_shared<Database>();
  if (!impl.schema.name.empty()) {
    auto table = std::make_shared<Table>();
    table->schema = impl.schema;
    for (const ColumnSchema& column : impl.schema.columns) {
      table->columns.push_back(ColumnBuilder(column.type).finish());
    }
    impl.database->put_table(std::move(table));
  }
  impl.statement = impl.database->prepare(impl.sql);
}

PartialResult Engine::execute_partial(std::string_view sql) {
  auto impl = std::make_shared<PartialResult::Impl>();
  impl->sql = std::string(sql);
  std::shared_lock lock(impl_->tables_mutex);
  std::shared_ptr<const PreparedSelect> statement = impl_->database.prepare(sql);
  if (!statement->parameter_types().empty()) {
    throw Error(ErrorKind::Unsupported, "partial aggregate states of a statement with parameters");
  }
  const BoundSelect& query = statement->query;
  for (const auto& call : query.aggregates) {
    // A value list per group (MEDIAN, STRING_AGG) has no encoding among partial states.
    if (call.arg && aggregate_state(call.kind, call.arg->type).holistic) {
      throw Error(ErrorKind::Unsupported,
                  fmt::format("partial aggregate states of {} (\"{}\")",
                              aggregate_sql_name(call.kind), call.text.str()));
    }
  }
  TablePtr table = query.table.empty() ? nullptr : impl_->database.table(query.table);
  ExecOptions exec = impl_->exec_options();
  CpuOptions cpu;
  cpu.threads = exec.cpu_threads;
  cpu.cancelled = exec.cancelled;
  cpu.progress = exec.progress;
  cpu.strings = impl->groups.strings;
  impl->groups = run_cpu_partial(query, table.get(), cpu);
  impl->schema = statement->bound_schema;
  bind_partial(*impl);
  // The states' VARCHAR ids and aggregate order follow `query`; the statement bound again
  // against the schema alone is the same query (same tables, same text).
  return PartialResult(std::move(impl));
}

PartialResult::PartialResult(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
PartialResult::PartialResult(PartialResult&&) noexcept = default;
PartialResult& PartialResult::operator=(PartialResult&&) noexcept = default;
PartialResult::~PartialResult() = default;

const std::string& PartialResult::sql() const { return impl_->sql; }
size_t PartialResult::group_count() const { return impl_->groups.keys.size(); }

std::string PartialResult::serialize() const { return encode_partial(*impl_); }

PartialResult PartialResult::deserialize(std::string_view bytes) {
  auto impl = std::make_shared<Impl>();
  decode_partial(bytes, *impl);
  return PartialResult(std::move(impl));
}

void PartialResult::merge(PartialResult& other) {
  if (other.impl_ == impl_) return;
  if (other.impl_->sql != impl_->sql) {
    throw Error(ErrorKind::Data, fmt::format("partial states of different statements cannot "
                                             "merge:\n  {}\n  {}",
                                             impl_->sql, other.impl_->sql));
  }
  if (other.impl_->schema.name != impl_->schema.name ||
      other.impl_->schema.columns != impl_->schema.columns) {
    throw Error(ErrorKind::Data, fmt::format("partial states over tables of different schemas "
                                             "cannot merge (table \"{}\")",
                                             impl_->schema.name));
  }
  combine_partial_groups(impl_->query(), impl_->groups, std::span(&other.impl_->groups, 1));
}

ResultSet PartialResult::finalize() const {
  // Finishing consumes states (DISTINCT sets move): finish a copy made through the codec.
  Impl copy;
  decode_partial(encode_partial(*impl_), copy);
  StatementOutcome outcome;
  outcome.result = finish_partial_groups(copy.query(), std::move(copy.groups));
  outcome.tag = fmt::format("SELECT {}", outcome.result->rows.size());
  return make_result_set(outcome);
}

}  // namespace tally
