#include "compiler/codegen/lookup_tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "compiler/common/error.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

// Evaluates lookup expressions over one row of inputs, recording failures as entries.
class EntryEvaluator {
 public:
  EntryEvaluator(const BoundSelect& query, const std::vector<Value>& parameters,
                 StringHeap& strings, std::string& error)
      : row_(std::max<size_t>(1, query.scan.size())), error_(error) {
    ctx_.columns = row_.data();
    ctx_.parameters = parameters.data();
    ctx_.parameter_count = parameters.size();
    ctx_.strings = &strings;
  }

  Value& input(size_t column) { return row_[column]; }

  void add_entry(const Expr& e, LookupTable& table) {
    try {
      Value v = evaluate(e, ctx_);
      table.values.push_back(v);
      table.states.push_back(v.null ? kLookupNull : kLookupValue);
    } catch (const Error& err) {
      if (err.kind() != ErrorKind::Execution) throw;
      table.values.emplace_back();
      table.states.push_back(kLookupFailed);
      if (error_.empty()) error_ = err.what();
    }
  }

 private:
  std::vector<Value> row_;
  EvalContext ctx_;
  std::string& error_;
};

// A table indexed by dictionary code (the code after the last one is NULL's), or of one
// entry when the lookup reads no column.
LookupTable by_code(const DictLookup& lookup, const DictionaryOf& dictionary, StringHeap& strings,
                    EntryEvaluator& eval) {
  LookupTable table;
  if (lookup.scan_column < 0) {
    eval.add_entry(*lookup.expr, table);
    return table;
  }
  const auto& words = dictionary(lookup.scan_column);
  for (size_t code = 0; code <= words.size(); ++code) {
    eval.input(lookup.scan_column) =
        code < words.size() ? Value::from_int(strings.intern(words[code])) : Value();
    eval.add_entry(*lookup.expr, table);
  }
  eval.input(lookup.scan_column) = Value();
  return table;
}

// Collects domain `d`'s strings from its leaves' tables, sorts them as the CPU engine
// sorts strings, and turns the leaves' strings into ids.
std::vector<int64_t> build_domain(const GpuProgram& program, int d, LookupTables& out,
                                  StringHeap& strings) {
  const StringDomain& domain = program.string_domains[d];
  std::vector<int64_t> heap_ids;
  for (size_t l = 0; l < program.lookups.size(); ++l) {
    if (program.lookups[l].string_domain != d) continue;
    const LookupTable& t = out.tables[l];
    for (size_t i = 0; i < t.values.size(); ++i) {
      if (t.states[i] == kLookupValue) heap_ids.push_back(t.values[i].i);
    }
  }
  std::sort(heap_ids.begin(), heap_ids.end());
  heap_ids.erase(std::unique(heap_ids.begin(), heap_ids.end()), heap_ids.end());
  const Type& type = domain.expr->type;
  std::sort(heap_ids.begin(), heap_ids.end(), [&](int64_t a, int64_t b) {
    return compare_values(Value::from_int(a), Value::from_int(b), type, &strings) < 0;
  });
  if (heap_ids.size() > domain.bound) {
    throw Error(ErrorKind::Internal,
                fmt::format("the string domain of \"{}\" holds {} strings, above its bound {}",
                            domain.expr->text, heap_ids.size(), domain.bound));
  }
  std::unordered_map<int64_t, int64_t> id_of;
  for (size_t id = 0; id < heap_ids.size(); ++id) id_of[heap_ids[id]] = static_cast<int64_t>(id);
  for (size_t l = 0; l < program.lookups.size(); ++l) {
    if (program.lookups[l].string_domain != d) continue;
    LookupTable& t = out.tables[l];
    for (size_t i = 0; i < t.values.size(); ++i) {
      if (t.states[i] == kLookupValue) t.values[i] = Value::from_int(id_of.at(t.values[i].i));
    }
  }
  return heap_ids;
}

// A table indexed by id of the domain the lookup reads: entries past the domain's last
// string are never read, and the entry at its bound is NULL's.
LookupTable by_domain_id(const DictLookup& lookup, const GpuProgram& program,
                         const LookupTables& out, EntryEvaluator& eval) {
  const std::vector<int64_t>& domain = out.domains[lookup.domain_input];
  uint64_t bound = program.string_domains[lookup.domain_input].bound;
  LookupTable table;
  for (uint64_t id = 0; id <= bound; ++id) {
    if (id >= domain.size() && id < bound) {
      table.values.emplace_back();
      table.states.push_back(kLookupNull);
      continue;
    }
    eval.input(0) = id < domain.size() ? Value::from_int(domain[id]) : Value();
    eval.add_entry(*lookup.expr, table);
  }
  eval.input(0) = Value();
  return table;
}

}  // namespace

LookupTables build_lookup_tables(const GpuProgram& program, const BoundSelect& query,
                                 const DictionaryOf& dictionary,
                                 const std::vector<Value>& parameters, StringHeap& strings) {
  LookupTables out;
  EntryEvaluator eval(query, parameters, strings, out.error);
  out.tables.resize(program.lookups.size());
  // Leaves and predicates on columns first, then the domains, then tables by domain id.
  for (size_t l = 0; l < program.lookups.size(); ++l) {
    if (program.lookups[l].domain_input < 0) {
      out.tables[l] = by_code(program.lookups[l], dictionary, strings, eval);
    }
  }
  for (size_t d = 0; d < program.string_domains.size(); ++d) {
    out.domains.push_back(build_domain(program, static_cast<int>(d), out, strings));
  }
  for (size_t l = 0; l < program.lookups.size(); ++l) {
    if (program.lookups[l].domain_input >= 0) {
      out.tables[l] = by_domain_id(program.lookups[l], program, out, eval);
    }
  }
  return out;
}

}  // namespace tally
