// tally's one error type. User errors (bad SQL, bad data, no device) are exceptions that
// carry a kind and, where the error comes from query text, the line and column. The type
// is part of the public library API, so it is defined in include/tally/error.h: internal
// errors reach library users unchanged.
#pragma once

#include "tally/error.h"

namespace tally {

// Throws Error(Unsupported), "<what> is not supported on the GPU yet": how the GPU planner and
// code generator name SQL that the CPU engine runs and they do not.
[[noreturn]] void unsupported_on_gpu(const std::string& what);

}  // namespace tally
