// Fills ANTLR's prediction caches (compiler/parse/parser.h: warm_up_parser) on a thread of its
// own while a command loads or generates its data: a fresh process's first parse took 3-6 ms,
// a warm one under 1. The same thread hashes the device library for the kernel cache's keys
// (runtime/compile/kernel_cache_key.h), 0.6 ms of a fresh process's first disk-cache hit.
// Dropping the returned future waits for the thread.
#pragma once

#include <cstddef>
#include <future>

#include "compiler/parse/parser.h"
#include "runtime/compile/kernel_cache_key.h"

namespace tally::cli {

inline std::future<size_t> warm_parser_while_loading() {
  return std::async(std::launch::async, [] {
    KernelCacheKeyInputs::device_library_digest();
    return warm_up_parser();
  });
}

}  // namespace tally::cli
