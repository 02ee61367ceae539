#include "runtime/storage/scan_stats.h"

namespace tally {

std::vector<ColumnStats> scan_stats(const BoundSelect& query, const Table& table) {
  std::vector<ColumnStats> stats;
  for (const auto& sc : query.scan) {
    const Column& c = *table.columns[sc.table_column];
    ColumnStats s;
    const Type& t = sc.type;
    bool integer_like = !t.is_float() && !t.is_wide();
    s.has_range = integer_like && c.size() > c.null_count();
    s.min = c.min_int();
    s.max = c.max_int();
    s.wide_min = c.min_wide();
    s.wide_max = c.max_wide();
    s.has_nulls = c.has_nulls();
    s.has_values = c.size() > c.null_count();
    s.dictionary_size = c.dictionary().size();
    if (c.encoding() == Encoding::Plain) {
      s.layout = ColumnStats::Layout::Plain;
      s.plain_width = physical_width(t);
    } else {
      s.layout = ColumnStats::Layout::BitPacked;
      s.bits = c.bits();
      s.base = c.base();
    }
    stats.push_back(s);
  }
  return stats;
}

}  // namespace tally
