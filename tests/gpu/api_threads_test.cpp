// One Engine used from several threads on the GPU (queries on the device are serialised
// inside the engine): every statement's result equals the same statement run alone.
#include <doctest/doctest.h>

#include "tests/unit/support/api_workload.h"

namespace tally {
namespace {

TEST_CASE("api threads: concurrent prepared and ad hoc SELECTs on the GPU match single runs") {
  test::check_concurrent_workload(Device::Gpu, 4, 3);
}

}  // namespace
}  // namespace tally
