// Partial aggregation, for inputs split across processes or machines (tally.dask drives
// it; any engine can): each part runs an aggregate SELECT to its per-group states
// (Engine::execute_partial), the states travel as bytes (serialize / deserialize), merge
// with the aggregates' own combine steps, and finalize() gives the result one run over
// all the parts' rows would: exactly so for integer and DECIMAL results (128-bit sums,
// counts, sums of squares for variances and DISTINCT sets travel as they are; floating-
// point sums may differ in the last bits, as with threads). HAVING, ORDER BY and LIMIT
// apply at finalize. The parts must run the same statement over tables of one schema.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "tally/result_set.h"

namespace tally {

class PartialResult {
 public:
  // Bytes another process can deserialize (a self-contained, versioned format).
  std::string serialize() const;
  // Throws Error(Data) for bytes that are not a serialised PartialResult.
  static PartialResult deserialize(std::string_view bytes);

  // Moves `other`'s groups into these, combining the states of groups both have; `other`
  // is left with none. Throws Error(Data) when the statements or schemas differ.
  void merge(PartialResult& other);

  // The final step: finals, HAVING, the SELECT list, ORDER BY, LIMIT.
  ResultSet finalize() const;

  const std::string& sql() const;
  size_t group_count() const;

  struct Impl;
  explicit PartialResult(std::shared_ptr<Impl> impl);
  PartialResult(PartialResult&&) noexcept;
  PartialResult& operator=(PartialResult&&) noexcept;
  ~PartialResult();

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace tally
