#include "runtime/load/parallel.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace tally {

// The CPUs this process may run on (taskset, container cpusets), else all of them.
size_t worker_threads() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
    return static_cast<size_t>(CPU_COUNT(&set));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

void run_parallel(size_t count, const std::function<void(size_t task)>& task) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < count; i = next++) {
      try {
        task(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  size_t threads = std::min(worker_threads(), count);
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
  for (auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

std::vector<ColumnBuilder> builders_for(const TableSchema& schema) {
  std::vector<ColumnBuilder> builders;
  builders.reserve(schema.columns.size());
  for (const auto& column : schema.columns) builders.emplace_back(column.type);
  return builders;
}

TablePtr join_parts(TableSchema schema, std::vector<std::vector<ColumnBuilder>> parts) {
  auto table = std::make_shared<Table>();
  table->columns.resize(schema.columns.size());
  run_parallel(schema.columns.size(), [&](size_t c) {
    std::vector<ColumnBuilder> column_parts;
    column_parts.reserve(parts.size());
    for (auto& part : parts) column_parts.push_back(std::move(part[c]));
    table->columns[c] = ColumnBuilder::finish_parts(column_parts);
  });
  table->schema = std::move(schema);
  return table;
}

TablePtr build_table_parallel(TableSchema schema, size_t items, const FillChunk& fill) {
  // A few chunks per thread evens out chunks that happen to be slower.
  size_t chunks = std::clamp<size_t>(items / 16384, 1, worker_threads() * 4);
  std::vector<std::vector<ColumnBuilder>> parts(chunks);
  run_parallel(chunks, [&](size_t chunk) {
    parts[chunk] = builders_for(schema);
    fill(parts[chunk], items * chunk / chunks, items * (chunk + 1) / chunks);
  });
  return join_parts(std::move(schema), std::move(parts));
}

}  // namespace tally
