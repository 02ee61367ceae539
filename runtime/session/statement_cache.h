// What a session keeps of the statements it has run, so that running the same text again
// (a shell line, an application's query, a script that repeats a statement) skips the work
// that depends only on the text: the parse of a script seen before (1-6 ms for TPC-H Q1),
// and code generation for a plain SELECT whose GPU plan comes out as before (as a prepared
// statement's plan cache does; bench/RESULTS.md, end_to_end).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/bind/catalog.h"
#include "compiler/ir/query.h"
#include "compiler/parse/ast.h"
#include "runtime/compile/gpu_plan_cache.h"

namespace tally {

using ParsedScript = std::vector<ast::Statement>;

// Scripts by their exact text. Thread-safe.
class ScriptCache {
 public:
  static constexpr size_t kMaxScripts = 256;
  // Longer scripts (data in INSERTs, generated scripts) are parsed each time, not kept.
  static constexpr size_t kMaxScriptBytes = 64 << 10;

  // The statements of `sql`, parsed now or by an earlier call; a syntax error throws as
  // parse_script's does (and is not kept).
  std::shared_ptr<const ParsedScript> parse(std::string_view sql);
  uint64_t hits() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const ParsedScript>, std::less<>> scripts_;
  std::deque<std::string> order_;  // oldest insertion first
  uint64_t hits_ = 0;
};

// Plain SELECTs bound before, by their text: binding depends on the text and on the schema of
// the table the statement reads (as a prepared statement's does: runtime/session/
// prepared_select.h), so a bound query is reused while that schema stays (26-33 us of a
// repeated TPC-H Q1 on an H100 host, bench/RESULTS.md). Thread-safe.
class BoundSelects {
 public:
  static constexpr size_t kMaxStatements = 256;

  // The query bound from `text` before, or null when none is kept or its table's schema in
  // `catalog` has changed since.
  std::shared_ptr<const BoundSelect> find(const std::string& text, const Catalog& catalog);
  void keep(const std::string& text, std::shared_ptr<const BoundSelect> query,
            const Catalog& catalog);

 private:
  struct Entry {
    TableSchema schema;  // of query->table when bound (empty without FROM)
    std::shared_ptr<const BoundSelect> query;
  };
  std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;
  std::deque<std::string> order_;
};

// The GPU plan caches of plain SELECTs by their text. A program depends on the bound query
// as well as on its plan: each cache belongs to the table schema and the NULL order the
// statement was bound with, and starts empty when either changed. Thread-safe.
class AdHocPlans {
 public:
  static constexpr size_t kMaxStatements = 256;

  std::shared_ptr<GpuPlanCache> plans_for(const std::string& text, const TableSchema* schema,
                                          const std::string& null_order);

 private:
  struct Entry {
    TableSchema schema;
    std::string null_order;
    std::shared_ptr<GpuPlanCache> plans;
  };
  std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;
  std::deque<std::string> order_;
};

}  // namespace tally
