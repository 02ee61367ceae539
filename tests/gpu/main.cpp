// The GPU test binary: exits 77 (CTest: skipped) at once when no GPU is usable.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

#include "runtime/cuda/device.h"
#include "tests/gpu/gpu_support.h"

int main(int argc, char** argv) {
  // Tests never write into the user's kernel cache (the cache has its own tests).
  setenv("TALLY_CACHE_DISABLE", "1", 1);
  if (!tally::cuda::gpu_available()) {
    std::puts("no usable GPU: skipping the GPU tests");
    return 77;
  }
  // Opens device 0 and makes its context current before any test allocates memory.
  tally::cuda::test::test_device();
  doctest::Context context(argc, argv);
  return context.run();
}
