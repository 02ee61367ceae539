// The GPU test binary: exits 77 (CTest: skipped) at once when no GPU is usable.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "runtime/cuda/device.h"
#include "tests/gpu/gpu_support.h"

int main(int argc, char** argv) {
  if (!tally::cuda::gpu_available()) {
    std::puts("no usable GPU: skipping the GPU tests");
    return 77;
  }
  // Opens device 0 and makes its context current before any test allocates memory.
  tally::cuda::test::test_device();
  doctest::Context context(argc, argv);
  return context.run();
}
