// Process-wide, thread-safe, one-time loading of a dlopen'ed API table. A failure is kept
// and rethrown to every later caller, so a missing library costs one dlopen, not one per
// call, and every caller sees the same message.
#pragma once

#include <optional>

#include "compiler/common/error.h"

namespace tally::cuda {

template <class Api, Api (*load)()>
const Api& load_once() {
  struct Loaded {
    std::optional<Api> api;
    std::optional<Error> failure;
    Loaded() {
      try {
        api = load();
      } catch (const Error& e) {
        failure = e;
      }
    }
  };
  static const Loaded loaded;
  if (loaded.failure) throw *loaded.failure;
  return *loaded.api;
}

}  // namespace tally::cuda
