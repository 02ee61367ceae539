// Adaptive compilation's choice between the GPU and the CPU engine while the kernels
// compile: every condition (runtime/session/adaptive_compile.h).
#include "runtime/session/adaptive_compile.h"

#include <doctest/doctest.h>

#include <string>

namespace tally {
namespace {

// Every fact allowing a compile in the background.
AdaptiveCompileFacts allowing() {
  AdaptiveCompileFacts facts;
  facts.enabled = true;
  facts.device_auto = true;
  facts.compile_only = false;
  facts.gpu_usable = true;
  facts.rows = 1000;
  facts.max_rows = 2000;
  return facts;
}

// The choice for `facts` when the caches say `state`, and how often they were asked.
struct Choice {
  AdaptiveChoice choice;
  int lookups = 0;
};
Choice choose(const AdaptiveCompileFacts& facts, KernelState state = KernelState::Missing) {
  Choice c{AdaptiveChoice::Gpu};
  c.choice = choose_adaptive_compile(facts, [&] {
    ++c.lookups;
    return state;
  });
  return c;
}

TEST_CASE("adaptive compile: missing kernels over a small table run on the CPU engine") {
  Choice c = choose(allowing());
  CHECK(c.choice == AdaptiveChoice::CpuWhileCompiling);
  CHECK(c.lookups == 1);
  AdaptiveCompileFacts at_limit = allowing();
  at_limit.rows = at_limit.max_rows;
  CHECK(choose(at_limit).choice == AdaptiveChoice::CpuWhileCompiling);
}

TEST_CASE("adaptive compile: kernels in a cache or failed before run on the GPU") {
  CHECK(choose(allowing(), KernelState::Cached).choice == AdaptiveChoice::Gpu);
  // The foreground compile then reports the error the background one dropped.
  CHECK(choose(allowing(), KernelState::FailedInBackground).choice == AdaptiveChoice::Gpu);
}

TEST_CASE("adaptive compile: each fact against it keeps the GPU without a cache lookup") {
  AdaptiveCompileFacts off = allowing();
  off.enabled = false;
  AdaptiveCompileFacts gpu_asked = allowing();
  gpu_asked.device_auto = false;
  AdaptiveCompileFacts compiling_ahead = allowing();
  compiling_ahead.compile_only = true;
  AdaptiveCompileFacts no_gpu = allowing();
  no_gpu.gpu_usable = false;
  AdaptiveCompileFacts large = allowing();
  large.rows = large.max_rows + 1;
  for (const AdaptiveCompileFacts& facts : {off, gpu_asked, compiling_ahead, no_gpu, large}) {
    Choice c = choose(facts);
    CHECK(c.choice == AdaptiveChoice::Gpu);
    CHECK(c.lookups == 0);
  }
}

TEST_CASE("adaptive compile: the notice says the CPU engine ran and why") {
  CHECK(adaptive_compile_notice(1500, true) ==
        "ran on the CPU engine while its GPU kernels compile in the background (1500 rows); a "
        "later run uses the GPU once they are compiled");
  CHECK(adaptive_compile_notice(7, false).find("are still compiling in the background (7 rows)") !=
        std::string::npos);
}

}  // namespace
}  // namespace tally
