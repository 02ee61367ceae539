// Where the aggregates' running states live on the device: one array per state field over
// the group slots, a field shared wherever two aggregates keep the same one (SUM(x) and
// AVG(x) one sum; the non-NULL count of a never-NULL argument is the row count).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/column_stats.h"

namespace tally {

struct StateField {
  FieldKind kind;
  int aggregate;  // -1: the rows-per-group counter, which also marks occupied slots
  // A 128-bit sum of values the statistics prove non-negative whose whole-table total fits
  // 64 bits: it never carries out of its low word, so a merge is one 64-bit add whose result
  // nobody waits for.
  bool low_word_sum = false;
};

struct StateLayout {
  std::vector<StateField> fields;                  // [0]: the rows-per-group counter
  std::vector<std::vector<int>> aggregate_fields;  // per aggregate, in its StateInfo's order
  std::vector<StateKind> aggregate_states;
  // Per aggregate: the scan column whose dictionary decodes a VARCHAR final (MIN/MAX of a
  // string column returns a code), or -1.
  std::vector<int> aggregate_dictionary;
  // Per aggregate: the bits a split variance state's values split at, or 0.
  std::vector<int> square_split;
  // Per aggregate: CountDistinctBits' base, the value whose bit is bit 0 (else 0).
  std::vector<int64_t> distinct_base;

  // Whether a second pass over the rows merges some field (DOUBLE variances).
  bool second_pass() const;
  // Whether a field is APPROX_COUNT_DISTINCT's 1 KiB sketch: no thread or block table holds it.
  bool sketches() const;
};

// The layout of `query`'s aggregates over `rows` rows of data with these statistics. A
// DISTINCT aggregate keeps the plain aggregate's state, fed only by rows whose value was new
// to its group, so its fields are never shared. With `distinct_bits` (the generated kernels;
// the interpreter keeps its DISTINCT set), a COUNT(DISTINCT x) whose x takes at most 64 values
// keeps them as one word's bits instead (CountDistinctBits).
StateLayout layout_states(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                          uint64_t rows, bool distinct_bits = false);

// Whether aggregate `a` keeps the DISTINCT values it has seen apart from its fields, in the
// DISTINCT set or a bitmap (compiler/plan/distinct_bitmaps.h): a DISTINCT aggregate whose
// state is not CountDistinctBits, whose one field is those values.
bool keeps_seen_values(const BoundSelect& query, const StateLayout& layout, size_t a);

// The values a DISTINCT aggregate's argument can take, where they are a dense range of
// integers: a dictionary column's codes, or an integer, DATE or DECIMAL range (its unscaled
// integers) the statistics bound. Value `base` is the range's first.
struct DistinctDomain {
  int64_t base = 0;
  uint64_t values = 0;
};
std::optional<DistinctDomain> distinct_domain(const AggregateCall& call,
                                              const std::vector<ColumnStats>& stats);

// The values of COUNT(DISTINCT x) a word's bits can hold: a dictionary column's codes, or an
// integer, DATE or DECIMAL range the statistics bound. The value of bit 0, or none.
std::optional<int64_t> distinct_bit_base(const AggregateCall& call,
                                         const std::vector<ColumnStats>& stats);

// An exact variance's split on the GPU (VarianceSplit): 0 where the squares of `arg` over
// `rows` rows fit a 128-bit sum, the bits its values split at where their halves' do, or -1
// where those would not either.
int square_split_bits(const Expr& arg, const std::vector<ColumnStats>& stats, uint64_t rows);

// The most one row adds to sum field f when the statistics prove every value it adds
// non-negative (a NULL adds 0); -1 when they do not, or f is no 128-bit sum.
long double nonnegative_top(const StateLayout& layout, size_t f, const BoundSelect& query,
                            const std::vector<ColumnStats>& stats);

}  // namespace tally
