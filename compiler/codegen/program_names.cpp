#include "compiler/codegen/program_names.h"

#include <fmt/format.h>

namespace tally {

std::vector<ColumnNames> name_columns(const BoundSelect& query, SymbolTable& symbols) {
  std::vector<ColumnNames> names;
  for (size_t c = 0; c < query.scan.size(); ++c) {
    const std::string base = identifier_from(query.scan[c].name);
    bool declared = false;
    auto name = [&](const char* what, const std::string& hint, bool pair = false) {
      return symbols.declare(fmt::format("column{}.{}", c, what), hint, declared, pair);
    };
    ColumnNames n;
    n.value = name("value", base, true);
    n.null = n.value + "_null";
    n.held = name("held", base + "_held", true);
    n.held_null = n.held + "_null";
    n.words = name("words", base + "_words");
    n.values = name("values", base + "_values");
    n.valid = name("valid", base + "_valid");
    n.chunk_a = name("chunk_a", base + "_chunk_a");
    n.chunk_b = name("chunk_b", base + "_chunk_b");
    names.push_back(n);
  }
  return names;
}

std::vector<std::string> aggregate_hints(const BoundSelect& query) {
  std::vector<std::string> hints;
  for (size_t a = 0; a < query.aggregates.size(); ++a) {
    std::string hint = identifier_from(query.aggregates[a].text);
    for (const OutputColumn& o : query.outputs) {
      if (o.expr->kind == ExprKind::AggregateRef && o.expr->index == static_cast<int>(a)) {
        hint = identifier_from(o.name);
        break;
      }
    }
    hints.push_back(hint);
  }
  return hints;
}

std::vector<std::string> name_fields(const StateLayout& layout, const BoundSelect& query,
                                     SymbolTable& symbols) {
  const std::vector<std::string> hints = aggregate_hints(query);
  std::vector<std::string> names;
  bool declared = false;
  for (size_t f = 0; f < layout.fields.size(); ++f) {
    const StateField& field = layout.fields[f];
    std::string hint = "group_rows";
    if (field.aggregate >= 0) {
      const StateInfo& state = state_info(layout.aggregate_states[field.aggregate]);
      hint = hints[field.aggregate];
      // A lone value field takes the aggregate's name; counts and multi-field states say which.
      if (field.kind == FieldKind::Count || state.fields.size() > 2) {
        hint += std::string("_") + field_info(field.kind).name;
      }
    }
    names.push_back(symbols.declare(fmt::format("field{}", f), hint, declared));
  }
  return names;
}

}  // namespace tally
