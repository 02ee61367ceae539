// Byte counts as people read and write them: "12.0 GiB" in messages, and "512MiB",
// "2GB" or "1073741824" in options such as --device-memory-limit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tally {

// "12.0 GiB", "512 B".
std::string format_bytes(uint64_t bytes);

// A number with an optional unit: B, KB/MB/GB/TB (powers of 1000) or KiB/MiB/GiB/TiB
// (powers of 1024), any case, spaces allowed before the unit. Throws Error(Unsupported)
// naming `option` for anything else.
uint64_t parse_byte_size(std::string_view text, std::string_view option);

}  // namespace tally
