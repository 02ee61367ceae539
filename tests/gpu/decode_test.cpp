// templates/tally_decode.cuh: bit-packed (frame of reference) columns at many widths,
// validity bitmaps and plain columns of every width decode on the GPU to exactly the
// values the test packed. The packer here is the test's own, written from the format in
// runtime/storage/column.h (little-endian fields in 64-bit words, straddling, plus one
// zero padding word), so the check does not lean on the storage code it mirrors.
#include <doctest/doctest.h>

#include <random>

#include "compiler/value.h"
#include "runtime/cuda/device_refs.h"
#include "tests/gpu/gpu_support.h"

namespace tally::cuda::test {
namespace {

const char* const kDecodeKernels = R"cuda(
extern "C" __global__ void decode_packed(BitPackedColumn column, Validity validity, u64 n,
                                         i64 null_marker, i64* out) {
  for (u64 i = global_thread_index(); i < n; i += grid_stride()) {
    out[i] = validity.valid(i) ? column.get(i) : null_marker;
  }
}

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

std::vector<uint64_t> pack(const std::vector<uint64_t>& fields, uint32_t bits) {
  std::vector<uint64_t> words(packed_device_words(fields.size(), bits), 0);
  for (size_t row = 0; row < fields.size(); ++row) {
    for (uint32_t b = 0; b < bits; ++b) {  // bit by bit: slow, and obviously right
      const uint64_t bit = row * bits + b;
      if ((fields[row] >> b) & 1) words[bit / 64] |= uint64_t{1} << (bit % 64);
    }
  }
  return words;
}

void check_bit_width(uint32_t bits, size_t rows, bool with_nulls) {
  INFO("bits " << bits << ", rows " << rows << ", nulls " << with_nulls);
  std::mt19937_64 rng(bits * 1000 + rows);
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const int64_t base = -static_cast<int64_t>(rng() % 1000000) - 1;
  std::vector<uint64_t> fields(rows);
  for (uint64_t& f : fields) f = rng() & mask;
  fields[0] = mask;  // the widest field, all ones
  std::vector<uint64_t> validity((rows + 63) / 64, ~uint64_t{0});
  std::vector<int64_t> expected(rows);
  for (size_t row = 0; row < rows; ++row) {
    const bool valid = !with_nulls || rng() % 3 != 0;
    if (!valid) validity[row / 64] &= ~(uint64_t{1} << (row % 64));
    expected[row] =
        valid ? static_cast<int64_t>(static_cast<uint64_t>(base) + fields[row]) : kNullMarker;
  }
  const std::vector<uint64_t> words = pack(fields, bits);
  DeviceBuffer word_buffer = to_device(words, "packed words");
  DeviceBuffer validity_buffer = to_device(validity, "validity");
  DeviceBuffer out(rows * sizeof(int64_t), "decoded values");
  const BitPackedColumn column{word_buffer.ptr(), base, bits};
  const Validity valid{with_nulls ? validity_buffer.ptr() : 0};
  const uint64_t n = rows;
  launch(decode_module().kernel("decode_packed"), {grid_for(n, kBlock), kBlock}, column, valid, n,
         kNullMarker, out.ptr());
  const std::vector<int64_t> actual = from_device<int64_t>(out);
  size_t mismatches = 0;
  for (size_t row = 0; row < rows; ++row) mismatches += actual[row] != expected[row];
  CHECK(mismatches == 0);
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
  for (uint32_t bits : {0u, 1u, 2u, 3u, 7u, 8u, 13u, 17u, 31u, 32u, 33u, 47u, 63u, 64u}) {
    for (size_t rows : {1ul, 63ul, 64ul, 65ul, 100003ul}) {
      check_bit_width(bits, rows, rows > 64);
    }
  }
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
