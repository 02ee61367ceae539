// runtime/gpu/pinned_staging.h: columns cross to the GPU through small pinned staging
// buffers, many chunks a column, and arrive byte for byte as their device layout: plain
// bytes as stored, bit-packed fields lane-transposed (runtime/gpu/device_layout.h), and
// validity words as stored; results come back through them byte for byte. Bit-packed fields
// copied as stored and transposed on the device (runtime/gpu/device_transpose.h) give the
// same words as the host's transposition, at every width.
#include "runtime/gpu/pinned_staging.h"

#include <doctest/doctest.h>

#include <random>

#include "runtime/gpu/device_layout.h"
#include "tests/gpu/gpu_support.h"

namespace tally::cuda::test {
namespace {

// `rows` integers below 2^bits (every 13th NULL when `nulls`): the builder packs them at
// `bits` bits.
ColumnPtr int_column(size_t rows, int bits, bool nulls) {
  std::mt19937_64 random(static_cast<uint64_t>(bits));
  ColumnBuilder builder(Type::bigint());
  for (size_t i = 0; i < rows; ++i) {
    if (nulls && i % 13 == 0) {
      builder.append_null();
      continue;
    }
    const uint64_t v = bits == 64 ? random() : random() & ((uint64_t{1} << bits) - 1);
    builder.append_int(i == 1 ? (bits == 64 ? INT64_MIN : 0) : static_cast<int64_t>(v));
  }
  return builder.finish();
}

ColumnPtr double_column(size_t rows) {
  ColumnBuilder builder(Type::double_());
  for (size_t i = 0; i < rows; ++i) builder.append_double(static_cast<double>(i) * 0.25 - 7);
  return builder.finish();
}

template <class T>
void expect_prefix(const DeviceBuffer& buffer, const std::vector<T>& want) {
  std::vector<T> got = from_device<T>(buffer);
  REQUIRE(got.size() >= want.size());
  got.resize(want.size());
  CHECK(got == want);
}

}  // namespace

TEST_CASE("gpu pinned staging: uploads in chunks give the device layout of every encoding") {
  test_device();
  PinnedStaging uploader(64 << 10);  // 64 KiB: dozens of chunks a column and worker
  const size_t rows = 300000 + 77;   // a partial last block
  for (int bits : {1, 7, 13, 31, 32, 33, 47, 64}) {
    for (bool nulls : {false, true}) {
      INFO("bits " << bits << " nulls " << nulls);
      ColumnPtr column = int_column(rows, bits, nulls);
      DeviceBuffer data(PinnedStaging::data_bytes(*column), "test column");
      DeviceBuffer validity(column->validity_words().size() * 8, "test validity");
      uploader.upload(test_device(), *column, data, validity);
      if (column->encoding() == Encoding::Plain) {  // 64 bits: the builder stores them plain
        const auto bytes = column->plain_bytes();
        expect_prefix(data, std::vector<uint8_t>(bytes.begin(), bytes.end()));
      } else {
        expect_prefix(data, lane_transposed_words(column->packed_words(), column->size(),
                                                  static_cast<uint32_t>(column->bits())));
      }
      if (nulls) expect_prefix(validity, column->validity_words());
    }
  }
  ColumnPtr plain = double_column(rows);
  REQUIRE(plain->encoding() == Encoding::Plain);
  DeviceBuffer data(PinnedStaging::data_bytes(*plain), "test column");
  DeviceBuffer none;
  uploader.upload(test_device(), *plain, data, none);
  const auto bytes = plain->plain_bytes();
  expect_prefix(data, std::vector<uint8_t>(bytes.begin(), bytes.end()));
}

TEST_CASE("gpu pinned staging: bit-packed fields transposed on the device match the host's") {
  test_device();
  DeviceTranspose transpose;
  REQUIRE_MESSAGE(transpose.ready(test_device()), transpose.error());
  PinnedStaging uploader(64 << 10);
  for (size_t rows : {size_t{2}, size_t{1000}, size_t{1024}, size_t{300000 + 77}}) {
    for (int bits = 1; bits < 64; ++bits) {
      INFO("rows " << rows << " bits " << bits);
      ColumnPtr column = int_column(rows, bits, bits % 5 == 0);
      REQUIRE(column->encoding() != Encoding::Plain);
      const auto width = static_cast<uint32_t>(column->bits());
      if (width == 0) continue;  // no words to copy
      // Garbage where the last block's fields end: the kernel must write zero rows there.
      std::vector<uint8_t> garbage(PinnedStaging::data_bytes(*column), 0xA5);
      DeviceBuffer data = to_device(garbage, "test column");
      // A copy from pageable memory may return before its DMA lands, and the staging lanes'
      // streams do not wait for the default one: the garbage must be there first.
      test_device().synchronize();
      DeviceBuffer validity(column->validity_words().size() * 8, "test validity");
      uploader.upload(test_device(), *column, data, validity, &transpose);
      expect_prefix(data, lane_transposed_words(column->packed_words(), column->size(), width));
      if (!column->validity_words().empty()) expect_prefix(validity, column->validity_words());
    }
  }
}

TEST_CASE("gpu pinned staging: downloads in chunks return every byte") {
  test_device();
  PinnedStaging staging(64 << 10);
  staging.pin_lanes();  // every worker's buffers made here, not at its first copy
  for (size_t bytes : {size_t{100}, size_t{64} << 10, (size_t{3} << 20) + 13}) {
    INFO("bytes " << bytes);
    std::vector<uint8_t> pattern(bytes);
    for (size_t i = 0; i < bytes; ++i) pattern[i] = static_cast<uint8_t>(i * 131 + i / 977);
    DeviceBuffer buffer = to_device(pattern, "test pattern");
    std::vector<uint8_t> back(bytes, 0);
    staging.download(test_device(), buffer, back.data(), bytes);
    CHECK(back == pattern);
  }
}

}  // namespace tally::cuda::test
