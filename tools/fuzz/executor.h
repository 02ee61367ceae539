// Runs one fuzz case in this process and judges its outcome: a tally::Error with a message
// is a fine answer to hostile SQL (except kind Internal); another exception, an empty
// message, an Internal error, a failing code generator, or a GPU result that differs from
// the CPU engine's is a finding. Crashes and hangs are caught one level up, by the
// process that forked this one (tools/fuzz/runner.h).
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>

#include "tally/engine.h"
#include "tools/fuzz/cases.h"
#include "tools/fuzz/counters.h"

namespace tally {
class Database;
}

namespace tally::fuzz {

struct ExecutorOptions {
  bool gpu = false;       // run each case on a GPU engine too and compare
  int compile_every = 0;  // > 0: every Nth case that succeeds also goes through codegen
  int nvrtc_every = 0;    // > 0: every Nth of those also through NVRTC for sm_90
  unsigned cpu_threads = 1;
  bool verbose = false;  // each case's outcome on stderr
  // Called before an NVRTC compile, and before each GPU run (which compiles): NVRTC alone
  // takes seconds on a busy machine, so the runner gives these a limit of their own (the
  // statement's limit is about the engines).
  std::function<void()> before_nvrtc;
  std::string source_dir = ".";
};

class Executor {
 public:
  explicit Executor(ExecutorOptions options);
  ~Executor();

  // What was wrong, or nothing. Counts outcomes into `counters`.
  std::optional<std::string> run(const FuzzCase& c, uint64_t index, Counters& counters);

 private:
  struct Slot;
  Slot& slot_for(const Context& context);
  void setup_engine(Engine& engine, const Context& context);
  std::optional<std::string> codegen(const FuzzCase& c, Slot& slot, bool nvrtc, Counters& counters);
  std::optional<std::string> differential(const FuzzCase& c, Slot& slot,
                                          const std::optional<ResultSet>& cpu,
                                          const std::optional<Error>& cpu_error,
                                          Counters& counters);

  ExecutorOptions options_;
  std::list<std::unique_ptr<Slot>> slots_;  // most recently used first, a few kept
  uint64_t compiled_ = 0;
};

}  // namespace tally::fuzz
