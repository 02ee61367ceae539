// Aggregate states of the vectorized CPU path: one array per state field over the group
// numbers, updated by one typed loop per aggregate and batch (rarer aggregates keep the
// row path's states). The fields are those of the
// row path's HostAggState (compiler/functions/), and to_state hands them back in that form,
// so combining, finals and their errors stay the aggregate table's own.
#pragma once

#include <memory>

#include "runtime/cpu/agg_state.h"
#include "runtime/cpu/vector_batch.h"

namespace tally {

class AggColumn {
 public:
  virtual ~AggColumn() = default;
  // Makes room for group numbers below `groups`.
  virtual void resize(size_t groups) = 0;
  // Merges the rows of `sel` (their argument in `arg`, null for COUNT(*)) into their groups,
  // gids[row]; gids null: every row into group 0. Throws as the row path's update does.
  virtual void update(const Vec* arg, const Sel& sel, const uint32_t* gids) = 0;
  // The same for an aggregate of two arguments (COVAR_POP(y, x)): `key` holds the second.
  virtual void update_pair(const Vec& arg, const Vec& key, const Sel& sel, const uint32_t* gids);
  // Adds group g of `from` (a column made alike) into group `into`, as the aggregate's
  // combine step does (the same checks and errors).
  virtual void combine(size_t into, AggColumn& from, size_t g) = 0;
  // Group g's state as the row path keeps it (a DISTINCT set moves out).
  virtual void to_state(size_t g, AggState& out) = 0;
  // Bytes per group, to size direct tables.
  virtual size_t bytes_per_group() const = 0;
};

// The state of an aggregate whose argument the vector path holds as `arg` (ignored for
// COUNT(*)): typed arrays for COUNT, SUM, AVG and MIN/MAX of numbers and dates; for the
// others (DISTINCT, the variance family, BOOL_AND/OR, MIN/MAX of strings, the co-moments of
// two arguments) the row path's own states, merged per row from the batch values.
std::unique_ptr<AggColumn> make_agg_column(const AggSpec& spec, Phys arg);

}  // namespace tally
