// How a load (COPY, read_csv, a file in FROM) looks on stderr: its --timing line, and the
// progress line of a long one on a terminal.
#pragma once

#include <functional>
#include <string>

#include "runtime/load/load_report.h"

namespace tally::cli {

// "load: 2,000,000 rows, 96.1 MB in 1.21 s (79 MB/s)"; for gzip the bytes on disk follow
// the text's: "96.1 MB (21.0 MB gzip)". MB are 10^6 bytes, of the text parsed.
std::string load_timing_line(const LoadStats& stats);

// For ExecOptions::load_progress: once a load has run for TALLY_PROGRESS_DELAY seconds (1
// when unset), one line on stderr ("loading: 45% of 96.1 MB, 79 MB/s") updated in place.
// Empty when stderr is not a terminal, so pipes, files and tests never see it.
std::function<void(const LoadProgress&)> terminal_progress_line();

// Clears the progress line, if one is shown, before anything else is printed.
void clear_progress_line();

}  // namespace tally::cli
