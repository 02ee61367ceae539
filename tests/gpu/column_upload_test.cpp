// runtime/gpu/column_upload.h: columns cross to the GPU through small pinned staging
// buffers, many chunks a column, and arrive byte for byte as their device layout: plain
// bytes as stored, bit-packed fields lane-transposed (runtime/gpu/device_layout.h), and
// validity words as stored.
#include "runtime/gpu/column_upload.h"

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

TEST_CASE("gpu column upload: staged chunks give the device layout of every encoding") {
  test_device();
  ColumnUploader uploader(64 << 10);  // 64 KiB: dozens of chunks a column
  const size_t rows = 300000 + 77;    // a partial last block
  for (int bits : {1, 7, 13, 31, 32, 33, 47, 64}) {
    for (bool nulls : {false, true}) {
      INFO("bits " << bits << " nulls " << nulls);
      ColumnPtr column = int_column(rows, bits, nulls);
      REQUIRE(column->encoding() != Encoding::Plain);
      DeviceBuffer data(ColumnUploader::data_bytes(*column), "test column");
      DeviceBuffer validity(column->validity_words().size() * 8, "test validity");
      uploader.upload(*column, data, validity);
      expect_prefix(data, lane_transposed_words(column->packed_words(), column->size(),
                                                static_cast<uint32_t>(column->bits())));
      if (nulls) expect_prefix(validity, column->validity_words());
    }
  }
  ColumnPtr plain = double_column(rows);
  REQUIRE(plain->encoding() == Encoding::Plain);
  DeviceBuffer data(ColumnUploader::data_bytes(*plain), "test column");
  DeviceBuffer none;
  uploader.upload(*plain, data, none);
  const auto bytes = plain->plain_bytes();
  expect_prefix(data, std::vector<uint8_t>(bytes.begin(), bytes.end()));
}

}  // namespace tally::cuda::test
