// SELECT: bind, choose the engine, run, and report which engine ran.
#include <fmt/format.h>

#include <chrono>

#include "compiler/binder.h"
#include "compiler/evaluator.h"
#include "runtime/cpu/cpu_engine.h"
#include "runtime/database.h"

namespace tally {

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Parameter values arrive as text (CLI, tally exec) and take the types the binder inferred.
std::vector<Value> convert_parameters(const BoundSelect& query,
                                      const std::vector<std::string>& texts, StringHeap& strings) {
  if (texts.size() != query.parameter_types.size()) {
    throw Error(
        ErrorKind::Execution,
        fmt::format("the statement has {} parameter{} but {} value{} given",
                    query.parameter_types.size(), query.parameter_types.size() == 1 ? "" : "s",
                    texts.size(), texts.size() == 1 ? " was" : "s were"));
  }
  std::vector<Value> values;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (texts[i] == "NULL") {
      values.push_back(Value());
      continue;
    }
    try {
      Value text = Value::from_int(strings.intern(texts[i]));
      values.push_back(cast_value(text, Type::varchar(), query.parameter_types[i], &strings));
    } catch (const Error& e) {
      throw Error(ErrorKind::Execution, fmt::format("parameter ${}: {}", i + 1, e.what()));
    }
  }
  return values;
}

}  // namespace

StatementOutcome Database::run_select(const ast::SelectStmt& stmt, int parameter_count,
                                      const ExecOptions& options) {
  StatementOutcome outcome;
  auto start = std::chrono::steady_clock::now();
  BoundSelect query = bind_select(stmt, *this, parameter_count);
  outcome.timings.bind_ms = ms_since(start);
  if (options.explain) outcome.explain = explain(query);
  if (options.device == DeviceChoice::Gpu) {
    throw Error(ErrorKind::Unsupported,
                "--device gpu: this build has no GPU engine yet; use --device cpu or auto");
  }
  if (options.device == DeviceChoice::Auto) {
    outcome.notice = "ran on the CPU engine (--device auto: the GPU engine is not built yet)";
  }
  TablePtr input = query.table.empty() ? nullptr : table(query.table);
  if (!query.table.empty() && !input) {
    throw Error(ErrorKind::Catalog, fmt::format("table \"{}\" does not exist", query.table));
  }
  start = std::chrono::steady_clock::now();
  auto strings = std::make_shared<StringHeap>();
  std::vector<Value> parameters = convert_parameters(query, options.parameters, *strings);
  CpuOptions cpu;
  cpu.strings = strings;
  outcome.result = run_cpu(query, input.get(), parameters, cpu);
  outcome.timings.execute_ms = ms_since(start);
  outcome.tag = fmt::format("SELECT {}", outcome.result->rows.size());
  return outcome;
}

}  // namespace tally
