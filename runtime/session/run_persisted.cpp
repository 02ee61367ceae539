// The catalog's side of a database on disk: opening one, and saving each change to it.
#include "runtime/session/database.h"
#include "runtime/session/database_store.h"

namespace tally {

void Database::open_store(const std::string& path) {
  std::shared_ptr<DatabaseStore> store = DatabaseStore::open(path);
  for (const TablePtr& table : store->tables()) put_table(table);
  std::lock_guard lock(mutex_);
  store_ = std::move(store);
}

std::string Database::store_path() const {
  std::lock_guard lock(mutex_);
  return store_ ? store_->path() : std::string();
}

StatementOutcome Database::changing_table(const std::string& name,
                                          const std::function<StatementOutcome()>& run) {
  std::shared_ptr<DatabaseStore> store;
  {
    std::lock_guard lock(mutex_);
    store = store_;
  }
  TablePtr before = table(name);
  StatementOutcome outcome = run();
  TablePtr after = table(name);
  if (!store || after == before) return outcome;
  try {
    if (after) {
      store->save_table(*after);
    } else {
      store->drop_table(name);
    }
  } catch (...) {
    std::lock_guard lock(mutex_);
    if (before) {
      tables_[name] = before;
    } else {
      tables_.erase(name);
    }
    throw;
  }
  return outcome;
}

}  // namespace tally
