// runtime/compile/nvrtc_stamp.h: the disk kernel cache remembers NVRTC's version, so a
// fresh process whose statement hits the cache keys it without loading libnvrtc.
#include "runtime/compile/nvrtc_stamp.h"

#include <doctest/doctest.h>

#include <fstream>

#include "runtime/compile/nvrtc.h"
#include "support/shell.h"

using namespace tally;
namespace fs = std::filesystem;

TEST_CASE("nvrtc stamp: round trip and damaged stamps read as none") {
  test::ScratchDir dir("tally_stamp");
  CHECK(!read_nvrtc_stamp(dir.path()).has_value());
  write_nvrtc_stamp(dir.path(), 13000);
  CHECK(read_nvrtc_stamp(dir.path()) == 13000);
  for (const char* text : {"", "abc", "-5", "13000 13010", "0"}) {
    std::ofstream(dir.path() / "nvrtc-version") << text;
    INFO(text);
    CHECK(!read_nvrtc_stamp(dir.path()).has_value());
  }
  write_nvrtc_stamp(dir.path() / "missing" / "deeper", 13000);  // made, or ignored
}

TEST_CASE("nvrtc stamp: a fresh process's disk cache hit does not load libnvrtc") {
  if (!cuda::nvrtc_available()) return;
  test::ScratchDir dir("tally_stamp_cache");
  const std::string env = "-u TALLY_CACHE_DISABLE TALLY_CACHE_DIR=" +
                          test::shell_quote((dir.path() / "cache").string()) + " LD_DEBUG=libs";
  const std::vector<std::string> args = {
      "compile", "--arch", "sm_90", "-e",
      "CREATE TABLE t (k INTEGER, v BIGINT); INSERT INTO t VALUES (1, 2), (1, 3); "
      "SELECT k, SUM(v) FROM t GROUP BY k"};
  const test::TallyRun first = test::run_tally(args, env);
  REQUIRE(first.status == 0);
  CHECK(first.err.find("libnvrtc") != std::string::npos);  // LD_DEBUG reports loads here
  CHECK(read_nvrtc_stamp(dir.path() / "cache") == cuda::nvrtc_version());
  const test::TallyRun second = test::run_tally(args, env);
  REQUIRE(second.status == 0);
  CHECK(second.out.find("(disk cache, loaded in") != std::string::npos);
  CHECK(second.err.find("libnvrtc") == std::string::npos);
}
