// Decodes a query's scan columns into batch columns (runtime/cpu/vector_batch.h), straight
// from their encodings: plain values of every width, frame of reference + bit-packing,
// dictionary codes (strings stay codes: the expressions map them to heap ids), validity.
#pragma once

#include <cstddef>
#include <vector>

#include "compiler/ir/query.h"
#include "runtime/cpu/vector_batch.h"
#include "runtime/storage/table.h"

namespace tally {

class BatchDecoder {
 public:
  BatchDecoder(const BoundSelect& query, const Table& table);

  // Rows begin + r for the rows r of `sel` of scan column c, into `out` (of phys(c)).
  void decode(size_t c, size_t begin, const Sel& sel, Vec& out) const;
  Phys phys(size_t c) const { return phys_[c]; }
  // Bytes the scan reads per row, over the columns' encodings (the benchmark's figure).
  double encoded_bytes_per_row() const;

 private:
  std::vector<const Column*> columns_;
  std::vector<Phys> phys_;
};

}  // namespace tally
