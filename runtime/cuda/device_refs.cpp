#include "runtime/cuda/device_refs.h"

#include <fmt/format.h>

namespace tally::cuda {
namespace {

std::string assert_layout(const char* type, size_t size, size_t alignment) {
  return fmt::format(
      "static_assert(sizeof(tally::{0}) == {1} && alignof(tally::{0}) == {2}, \"{0}: host and "
      "device disagree on its layout\");\n",
      type, size, alignment);
}

}  // namespace

#define TALLY_ASSERT_LAYOUT(device_type, host_type) \
  assert_layout(device_type, sizeof(host_type), alignof(host_type))

std::string device_layout_asserts() {
  return TALLY_ASSERT_LAYOUT("GlobalTableRef", GlobalTableRef) +
         TALLY_ASSERT_LAYOUT("DirectTableRef", DirectTableRef) +
         TALLY_ASSERT_LAYOUT("BitPackedColumn", BitPackedColumn) +
         TALLY_ASSERT_LAYOUT("PlainColumn<i64>", PlainColumn) +
         TALLY_ASSERT_LAYOUT("Validity", Validity);
}

#undef TALLY_ASSERT_LAYOUT

}  // namespace tally::cuda
