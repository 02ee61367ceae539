// Device faults: a statement that runs out of device memory (under a memory limit), one
// whose kernel reports an error and a failed NVRTC compile each give a clear error, leave
// the engine usable for the next statement and leak no device memory. A kernel fault that
// loses the GPU context cannot be recovered in-process (CUDA's rule): its statement fails,
// later GPU statements say why, the CPU engine still runs. CTest runs that case alone.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "compiler/common/error.h"
#include "runtime/cuda/device.h"
#include "runtime/session/database.h"
#include "tests/gpu/gpu_support.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

struct Outcome {
  std::optional<Result> result;
  std::optional<Error> error;
};

Outcome run(Database& db, const std::string& sql, DeviceChoice device, uint64_t limit = 0) {
  ExecOptions options;
  options.device = device;
  options.device_memory_limit = limit;
  options.placement = "device";  // these cases are about device residency, not streaming
  Outcome outcome;
  try {
    db.execute_script(sql, options, [&](const StatementOutcome& o) {
      if (o.result) outcome.result = o.result;
    });
  } catch (const Error& e) {
    outcome.error = e;
  }
  return outcome;
}

// The rows as text, in the order ORDER BY gives them.
std::string rows_text(const Result& r) {
  std::string text;
  for (size_t row = 0; row < r.rows.size(); ++row) {
    for (size_t c = 0; c < r.types.size(); ++c) text += r.cell_text(row, c) + "|";
    text += "\n";
  }
  return text;
}

// The GPU's rows equal the CPU engine's.
void expect_gpu_matches_cpu(Database& db, const std::string& sql) {
  Outcome gpu = run(db, sql, DeviceChoice::Gpu);
  Outcome cpu = run(db, sql, DeviceChoice::Cpu);
  REQUIRE_MESSAGE(gpu.result.has_value(), std::string(gpu.error ? gpu.error->what() : ""));
  REQUIRE(cpu.result.has_value());
  CHECK(gpu.result->device.rfind("gpu", 0) == 0);
  CHECK(rows_text(*gpu.result) == rows_text(*cpu.result));
}

uint64_t in_use(Database& db) {
  Database::GpuMemory memory = db.gpu_memory();
  return memory.held - memory.cached;
}

const char* const kGood = "SELECT zip, COUNT(*), SUM(tax) FROM orders GROUP BY zip ORDER BY zip";
// zip / (zip - zip) divides by zero in the Scan: the kernel reports it in its status word.
const char* const kDivideByZero =
    "SELECT zip, SUM(zip / (zip - zip)) FROM orders GROUP BY zip ORDER BY zip";
const char* const kNeedsMemory =
    "SELECT tax, COUNT(*), SUM(zip) FROM orders GROUP BY tax ORDER BY tax";

}  // namespace

TEST_CASE("gpu faults: out of device memory under a limit is a clear error and nothing leaks") {
  Database db;
  db.put_table(generate_orders_table(1 << 20, 1000, 11));
  expect_gpu_matches_cpu(db, kGood);

  // The resident columns alone pass a 64 KiB limit: the next allocation must fail.
  Outcome limited = run(db, kNeedsMemory, DeviceChoice::Gpu, 64 << 10);
  REQUIRE(limited.error.has_value());
  CHECK(limited.error->kind() == ErrorKind::Device);
  const std::string message = limited.error->what();
  CHECK(message.find("out of device memory while allocating") != std::string::npos);
  CHECK(message.find("the device memory limit is 64.0 KiB") != std::string::npos);

  Outcome divided = run(db, kDivideByZero, DeviceChoice::Gpu);
  REQUIRE(divided.error.has_value());
  CHECK(divided.error->kind() == ErrorKind::Execution);
  Outcome divided_cpu = run(db, kDivideByZero, DeviceChoice::Cpu);
  REQUIRE(divided_cpu.error.has_value());
  CHECK(divided_cpu.error->kind() == ErrorKind::Execution);

  // 1,000 failing statements of both kinds leave the pool's memory in use where it was.
  const uint64_t before = in_use(db);
  int failures = 0;
  for (int i = 0; i < 500; ++i) {
    failures += run(db, kNeedsMemory, DeviceChoice::Gpu, 64 << 10).error.has_value();
    failures += run(db, kDivideByZero, DeviceChoice::Gpu).error.has_value();
  }
  CHECK(failures == 1000);
  CHECK(in_use(db) == before);

  // A failed NVRTC compile (an architecture NVRTC does not know) is Error(Compile).
  ExecOptions bad_arch;
  bad_arch.compile_only = true;
  bad_arch.arch = "sm_1";
  try {
    db.execute_script(kGood, bad_arch, [](const StatementOutcome&) {});
    FAIL("compiled for sm_1");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Compile);
  }

  // The engine is usable afterwards, with and without a limit it fits in.
  expect_gpu_matches_cpu(db, kNeedsMemory);
  Outcome fits = run(db, kGood, DeviceChoice::Gpu, uint64_t{1} << 30);
  REQUIRE(fits.result.has_value());
  CHECK(rows_text(*fits.result) == rows_text(*run(db, kGood, DeviceChoice::Cpu).result));
}

TEST_CASE("gpu faults: a limit smaller than the columns evicts the ones a query does not read") {
  Database db;
  db.put_table(generate_orders_table(1 << 20, 1000, 12));
  db.put_table(generate_atable(1 << 20, 1u << 20, 0, 12));
  const uint64_t limit = 24 << 20;  // orders' or atable's columns, not both
  const std::string orders = kGood;
  const std::string atable =
      "SELECT col1 % 100 AS g, COUNT(*), SUM(col2) FROM atable GROUP BY 1 ORDER BY 1";
  for (int i = 0; i < 3; ++i) {
    for (const std::string& sql : {orders, atable}) {
      Outcome gpu = run(db, sql, DeviceChoice::Gpu, limit);
      REQUIRE_MESSAGE(gpu.result.has_value(), std::string(gpu.error ? gpu.error->what() : ""));
      CHECK(rows_text(*gpu.result) == rows_text(*run(db, sql, DeviceChoice::Cpu).result));
      CHECK(db.gpu_memory().held - db.gpu_memory().cached <= limit);
    }
  }
}

// Run alone (CTest gpu_context_loss): the process cannot use the GPU afterwards.
TEST_CASE(
    "gpu context loss: a kernel fault fails its statement and later ones say why "
    "while the CPU still runs") {
  Database db;
  db.put_table(generate_orders_table(100000, 1000, 13));
  expect_gpu_matches_cpu(db, kGood);

  // A kernel that writes to address 0 in the same (primary) context.
  cuda::Module& module = cuda::test::test_module(
      "extern \"C\" __global__ void write_to_null(int* p) { p[threadIdx.x] = 1; }",
      "context_loss_test.cu");
  bool lost = false;
  try {
    cuda::launch(module.kernel("write_to_null"), {1, 32}, cuda::DevicePtr{0});
    cuda::test::test_device().synchronize();
  } catch (const Error& e) {
    lost = true;
    CHECK(e.kind() == ErrorKind::Device);
    CHECK(std::string(e.what()).find("the GPU context is lost") != std::string::npos);
  }
  REQUIRE(lost);
  REQUIRE(cuda::lost_context().has_value());

  // --device gpu: a clear error naming the first failure, at once.
  Outcome gpu = run(db, kGood, DeviceChoice::Gpu);
  REQUIRE(gpu.error.has_value());
  CHECK(gpu.error->kind() == ErrorKind::Device);
  const std::string message = gpu.error->what();
  CHECK(message.find("the GPU context was lost earlier in this process") == 0);
  CHECK(message.find("illegal memory access") != std::string::npos);
  CHECK(message.find("restart tally") != std::string::npos);

  // --device auto runs on the CPU and says why; --device cpu is unaffected.
  ExecOptions automatic;
  std::optional<StatementOutcome> outcome;
  db.execute_script(kGood, automatic, [&](const StatementOutcome& o) { outcome = o; });
  REQUIRE(outcome.has_value());
  REQUIRE(outcome->result.has_value());
  CHECK(outcome->result->device.rfind("cpu", 0) == 0);
  CHECK(outcome->notice.find("the GPU context was lost") != std::string::npos);
  Outcome cpu = run(db, kGood, DeviceChoice::Cpu);
  REQUIRE(cpu.result.has_value());
  CHECK(rows_text(*cpu.result) == rows_text(*outcome->result));
}

}  // namespace tally
