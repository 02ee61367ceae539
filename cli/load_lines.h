// How a load (COPY, read_csv, a file in FROM) looks on stderr: its --timing line.
#pragma once

#include <string>

#include "runtime/load/load_report.h"

namespace tally::cli {

// "load: 2,000,000 rows, 96.1 MB in 1.21 s (79 MB/s)"; for gzip the bytes on disk follow
// the text's: "96.1 MB (21.0 MB gzip)". MB are 10^6 bytes, of the text parsed.
std::string load_timing_line(const LoadStats& stats);

}  // namespace tally::cli
