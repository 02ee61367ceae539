// The unit tests' main. The kernel cache is off in every test process unless a test names
// its own directory (tests/unit/kernel_cache_test.cpp does), so that no test writes into
// the user's ~/.cache/tally.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("TALLY_CACHE_DISABLE", "1", 1);
  return doctest::Context(argc, argv).run();
}
