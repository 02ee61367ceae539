// NVRTC and driver-loader tests that need no GPU: the whole device library compiles for
// sm_90, compile errors come back as Error(Compile) with the log, and a missing driver or
// device is reported cleanly.
#include "runtime/compile/nvrtc.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "bench/q1_kernels.h"
#include "compiler/codegen/embedded_templates.h"
#include "compiler/common/error.h"
#include "runtime/compile/probe.h"
#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "tests/unit/support/device_refs.h"

namespace tally::cuda {
namespace {

// Includes every template header and calls every device function at least once (each
// overload, each template instantiation), so a header that does not compile, or a function
// that fails to instantiate, fails here and not in a user's query.
const char* const kAllTemplatesKernel = R"cuda(
#include "tally_types.cuh"
#include "tally_hash.cuh"
#include "tally_atomics.cuh"
#include "tally_table_global.cuh"
#include "tally_table_direct.cuh"
#include "tally_table_shared.cuh"
#include "tally_decode.cuh"
#include "tally_reduce.cuh"

using namespace tally;

struct Sink {
  u32 u32s[2]; i32 i32s[2]; u64 u64s[2]; i64 i64s[2]; f32 f32s[2]; f64 f64s[2];
  i128 i128s[2];
};

extern "C" __global__ void all_templates(Sink* sink, GlobalTableRef global, DirectTableRef direct,
                                         BitPackedColumn packed, PlainColumn<i16> small,
                                         PlainColumn<i32> ints, PlainColumn<i64> bigs,
                                         PlainColumn<i128> wides, PlainColumn<f32> reals,
                                         PlainColumn<f64> doubles, PlainColumn<u8> bools,
                                         Validity validity, u64 rows) {
  extern __shared__ __align__(16) char shared_bytes[];
  SharedArena arena{shared_bytes};
  SharedTableRef<u32> table32{arena.take<u32>(128), 128, 128};
  SharedTableRef<u64> table64{arena.take<u64>(64), 64, 16};
  i64* shared_sums = arena.take<i64>(128);
  table32.clear();
  table64.clear();
  shared_fill<i64>(shared_sums, 128, 0);
  if (threadIdx.x == 0) global_table_clear(global);
  __syncthreads();

  i64 local_sum = 0;
  f64 local_double = 0;
  i128 local_wide = 0;
  for (u64 row = global_thread_index(); row < rows; row += grid_stride()) {
    if (!validity.valid(row) || status_raised(global.status)) continue;
    const i64 key = packed.get(row);
    const i128 wide = wides.get(row) + (i128)small.get(row) + (i128)bools.get(row);
    local_sum += key + ints.get(row) + bigs.get(row);
    local_double += doubles.get(row) + reals.get(row);
    local_wide += wide;

    const i32 s32 = table32.insert_or_find((u32)key);
    if (s32 >= 0) atomic_add(&shared_sums[s32], key);
    const i32 s64 = table64.insert_or_find((u64)key);
    const i64 g = global.insert_or_find(hash_combine((u64)key, (u64)s64));
    if (g >= 0 && global.find((u64)key) != GlobalTableRef::kNoSlot) {
      atomic_add(&sink->u64s[0], global.key_at((u64)g));
    }
    MixedRadix radix;
    radix.add_key(key, -5, 100);
    radix.add_digit(row & 1, 2);
    radix.add_nullable_key(validity.valid(row + 1), key, 0, 7);
    const i64 d = direct.slot(radix) + direct.slot(key, 0);
    atomic_add(&sink->u32s[0], (u32)d);
    atomic_add(&sink->i32s[0], (i32)mixed_radix_digit((u64)d, 2, 100));
    atomic_add(&sink->u64s[1], unpack_bits(packed.words, row, 13) + fmix64(row) + fmix32((u32)row));
    // A lane's second chunk of 16 rows of its block (the step not a constant here).
    LaneChunk<13, 16> chunk;
    chunk.load(packed.words + (row >> 10) * 32 * 13 + (row & 31), 1);
    atomic_add(&sink->u32s[0], chunk.field(1, (u32)(row >> 5) & 15));
    atomic_add(&sink->i64s[0], key);
    atomic_add(&sink->f32s[0], reals.get(row));
    atomic_add(&sink->f64s[0], doubles.get(row));
    atomic_add(&sink->i128s[0], wide);
    atomic_min(&sink->u32s[1], (u32)key);
    atomic_max(&sink->u32s[1], (u32)key);
    atomic_min(&sink->i32s[1], ints.get(row));
    atomic_max(&sink->i32s[1], ints.get(row));
    atomic_min(&sink->u64s[1], (u64)key);
    atomic_max(&sink->u64s[1], (u64)key);
    atomic_min(&sink->i64s[1], bigs.get(row));
    atomic_max(&sink->i64s[1], bigs.get(row));
    atomic_min(&sink->f32s[1], reals.get(row));
    atomic_max(&sink->f32s[1], reals.get(row));
    atomic_min(&sink->f64s[1], doubles.get(row));
    atomic_max(&sink->f64s[1], doubles.get(row));
    atomic_min(&sink->i128s[1], wide);
    atomic_max(&sink->i128s[1], wide);
    atomic_and(&sink->i64s[1], bigs.get(row));
    atomic_or(&sink->i64s[1], bigs.get(row));
    atomic_xor(&sink->i64s[1], bigs.get(row));
    atomic_mul(&sink->f64s[1], doubles.get(row));
  }
  __syncthreads();
  table32.for_each_occupied([&](u32 slot, u32 key) {
    const i64 g = global.insert_or_find(key);
    if (g >= 0) atomic_add(&sink->i64s[0], shared_sums[slot]);
  });
  table64.for_each_occupied([&](u32 slot, u64 key) { atomic_add(&sink->u64s[0], key + slot); });

  const i64 sum = warp_sum(local_sum);
  const f64 dsum = warp_sum(local_double);
  const i128 wsum = warp_sum(local_wide);
  const i32 imin = warp_min((i32)local_sum);
  const i64 imax = warp_max(local_sum);
  const f64 dmin = warp_min(local_double);
  const f32 fmax = warp_max((f32)local_double);
  const i128 wmin = warp_min(local_wide);
  const i128 wmax = warp_max(local_wide);
  const i64 bits = warp_and(local_sum) + warp_or(local_sum) + warp_xor(local_sum) +
                   and_of(local_sum, imax) + or_of(local_sum, imax) + xor_of(local_sum, imax);
  const f64 product = warp_mul(local_double) * mul_of(local_double, dmin);
  if (is_lane_zero()) {
    atomic_add(&sink->i64s[0], sum + imin + imax + bits);
    atomic_add(&sink->f64s[0], product);
    atomic_add(&sink->f64s[0], dsum + dmin + fmax);
    atomic_add(&sink->i128s[0], wsum + wmin + wmax);
    if (i128_load_relaxed(&sink->i128s[1]) == 0) raise_status(global.status, kStatusTableFull);
  }
}
)cuda";

bool has_template(const std::string& name) {
  for (const EmbeddedFile& file : embedded_templates()) {
    if (name == file.name) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("every device template header is embedded") {
  for (const char* name : {"tally_types.cuh", "tally_hash.cuh", "tally_atomics.cuh",
                           "tally_table_global.cuh", "tally_table_direct.cuh",
                           "tally_table_shared.cuh", "tally_decode.cuh", "tally_reduce.cuh"}) {
    CHECK_MESSAGE(has_template(name), name);
  }
}

TEST_CASE("NVRTC compiles the whole device library to an sm_90 cubin") {
  if (!nvrtc_available()) {
    MESSAGE("libnvrtc.so.13 cannot be loaded here: skipping");
    return;
  }
  CHECK(nvrtc_version() >= 12000);
  const CompiledKernel kernel = compile_cuda(kAllTemplatesKernel, "all_templates.cu");
  CHECK_FALSE(kernel.is_ptx);
  REQUIRE(kernel.image.size() > 4);
  // A cubin is an ELF file.
  CHECK(std::string(kernel.image.begin(), kernel.image.begin() + 4) ==
        "\x7f"
        "ELF");
  CHECK(kernel.compile_ms > 0);
  MESSAGE("NVRTC compile of the all-templates kernel: " << kernel.compile_ms << " ms, "
                                                        << kernel.image.size() << " bytes");
}

TEST_CASE("host mirrors of the device refs have the device structs' sizes") {
  if (!nvrtc_available()) return;
  const std::string source =
      "#include \"tally_table_direct.cuh\"\n#include \"tally_decode.cuh\"\n" +
      device_layout_asserts() + "__global__ void k() {}\n";
  CHECK(source.find("static_assert(sizeof(tally::GlobalTableRef) == 40") != std::string::npos);
  CHECK_NOTHROW(compile_cuda(source, "layout.cu"));
}

TEST_CASE("the Q1 benchmark's hand-written kernel compiles - both variants") {
  if (!nvrtc_available()) return;
  // TPC-H lineitem's widths and bases at SF 10, as the bench writes them from the table.
  const std::string columns =
      "#define QTY_BITS 13u\n#define QTY_BASE 100u\n#define PRICE_BITS 24u\n"
      "#define PRICE_BASE 90100u\n#define DISC_BITS 4u\n#define DISC_BASE 0u\n"
      "#define TAX_BITS 4u\n#define TAX_BASE 0u\n#define FLAG_BITS 2u\n#define FLAG_BASE 0u\n"
      "#define STATUS_BITS 1u\n#define STATUS_BASE 0u\n#define SHIP_BITS 12u\n"
      "#define SHIP_BASE 8036u\n";
  CHECK_NOTHROW(
      compile_cuda(columns + "#define BLOCK 256\n#define MIN_BLOCKS 1\n" + bench::kHandQ1Kernel,
                   "hand_q1_registers.cu"));
  CHECK_NOTHROW(
      compile_cuda(columns + "#define BLOCK 128\n#define MIN_BLOCKS 8\n#define SHARED_TABLES 1\n" +
                       bench::kHandQ1Kernel,
                   "hand_q1_shared.cu"));
  // Other chunk sizes, for experiments.
  CHECK_NOTHROW(compile_cuda(columns +
                                 "#define BLOCK 128\n#define MIN_BLOCKS 8\n#define "
                                 "SHARED_TABLES 1\n#define CHUNK_ROWS 4\n" +
                                 bench::kHandQ1Kernel,
                             "hand_q1_chunk4.cu"));
}

// The PTX of `source` compiled for compute_90, checked to hold the entry `k`.
std::string compile_ptx(const std::string& source, const char* name) {
  CompileOptions options;
  options.arch = "compute_90";
  const CompiledKernel kernel = compile_cuda(source, name, options);
  CHECK(kernel.is_ptx);
  std::string ptx(kernel.image.begin(), kernel.image.end());
  CHECK(ptx.find(".entry k") != std::string::npos);
  return ptx;
}

TEST_CASE("NVRTC can emit PTX for a virtual architecture") {
  if (!nvrtc_available()) return;
  compile_ptx(
      "#include \"tally_hash.cuh\"\nextern \"C\" __global__ void k(u64* p) { *p = "
      "tally::fmix64(*p); }\n",
      "ptx.cu");
}

// A comparison of DECIMALs at two scales multiplies by 10^(scale difference). NVRTC kept
// pow10_i128's loop (a 128-bit product a turn) in every row when it was a loop over n, which
// made `l_quantity < 10` cost 3x a whole TPC-H Q1 (bench/RESULTS.md, session 39).
TEST_CASE("a DECIMAL comparison across scales folds its power of ten into a constant") {
  // Experiments' $TALLY_NVRTC_OPTIONS (--Ofast-compile=max) fold less: the check is for
  // the options tally compiles with.
  if (!nvrtc_available() || std::getenv("TALLY_NVRTC_OPTIONS") != nullptr) return;
  const std::string ptx = compile_ptx(
      "#include \"tally_sql.cuh\"\nextern \"C\" __global__ void k(const i64* in, int* out) {\n"
      "  for (int i = threadIdx.x; i < 1024; i += blockDim.x)\n"
      "    out[i] = tally::cmp_decimal(in[i], 2, (i128)10, 0) + tally::cmp_decimal(in[i], 2, "
      "(i128)30, 1);\n}\n",
      "fold.cu");
  CHECK(ptx.find("mul.hi") == std::string::npos);  // no 128-bit product left
  CHECK(ptx.find("1000") != std::string::npos);    // 10 at scale 2
  CHECK(ptx.find("300") != std::string::npos);     // 30 at scale 1, scaled to 2
}

TEST_CASE("a CUDA compile error becomes Error(Compile) with the log and the failing line") {
  if (!nvrtc_available()) return;
  const std::string source =
      "extern \"C\" __global__ void broken(int* out) {\n"
      "  *out = undeclared_thing + 1;\n"
      "}\n";
  try {
    compile_cuda(source, "broken.cu");
    FAIL("a broken source compiled");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Compile);
    const std::string message = e.what();
    CHECK(message.find("broken.cu") != std::string::npos);
    CHECK(message.find("undeclared_thing") != std::string::npos);  // from the log
    CHECK(message.find("broken.cu line 2:   *out = undeclared_thing + 1;") != std::string::npos);
  }
}

TEST_CASE("compile options reach NVRTC") {
  CompileOptions options;
  options.extra.push_back("-DTALLY_TEST=1");
  const std::vector<std::string> args = nvrtc_arguments(options);
  auto has = [&](const std::string& arg) {
    return std::find(args.begin(), args.end(), arg) != args.end();
  };
  CHECK(has("-arch=sm_90"));
  CHECK(has("-std=c++17"));
  CHECK(has("-default-device"));
  CHECK(has("-fmad=false"));
  CHECK(has("-DTALLY_TEST=1"));
  CHECK_FALSE(has("--use_fast_math"));
  if (!nvrtc_available()) return;
  // The extra define is visible to the source: this only compiles when it is set.
  compile_cuda("#if TALLY_TEST != 1\n#error no define\n#endif\n__global__ void k() {}\n",
               "define.cu", options);
}

TEST_CASE("the driver loader fails cleanly without a GPU and works with one") {
  bool available = false;
  CHECK_NOTHROW(available = gpu_available());
  try {
    Device device(0);
    CHECK(available);
    CHECK_FALSE(device.profile().name.empty());
    CHECK(device.profile().sm_count > 0);
  } catch (const Error& e) {
    CHECK_FALSE(available);
    CHECK(e.kind() == ErrorKind::Device);
    CHECK(std::string(e.what()).size() > 10);
    MESSAGE("no device here: " << std::string(e.what()));
  }
  // The probe describes whatever it finds without throwing.
  std::string description;
  CHECK_NOTHROW(description = describe_devices());
  CHECK_FALSE(description.empty());
}

TEST_CASE("the buffer pool's size classes waste at most a quarter above 1 KiB") {
  CHECK(BufferPool::size_class(1) == 256);
  CHECK(BufferPool::size_class(256) == 256);
  CHECK(BufferPool::size_class(257) == 512);
  CHECK(BufferPool::size_class(1000) == 1024);
  CHECK(BufferPool::size_class(1025) == 1280);
  CHECK(BufferPool::size_class(uint64_t{12} << 30) == uint64_t{12} << 30);
  for (uint64_t bytes = 1; bytes < (uint64_t{1} << 40); bytes = bytes * 3 + 1) {
    const uint64_t size_class = BufferPool::size_class(bytes);
    CHECK(size_class >= bytes);
    CHECK(size_class % 256 == 0);
    CHECK((bytes < 1024 || size_class <= bytes + bytes / 4));
  }
}

}  // namespace tally::cuda
