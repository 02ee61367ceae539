// Host memory checks (runtime/storage/host_memory.h) and byte sizes in options and
// messages (compiler/common/byte_size.h).
#include "runtime/storage/host_memory.h"

#include <doctest/doctest.h>

#include <new>
#include <string>

#include "compiler/common/byte_size.h"
#include "compiler/common/error.h"

namespace tally {

TEST_CASE("host memory: the budget is known on Linux and a need above it is refused") {
  auto budget = host_memory_budget();
  REQUIRE(budget.has_value());
  CHECK(budget->bytes > 0);
  CHECK_FALSE(budget->limited_by.empty());
  CHECK_NOTHROW(require_host_memory(1 << 20, "a small thing"));
  try {
    require_host_memory(uint64_t{1} << 62, "loading everything");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::OutOfMemory);
    const std::string message = e.what();
    CHECK(message.find("loading everything needs about 4096.0 PiB; ") == 0);
    CHECK(message.find(" is available (" + budget->limited_by + ")") != std::string::npos);
  }
}

TEST_CASE("host memory: std::bad_alloc becomes an out-of-memory error naming the work") {
  try {
    reporting_out_of_memory("the SELECT at line 2", []() -> int { throw std::bad_alloc(); });
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::OutOfMemory);
    CHECK(std::string(e.what()) == "the SELECT at line 2 ran out of host memory");
    CHECK(std::string(error_kind_name(e.kind())) == "out of memory");
  }
  CHECK(reporting_out_of_memory("nothing", [] { return 7; }) == 7);
}

TEST_CASE("byte sizes: units in options and in messages") {
  CHECK(parse_byte_size("1073741824", "--x") == 1073741824);
  CHECK(parse_byte_size("2GiB", "--x") == uint64_t{2} << 30);
  CHECK(parse_byte_size("512 mib", "--x") == uint64_t{512} << 20);
  CHECK(parse_byte_size("3GB", "--x") == 3000000000);
  CHECK(parse_byte_size("64KB", "--x") == 64000);
  CHECK(parse_byte_size("1TiB", "--x") == uint64_t{1} << 40);
  for (const char* bad :
       {"", "GiB", "-1GiB", "2 parsecs", "99999999999999999999", "20000000000TiB"}) {
    CHECK_THROWS_AS(parse_byte_size(bad, "--device-memory-limit"), Error);
  }
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(uint64_t{3} << 29) == "1.5 GiB");
}

}  // namespace tally
