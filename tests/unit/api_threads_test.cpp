// One Engine used from several threads on the CPU: every statement's result equals the
// same statement run alone, and concurrent INSERTs lose nothing.
#include <doctest/doctest.h>

#include "tests/unit/support/api_workload.h"

namespace tally {
namespace {

TEST_CASE("api threads: concurrent prepared and ad hoc SELECTs on the CPU match single runs") {
  test::check_concurrent_workload(Device::Cpu, 4, 3);
}

}  // namespace
}  // namespace tally
