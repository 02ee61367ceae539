// Warm-ups on threads of their own while a command loads or generates its data. ANTLR's
// prediction caches (compiler/parse/parser.h: warm_up_parser): a fresh process's first parse
// took 3-6 ms, a warm one under 1. The same thread hashes the device library for the kernel cache's
// keys (runtime/compile/kernel_cache_key.h), 0.6 ms of a fresh process's first disk-cache hit.
// Dropping the returned future waits for the thread.
#pragma once

#include <cstddef>
#include <future>

#include "cli/shared_options.h"
#include "compiler/parse/parser.h"
#include "runtime/compile/kernel_cache_key.h"
#include "runtime/session/database.h"

namespace tally::cli {

// The GPU opened and the interpreter's module loaded beside the data's loading
// (Database::warm_gpu), where statements may run on the GPU and on the interpreter; none
// otherwise (an invalid future).
inline std::future<double> warm_gpu_while_loading(Database& db, const OutputArgs& output) {
  if (parse_device(output.device) == DeviceChoice::Cpu || !output.interpreter ||
      output.compile_only) {
    return {};
  }
  return db.warm_gpu();
}

inline std::future<size_t> warm_parser_while_loading() {
  return std::async(std::launch::async, [] {
    KernelCacheKeyInputs::device_library_digest();
    return warm_up_parser();
  });
}

}  // namespace tally::cli
