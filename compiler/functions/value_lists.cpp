#include "compiler/functions/value_lists.h"

#include <algorithm>
#include <numeric>

#include "compiler/common/value_ops.h"

namespace tally::aggregates {

namespace {

// SQL's ORDER BY on one key: NULLs first or last as asked, then values.
int compare_key(const Value& a, const Value& b, const AggOrderKey& key, const StringHeap* strings) {
  if (a.null || b.null) {
    if (a.null && b.null) return 0;
    return a.null == key.nulls_first ? -1 : 1;
  }
  const int c = compare_values(a, b, key.type, strings);
  return key.descending ? -c : c;
}

}  // namespace

void update_list(HostAggState& s, const Value& v, const AggContext&) {
  ++s.count;
  s.values.push_back(v);
}

void combine_lists(HostAggState& into, const HostAggState& from, const AggContext&) {
  into.count += from.count;
  into.values.insert(into.values.end(), from.values.begin(), from.values.end());
  into.sort_keys.insert(into.sort_keys.end(), from.sort_keys.begin(), from.sort_keys.end());
}

std::vector<Value> sorted_values(const HostAggState& s, const AggContext& ctx) {
  std::vector<Value> values = s.values;
  std::sort(values.begin(), values.end(), [&](const Value& a, const Value& b) {
    const int c = compare_values(a, b, ctx.arg, ctx.strings);
    return ctx.descending ? c > 0 : c < 0;
  });
  return values;
}

std::vector<size_t> ordered_positions(const HostAggState& s, const AggContext& ctx) {
  std::vector<size_t> positions(s.values.size());
  std::iota(positions.begin(), positions.end(), size_t{0});
  const size_t width = ctx.order.size();
  std::sort(positions.begin(), positions.end(), [&](size_t a, size_t b) {
    for (size_t k = 0; k < width; ++k) {
      const int c = compare_key(s.sort_keys[a * width + k], s.sort_keys[b * width + k],
                                ctx.order[k], ctx.strings);
      if (c != 0) return c < 0;
    }
    return compare_values(s.values[a], s.values[b], ctx.arg, ctx.strings) < 0;
  });
  return positions;
}

}  // namespace tally::aggregates
