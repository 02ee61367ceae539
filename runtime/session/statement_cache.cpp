#include "runtime/session/statement_cache.h"

#include "compiler/parse/parser.h"

namespace tally {

namespace {

// Keeps at most `limit` keys in `map`, the oldest insertion going first.
template <typename Map>
void insert_bounded(Map& map, std::deque<std::string>& order, size_t limit, std::string key,
                    typename Map::mapped_type value) {
  if (map.size() >= limit && !order.empty()) {
    map.erase(order.front());
    order.pop_front();
  }
  order.push_back(key);
  map.emplace(std::move(key), std::move(value));
}

}  // namespace

std::shared_ptr<const ParsedScript> ScriptCache::parse(std::string_view sql) {
  if (sql.size() > kMaxScriptBytes) return std::make_shared<const ParsedScript>(parse_script(sql));
  {
    std::lock_guard lock(mutex_);
    auto it = scripts_.find(sql);
    if (it != scripts_.end()) {
      ++hits_;
      return it->second;
    }
  }
  // Parsed outside the lock: another thread may parse the same text meanwhile (both equal).
  auto parsed = std::make_shared<const ParsedScript>(parse_script(sql));
  std::lock_guard lock(mutex_);
  auto it = scripts_.find(sql);
  if (it != scripts_.end()) return it->second;
  insert_bounded(scripts_, order_, kMaxScripts, std::string(sql), parsed);
  return parsed;
}

uint64_t ScriptCache::hits() const {
  std::lock_guard lock(mutex_);
  return hits_;
}

namespace {

TableSchema schema_of(const std::string& table, const Catalog& catalog) {
  const TableSchema* schema = table.empty() ? nullptr : catalog.find_table(table);
  return schema ? *schema : TableSchema{};
}

}  // namespace

std::shared_ptr<const BoundSelect> BoundSelects::find(const std::string& text,
                                                      const Catalog& catalog) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(text);
  if (it == entries_.end()) return nullptr;
  const Entry& entry = it->second;
  const TableSchema* now =
      entry.query->table.empty() ? nullptr : catalog.find_table(entry.query->table);
  const bool same = now ? entry.schema.name == now->name && entry.schema.columns == now->columns
                        : entry.schema.name.empty();
  return same ? entry.query : nullptr;
}

void BoundSelects::keep(const std::string& text, std::shared_ptr<const BoundSelect> query,
                        const Catalog& catalog) {
  Entry entry{schema_of(query->table, catalog), std::move(query)};
  std::lock_guard lock(mutex_);
  auto it = entries_.find(text);
  if (it != entries_.end()) {
    it->second = std::move(entry);
    return;
  }
  insert_bounded(entries_, order_, kMaxStatements, text, std::move(entry));
}

std::shared_ptr<GpuPlanCache> AdHocPlans::plans_for(const std::string& text,
                                                    const TableSchema* schema,
                                                    const std::string& null_order) {
  auto fresh = [&] {
    return Entry{schema ? *schema : TableSchema{}, null_order, std::make_shared<GpuPlanCache>()};
  };
  std::lock_guard lock(mutex_);
  auto it = entries_.find(text);
  if (it == entries_.end()) {
    Entry entry = fresh();
    auto plans = entry.plans;
    insert_bounded(entries_, order_, kMaxStatements, text, std::move(entry));
    return plans;
  }
  Entry& entry = it->second;
  const bool same_schema =
      schema ? entry.schema.name == schema->name && entry.schema.columns == schema->columns
             : entry.schema.name.empty();
  if (!same_schema || entry.null_order != null_order) entry = fresh();
  return entry.plans;
}

}  // namespace tally
