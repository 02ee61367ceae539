// Every query of queries/ with the parameter values the GPU tests run it with.
#pragma once

#include <string>
#include <vector>

namespace tally::test {

struct QueryFile {
  std::string name;  // queries/<name>.sql
  std::vector<std::string> params;
};

inline const std::vector<QueryFile>& query_files() {
  static const std::vector<QueryFile> files = {
      {"tpch_q1", {}},
      {"tpch_q6", {}},
      {"query_a", {}},
      {"query_b", {"1000"}},
      {"returnflag_count", {}},
      {"shipmode_stats", {}},
      {"yearly_revenue", {}},
      {"quantity_buckets", {}},
      {"distinct_suppliers", {}},
      {"like_filter", {}},
      {"in_list", {}},
      {"top_orders", {}},
      {"select_distinct", {}},
      {"global_aggregates", {}},
      {"monthly_window", {"1995-03-15", "1995-03-15"}},
      {"expressions", {}},
  };
  return files;
}

}  // namespace tally::test
