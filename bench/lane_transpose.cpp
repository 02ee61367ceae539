// The host's lane transposition of bit-packed columns (runtime/gpu/device_layout.h), the CPU
// half of every upload: ns a row and GB/s of encoded bytes against a memcpy of the same bytes
// (the floor of any host pass over them), on one thread and on all of them.
//   lane_transpose [--rows 2^24] [--reps 5]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compiler/common/run_parallel.h"
#include "runtime/gpu/device_layout.h"

namespace {

using tally::kLaneBlockRows;

// The median of `reps` runs of `work`, in ms.
template <typename Work>
double median_ms(int reps, Work&& work) {
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    auto start = std::chrono::steady_clock::now();
    work();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// `work(first_block, end_block)` over all blocks in `tasks` equal shares.
template <typename Work>
void in_shares(uint64_t blocks, size_t tasks, Work&& work) {
  const uint64_t per = (blocks + tasks - 1) / tasks;
  tally::run_parallel(
      tasks, [&](size_t t) { work(std::min(blocks, t * per), std::min(blocks, (t + 1) * per)); });
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t rows = uint64_t{1} << 24;
  int reps = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    const uint64_t n =
        v.rfind("2^", 0) == 0 ? uint64_t{1} << std::stoi(v.substr(2)) : std::stoull(v);
    if (a == "--rows") rows = n;
    if (a == "--reps") reps = static_cast<int>(n);
  }
  const size_t threads = tally::worker_threads();
  fmt::print("lane transposition of {} rows, median of {}, {} threads\n", rows, reps, threads);
  fmt::print("{:>4} | {:>13} {:>9} {:>9} | {:>13} {:>9} {:>9}\n", "bits", "1 thread ns/row", "GB/s",
             "x memcpy", "all ns/row", "GB/s", "x memcpy");
  std::mt19937_64 rng(1);
  for (uint32_t bits : {1u, 2u, 3u, 6u, 12u, 17u, 20u, 24u, 32u, 40u, 64u}) {
    std::vector<uint64_t> packed((rows * bits + 63) / 64 + 1);
    for (auto& w : packed) w = rng();
    const uint64_t blocks = (rows + kLaneBlockRows - 1) / kLaneBlockRows;
    std::vector<uint32_t> out(blocks * 32 * bits), copy(out.size());
    const uint64_t block_words = 32 * bits;
    std::string cells;
    for (size_t tasks : {size_t{1}, threads}) {
      auto transpose = [&] {
        in_shares(blocks, tasks, [&](uint64_t first, uint64_t end) {
          tally::lane_transpose_blocks(packed, rows, bits, first, end,
                                       out.data() + first * block_words);
        });
      };
      auto memcpy_all = [&] {
        in_shares(blocks, tasks, [&](uint64_t first, uint64_t end) {
          std::memcpy(copy.data() + first * block_words,
                      reinterpret_cast<const uint32_t*>(packed.data()) + first * block_words,
                      (end - first) * block_words * 4);
        });
      };
      transpose();  // first touch of the output pages
      memcpy_all();
      const double t = median_ms(reps, transpose), m = median_ms(reps, memcpy_all);
      const double bytes = static_cast<double>(rows) * bits / 8;
      cells +=
          fmt::format(" | {:>13.2f} {:>9.2f} {:>9.1f}", t * 1e6 / rows, bytes / t / 1e6, t / m);
    }
    fmt::print("{:>4}{}\n", bits, cells);
  }
}
