// The names of one generated program: every identifier unique, none a keyword or a name of
// the device library, each made from what it holds ("l_quantity", "sum_qty", "slot_count"),
// and the same query always gets the same names (a stable kernel-cache key).
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tally {

class SymbolTable {
 public:
  SymbolTable();

  // A new identifier from `hint`: lower case letters, digits and '_', numbered when taken.
  std::string fresh(std::string_view hint);
  // A new identifier whose `<name>_null` is free too: a value and its NULL flag.
  std::string fresh_pair(std::string_view hint);
  // `name` is the program's own (a fixed variable of the generated kernels): never given out.
  void reserve(std::string_view name) { used_.emplace(name); }

  // The identifier of the declaration `key` (a parameter, a lookup table, ...): declared once,
  // the same name after. `declared` says whether this call made it. `pair`: `<name>_null` is
  // the declaration's too (a value and its NULL flag).
  std::string declare(const std::string& key, std::string_view hint, bool& declared,
                      bool pair = false);

  // Names made fresh while a Scope lives are free again after it (a block's temporaries; a
  // block written twice gets the same names both times). Declarations by key stay.
  class [[nodiscard]] Scope {
   public:
    explicit Scope(SymbolTable& t) : t_(t), mark_(t.scoped_.size()), counters_(t.counters_) {}
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope();

   private:
    SymbolTable& t_;
    size_t mark_;
    std::unordered_map<std::string, int> counters_;
  };

 private:
  std::string take(std::string base, bool scoped, bool pair = false);

  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, std::string> declared_;
  std::unordered_map<std::string, int> counters_;  // per base: the next number to try
  std::vector<std::string> scoped_;                // fresh names, newest last
};

// `text` as an identifier: letters lower-cased, anything else '_', runs of '_' squeezed, at
// most 40 characters, never empty or starting with a digit.
std::string identifier_from(std::string_view text);

}  // namespace tally
