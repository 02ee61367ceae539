// runtime/gpu/streamed_scan.h and host_columns.h, the parts without a GPU: the batches a
// streamed scan chooses, and where a batch's rows lie in a column's device layout.
#include <doctest/doctest.h>

#include "runtime/gpu/device_layout.h"
#include "runtime/gpu/host_columns.h"
#include "runtime/gpu/streamed_scan.h"
#include "runtime/storage/column.h"

namespace tally {

TEST_CASE("stream shape: about 16 whole-block batches within the warps and the budget") {
  const uint64_t warps = 4224;  // an H100 Scan grid of Q1
  // SF 100 (600 M rows): four blocks a warp, every stream busy.
  StreamShape big = choose_stream_shape(600'000'000, 7680, warps, uint64_t{2} << 30, 0);
  CHECK(big.batch_rows == 4 * warps * 1024);
  CHECK(big.batches == (600'000'000 + big.batch_rows - 1) / big.batch_rows);
  CHECK(big.streams == kStreamSlots);
  // SF 10 (60 M rows): about 16 batches, a block a warp at least.
  StreamShape small = choose_stream_shape(59'986'052, 7680, warps, uint64_t{2} << 30, 0);
  CHECK(small.batch_rows == warps * 1024);
  CHECK(small.batches == 14);
  // A budget of 1 MiB: every stream's batch fits its quarter.
  StreamShape tight = choose_stream_shape(6'001'215, 7680, warps, 1 << 20, 0);
  CHECK(tight.batch_rows / 1024 * 7680 * kStreamSlots <= (1 << 20));
  // A forced size rounds up to a block; a table smaller than a batch is one batch.
  StreamShape forced = choose_stream_shape(10'000, 7680, warps, 1 << 20, 3000);
  CHECK(forced.batch_rows == 3072);
  CHECK(forced.batches == 4);
  CHECK(forced.streams == 4);
  StreamShape one = choose_stream_shape(500, 7680, warps, 1 << 20, 0);
  CHECK(one.batches == 1);
  CHECK(one.streams == 1);
}

namespace {

ColumnPtr int_column(const std::vector<int64_t>& values, Type type, bool compress) {
  ColumnBuilder b(type);
  b.append_ints(values);
  return b.finish(compress);
}

}  // namespace

TEST_CASE("stream shape: a batch's rows in the device layout of plain and packed columns") {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < 5000; ++i) values.push_back(i % 300);
  ColumnPtr packed = int_column(values, Type::integer(), true);
  REQUIRE(packed->encoding() == Encoding::BitPacked);
  const auto bits = static_cast<uint64_t>(packed->bits());
  CHECK(layout_offset(*packed, 0) == 0);
  CHECK(layout_offset(*packed, 2048) == 2 * 32 * bits * 4);
  ColumnPtr plain = int_column(values, Type::bigint(), false);
  REQUIRE(plain->encoding() == Encoding::Plain);
  CHECK(layout_offset(*plain, 3072) == 3072 * 8);
}

}  // namespace tally
