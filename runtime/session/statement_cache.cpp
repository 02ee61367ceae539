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

const TableSchema* schema_of(const std::string& table, const Catalog& catalog) {
  return table.empty() ? nullptr : catalog.find_table(table);
}

// Whether a statement kept with `kept` (empty: it read no table) still reads the table it
// was bound against: the same name and columns, so its column indexes hold.
bool same_schema(const TableSchema& kept, const TableSchema* now) {
  return now ? kept.name == now->name && kept.columns == now->columns : kept.name.empty();
}

}  // namespace

std::shared_ptr<const BoundSelect> BoundSelects::find(const std::string& text,
                                                      const Catalog& catalog) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(text);
  if (it == entries_.end()) return nullptr;
  const Entry& entry = it->second;
  return same_schema(entry.schema, schema_of(entry.query->table, catalog)) ? entry.query : nullptr;
}

void BoundSelects::keep(const std::string& text, std::shared_ptr<const BoundSelect> query,
                        const Catalog& catalog) {
  const TableSchema* schema = schema_of(query->table, catalog);
  Entry entry{schema ? *schema : TableSchema{}, std::move(query)};
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
  if (!same_schema(entry.schema, schema) || entry.null_order != null_order) entry = fresh();
  return entry.plans;
}

}  // namespace tally
