// RowQueue (runtime/gpu/row_queue.h): two takers from both ends get every row exactly once,
// every range starting on a 1024-row block, whatever the order of their takes; and the CPU
// engine's chunk sizes in co-processing (runtime/gpu/coprocess.h).
#include "runtime/gpu/row_queue.h"

#include <doctest/doctest.h>

#include <random>
#include <thread>
#include <vector>

#include "runtime/gpu/coprocess.h"

namespace tally {

TEST_CASE("row queue: the front and back takers meet with every row taken once") {
  std::mt19937_64 rng(7);
  for (uint64_t rows : {0ull, 1ull, 1024ull, 5000ull, 1'000'000ull}) {
    for (int trial = 0; trial < 20; ++trial) {
      RowQueue queue(0, rows);
      std::vector<RowRange> front, back;
      for (;;) {
        const bool take_front = rng() % 2 == 0;
        const RowRange r = take_front ? queue.take_front(1024 * (1 + rng() % 8))
                                      : queue.take_back(1 + rng() % 9000);
        if (r.empty()) {
          // Once one end finds nothing, neither does the other.
          CHECK(queue.take_front(1024).empty());
          CHECK(queue.take_back(1024).empty());
          break;
        }
        CHECK(r.first % 1024 == 0);
        (take_front ? front : back).push_back(r);
      }
      // The front's ranges run up from 0, the back's down from `rows`, and they meet.
      uint64_t next = 0;
      for (const RowRange& r : front) {
        CHECK(r.first == next);
        next = r.end;
      }
      CHECK(queue.front_end() == next);
      for (auto it = back.rbegin(); it != back.rend(); ++it) {
        CHECK(it->first == next);
        next = it->end;
      }
      CHECK(next == rows);
    }
  }
}

TEST_CASE("row queue: two threads taking at once share the rows without overlap") {
  const uint64_t rows = 10'000'000;
  RowQueue queue(0, rows);
  uint64_t front_rows = 0, back_rows = 0;
  std::thread back([&] {
    for (RowRange r = queue.take_back(3000); !r.empty(); r = queue.take_back(3000))
      back_rows += r.rows();
  });
  for (RowRange r = queue.take_front(4096); !r.empty(); r = queue.take_front(4096))
    front_rows += r.rows();
  back.join();
  CHECK(front_rows + back_rows == rows);
  CHECK(queue.front_end() == front_rows);
}

TEST_CASE("row queue: the CPU's chunks shrink to what it can finish beside the GPU") {
  const uint64_t base = 1 << 20;
  // No rates yet (the GPU still compiling): the whole base chunk.
  CHECK(next_cpu_chunk(base, 100'000'000, 200, 0) == base);
  // GPU 30x faster, 60 M rows left: a 1/31 share is 1.9 M, capped at the base.
  CHECK(next_cpu_chunk(base, 60'000'000, 200, 6000) == base);
  // 10 M rows left: 10 M / 31 = 322,580 rows, down to whole blocks.
  CHECK(next_cpu_chunk(base, 10'000'000, 200, 6000) == 322'560);
  CHECK(next_cpu_chunk(base, 10'000'000, 200, 6000) % 1024 == 0);
  // 1 M rows left: 32 K rows, under a sixteenth of the base: the CPU stops.
  CHECK(next_cpu_chunk(base, 1'000'000, 200, 6000) == 0);
}

}  // namespace tally
