// Checking that results reached stdout: a write to a full disk or a closed pipe fails
// silently in a stream, so every flush of results checks it and turns a failure into an error.
#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/commands.h"
#include "compiler/common/error.h"

namespace tally::cli {

void flush_results() {
  // A write that failed since the last check left its reason in errno.
  int earlier = errno;
  bool failed = std::ferror(stdout) != 0 || !std::cout.good();
  errno = 0;
  std::cout.flush();
  // std::cout writes through C stdio (synced), so the bytes may still sit in stdout's buffer.
  failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout.good() || failed;
  if (!failed) return;
  int code = errno != 0 ? errno : earlier;
  throw Error(ErrorKind::Io,
              fmt::format("writing results failed: {}",
                          code != 0 ? std::strerror(code) : "the stream is in error"));
}

}  // namespace tally::cli
