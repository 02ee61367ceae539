// What a row merges beside its aggregates' arguments, declared once per row before the
// merges: exact squares for the exact variances (first pass) and, in the second pass,
// deviations from the group's means (complete after the first pass) with their powers and,
// for the aggregates of (y, x), their products. Only the terms some field of this pass
// merges are declared.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/codegen/aggregation_context.h"

namespace tally {

// One aggregate's inputs for a row: its argument, its second argument (aggregates of two;
// else empty) and when the row is skipped (either is NULL).
struct RowInput {
  std::string value, key, null;
};

class PassTerms {
 public:
  PassTerms(AggregationContext& ctx, bool m2_pass, const std::vector<std::string>& hints)
      : ctx_(ctx), m2_pass_(m2_pass), hints_(hints) {}

  // Declares in `code` the terms the fields of this pass merge for this row.
  void declare(const std::vector<RowInput>& inputs, std::string& code);
  // The term aggregate a's field of input `in` merges: the argument itself, its second
  // argument, or a term declare() made.
  std::string term(size_t a, FieldInput in, const RowInput& input) const;

 private:
  std::string make(size_t a, FieldInput in, const RowInput& input, std::string& code);
  std::string declare_one(size_t a, FieldInput in, const std::string& hint,
                          const std::string& expression, std::string& code);
  std::string deviation(size_t a, FieldKind sum, const std::string& value) const;
  std::string arg_pair(size_t a, bool greatest, const RowInput& input) const;
  static const char* split_term_hint(FieldInput in);
  std::string split_term(size_t a, FieldInput in, const RowInput& input) const;
  std::string wide_key_image(size_t a, const RowInput& input) const;
  std::string value_at_key(size_t a, const RowInput& input) const;
  std::string value_hash(size_t a, const RowInput& input) const;

  AggregationContext& ctx_;
  const bool m2_pass_;
  const std::vector<std::string>& hints_;
  std::map<std::pair<size_t, FieldInput>, std::string> terms_;
};

}  // namespace tally
