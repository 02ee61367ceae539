// templates/tally_decode.cuh: bit-packed (frame of reference) columns at every width,
// validity bitmaps and plain columns of every width decode on the GPU to exactly the
// values the CPU's Column holds. Bit-packed columns go to the GPU in the device layout
// (runtime/gpu/device_layout.h), with the executor's padding after them; they are read by
// random access (BitPackedColumn::get, unpack_bits) and, for fields of fewer than 32 bits,
// the way a scan reads a lane's rows, a chunk at a time (LaneChunk).
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "compiler/common/value.h"
#include "runtime/gpu/device_layout.h"
#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/device_refs.h"
#include "tests/unit/support/packed_fields.h"

namespace tally::cuda::test {
namespace {

const char* const kDecodeKernels = R"cuda(
extern "C" __global__ void decode_packed(BitPackedColumn column, Validity validity, u64 n,
                                         i64 null_marker, i64* values, u64* fields) {
  for (u64 i = global_thread_index(); i < n; i += grid_stride()) {
    values[i] = validity.valid(i) ? column.get(i) : null_marker;
    fields[i] = unpack_bits(column.words, i, column.bits);
  }
}

// Every field of a column of BITS bits, read as a scan reads them: a warp per 1024-row
// block, each lane its 32 rows of the block, ROWS at a time, with the chunk and step
// loops unrolled so that the shifts are constants.
template <u32 BITS, u32 ROWS>
__device__ void lane_chunk_fields(const u32* words, u64 n, u32* fields) {
  const u32 lane = threadIdx.x & 31;
  const u64 warps = grid_stride() / 32;
  for (u64 block = global_thread_index() / 32; block * 1024 < n; block += warps) {
    const u32* lane_words = words + block * 32 * BITS + lane;
#pragma unroll
    for (u32 chunk = 0; chunk < 32 / ROWS; ++chunk) {
      LaneChunk<BITS, ROWS> words_of_chunk;
      words_of_chunk.load(lane_words, chunk);
#pragma unroll
      for (u32 step = 0; step < ROWS; ++step) {
        const u64 row = block * 1024 + (chunk * ROWS + step) * 32 + lane;
        if (row < n) fields[row] = words_of_chunk.field(chunk, step);
      }
    }
  }
}

#define LANE_CHUNK(BITS, ROWS)                                                              \
  extern "C" __global__ void lane_chunk_##BITS##_##ROWS(const u32* words, u64 n, u32* out) { \
    lane_chunk_fields<BITS, ROWS>(words, n, out);                                          \
  }
LANE_CHUNK(1, 16) LANE_CHUNK(2, 16) LANE_CHUNK(3, 16) LANE_CHUNK(4, 16) LANE_CHUNK(7, 16)
LANE_CHUNK(12, 16) LANE_CHUNK(13, 16) LANE_CHUNK(24, 16) LANE_CHUNK(31, 16)
LANE_CHUNK(13, 4) LANE_CHUNK(13, 8) LANE_CHUNK(24, 32)

#define COPY_PLAIN(T)                                                                      \
  extern "C" __global__ void copy_##T(PlainColumn<T> column, u64 n, T* out) {             \
    for (u64 i = global_thread_index(); i < n; i += grid_stride()) out[i] = column.get(i); \
  }
COPY_PLAIN(u8) COPY_PLAIN(i16) COPY_PLAIN(i32) COPY_PLAIN(i64) COPY_PLAIN(i128)
COPY_PLAIN(f32) COPY_PLAIN(f64)
)cuda";

Module& decode_module() { return test_module(kDecodeKernels, "decode_test.cu"); }

constexpr uint32_t kBlock = 256;
constexpr int64_t kNullMarker = 0x5eed5eed5eed;

// A bit-packed column in the device layout, followed by the executor's padding (16 KiB of
// zeros: decoders may read past the last field within a block row).
DeviceBuffer device_words(const tally::test::PackedFields& packed) {
  std::vector<uint32_t> words = lane_transposed_words(packed.words, packed.rows(), packed.bits);
  words.resize(words.size() + kLaneBlockRows * 4, 0);
  return to_device(words, "lane-transposed words");
}

void check_bit_width(uint32_t bits, size_t rows, bool with_nulls) {
  INFO("bits " << bits << ", rows " << rows << ", nulls " << with_nulls);
  const tally::test::PackedFields packed =
      tally::test::make_packed_fields(bits, rows, bits * 1000 + rows, with_nulls);
  std::vector<int64_t> expected(rows);
  for (size_t row = 0; row < rows; ++row) {
    const bool valid =
        packed.validity.empty() || ((packed.validity[row / 64] >> (row % 64)) & 1) != 0;
    expected[row] =
        valid ? static_cast<int64_t>(static_cast<uint64_t>(packed.base) + packed.fields[row])
              : kNullMarker;
  }
  DeviceBuffer word_buffer = device_words(packed);
  // One word more than the bitmap, so that a column without NULLs still has a buffer.
  std::vector<uint64_t> validity = packed.validity;
  validity.push_back(0);
  DeviceBuffer validity_buffer = to_device(validity, "validity");
  DeviceBuffer values(rows * sizeof(int64_t), "decoded values");
  DeviceBuffer fields(rows * sizeof(uint64_t), "decoded fields");
  const BitPackedColumn column{word_buffer.ptr(), packed.base, bits};
  const Validity valid{packed.validity.empty() ? 0 : validity_buffer.ptr()};
  const uint64_t n = rows;
  launch(decode_module().kernel("decode_packed"), {grid_for(n, kBlock), kBlock}, column, valid, n,
         kNullMarker, values.ptr(), fields.ptr());
  const std::vector<int64_t> actual_values = from_device<int64_t>(values);
  const std::vector<uint64_t> actual_fields = from_device<uint64_t>(fields);
  size_t wrong_values = 0, wrong_fields = 0;
  for (size_t row = 0; row < rows; ++row) {
    wrong_values += actual_values[row] != expected[row];
    wrong_fields += actual_fields[row] != packed.fields[row];
  }
  CHECK(wrong_values == 0);
  CHECK(wrong_fields == 0);
}

void check_lane_chunk(uint32_t bits, uint32_t chunk_rows, size_t rows) {
  INFO("bits " << bits << ", chunk rows " << chunk_rows << ", rows " << rows);
  const tally::test::PackedFields packed =
      tally::test::make_packed_fields(bits, rows, bits * 31 + rows);
  DeviceBuffer word_buffer = device_words(packed);
  DeviceBuffer out(rows * sizeof(uint32_t), "fields");
  const std::string kernel =
      "lane_chunk_" + std::to_string(bits) + "_" + std::to_string(chunk_rows);
  const uint64_t n = rows;
  launch(decode_module().kernel(kernel), {grid_for(n, kBlock), kBlock}, word_buffer.ptr(), n,
         out.ptr());
  const std::vector<uint32_t> actual = from_device<uint32_t>(out);
  size_t wrong = 0;
  for (size_t row = 0; row < rows; ++row) wrong += actual[row] != packed.fields[row];
  CHECK(wrong == 0);
}

template <class T>
void check_plain(const char* kernel, const std::vector<T>& values) {
  INFO(kernel);
  DeviceBuffer input = to_device(values, "plain column");
  DeviceBuffer out(values.size() * sizeof(T), "copied values");
  const PlainColumn column{input.ptr()};
  launch(decode_module().kernel(kernel), {grid_for(values.size(), kBlock), kBlock}, column,
         uint64_t{values.size()}, out.ptr());
  CHECK(from_device<T>(out) == values);
}

}  // namespace

TEST_CASE("bit-packed columns decode exactly at every width, with and without NULLs") {
  // Widths of 33 bits and more put some fields across three 32-bit words; row counts are
  // whole blocks of 1024 and blocks cut short.
  for (uint32_t bits = 0; bits <= 64; ++bits) {
    for (size_t rows : {1ul, 63ul, 1000ul, 1024ul, 1025ul, 100003ul}) {
      check_bit_width(bits, rows, rows > 64);
    }
  }
}

TEST_CASE("a lane's chunks of a block decode every field") {
  for (uint32_t bits : {1u, 2u, 3u, 4u, 7u, 12u, 13u, 24u, 31u}) {
    for (size_t rows : {1ul, 1024ul, 5000ul, 100003ul}) check_lane_chunk(bits, 16, rows);
  }
  // Other chunk sizes, a chunk being the whole of a lane's 32 rows included.
  check_lane_chunk(13, 4, 5000);
  check_lane_chunk(13, 8, 5000);
  check_lane_chunk(24, 32, 5000);
}

TEST_CASE("plain columns of every width load exactly") {
  std::mt19937_64 rng(3);
  const size_t rows = 10007;
  std::vector<uint8_t> bools(rows);
  std::vector<int16_t> smalls(rows);
  std::vector<int32_t> ints(rows);
  std::vector<int64_t> bigs(rows);
  std::vector<int128> wides(rows);
  std::vector<float> reals(rows);
  std::vector<double> doubles(rows);
  for (size_t i = 0; i < rows; ++i) {
    const uint64_t r = rng();
    bools[i] = r & 1;
    smalls[i] = static_cast<int16_t>(r);
    ints[i] = static_cast<int32_t>(r >> 7);
    bigs[i] = static_cast<int64_t>(r);
    wides[i] = (static_cast<int128>(static_cast<int64_t>(rng())) << 64) | rng();
    reals[i] = static_cast<float>(static_cast<int64_t>(r)) / 3.0f;
    doubles[i] = static_cast<double>(static_cast<int64_t>(r)) / 7.0;
  }
  check_plain("copy_u8", bools);
  check_plain("copy_i16", smalls);
  check_plain("copy_i32", ints);
  check_plain("copy_i64", bigs);
  check_plain("copy_i128", wides);
  check_plain("copy_f32", reals);
  check_plain("copy_f64", doubles);
}

}  // namespace tally::cuda::test
