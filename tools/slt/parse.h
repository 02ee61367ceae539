// Reading a .test file into records.
#pragma once

#include <string>
#include <string_view>

#include "tools/slt/record.h"

namespace tally::slt {

// Throws Error(ErrorKind::Syntax) naming path:line for a line that starts no known record.
TestFile parse_test_file(std::string_view text, const std::string& path);

// Reads and parses a file. Throws Error(ErrorKind::Io) when it cannot be read.
TestFile load_test_file(const std::string& path);

}  // namespace tally::slt
