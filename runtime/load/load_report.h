// What a load (COPY, read_csv, a file in FROM) tells its caller: progress while it runs,
// a way to stop it, and its totals when it ends. The CLI turns these into a progress line,
// Ctrl-C and the --timing line; the loader only counts.
#pragma once

#include <cstdint>
#include <functional>

namespace tally {

struct LoadProgress {
  uint64_t text_bytes = 0;       // delimited text parsed so far (after decompression)
  uint64_t file_bytes_done = 0;  // how far into the file on disk that is (estimated for gzip)
  uint64_t file_bytes = 0;       // the file's size; 0 when unknown (a pipe)
  double seconds = 0;            // since the load started
};

struct LoadStats {
  uint64_t rows = 0;
  uint64_t text_bytes = 0;  // delimited text parsed (after decompression)
  uint64_t file_bytes = 0;  // read from disk
  bool gzip = false;
  double seconds = 0;
};

struct LoadControl {
  // Asked every few MB; true stops the load with Error(Cancelled).
  std::function<bool()> cancelled = {};
  // Called every few MB from any of the loading threads, one call at a time.
  std::function<void(const LoadProgress&)> progress = {};
};

}  // namespace tally
