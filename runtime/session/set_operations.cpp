#include "runtime/session/set_operations.h"

#include <fmt/format.h>

#include <string>
#include <unordered_map>

#include "compiler/bind/coerce.h"
#include "compiler/common/error.h"
#include "compiler/common/value_ops.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

const char* operator_name(ast::SetOperator op) {
  switch (op) {
    case ast::SetOperator::Union:
      return "UNION";
    case ast::SetOperator::Intersect:
      return "INTERSECT";
    case ast::SetOperator::Except:
      return "EXCEPT";
  }
  return "UNION";
}

// The combined result's shape: left's names, the two sides' common types.
Result combined_shape(const ast::SetOperation& operation, const Result& left, const Result& right) {
  const char* name = operator_name(operation.op);
  if (left.types.size() != right.types.size()) {
    throw Error(ErrorKind::Binder,
                fmt::format("each {} query must have the same number of columns", name),
                operation.location);
  }
  Result shape;
  shape.names = left.names;
  for (size_t c = 0; c < left.types.size(); ++c) {
    std::optional<Type> common = common_type(left.types[c], right.types[c]);
    if (!common) {
      throw Error(ErrorKind::Type,
                  fmt::format("{} types {} and {} cannot be matched", name,
                              left.types[c].to_string(), right.types[c].to_string()),
                  operation.location);
    }
    shape.types.push_back(*common);
  }
  return shape;
}

// One side's rows converted to the combined types, strings moved into `out`'s heap.
std::vector<std::vector<Value>> converted_rows(const Result& side, Result& out) {
  std::vector<std::vector<Value>> rows;
  rows.reserve(side.rows.size());
  for (const auto& row : side.rows) {
    std::vector<Value> converted;
    for (size_t c = 0; c < row.size(); ++c) {
      const Value& v = row[c];
      if (v.null) {
        converted.push_back(Value());
      } else if (out.types[c].is_string()) {
        converted.push_back(Value::from_int(out.strings->intern(side.strings->get(v.i))));
      } else {
        converted.push_back(cast_value(v, side.types[c], out.types[c], out.strings.get()));
      }
    }
    rows.push_back(std::move(converted));
  }
  return rows;
}

// Bytes that are equal exactly when two rows of `types` are not distinct.
std::string row_key(const std::vector<Value>& row, const Result& out) {
  std::string key;
  for (size_t c = 0; c < row.size(); ++c) {
    const Value& v = row[c];
    key.push_back(v.null ? 0 : 1);
    if (v.null) continue;
    const Type& type = out.types[c];
    if (type.is_string()) {
      const std::string& text = out.strings->get(v.i);
      uint64_t size = text.size();
      key.append(reinterpret_cast<const char*>(&size), sizeof size);
      key += text;
    } else if (type.id == TypeId::Real || type.id == TypeId::Double) {
      double f = v.f == 0 ? 0.0 : v.f;  // -0.0 equals 0.0
      key.append(reinterpret_cast<const char*>(&f), sizeof f);
    } else if (type.id == TypeId::Decimal || type.is_interval()) {
      const Value payload = hash_payload(v, type);  // one key for '1 day' and '24 hours'
      key.append(reinterpret_cast<const char*>(&payload.d), sizeof payload.d);
    } else {
      key.append(reinterpret_cast<const char*>(&v.i), sizeof v.i);
    }
  }
  return key;
}

}  // namespace

Result combine_results(const ast::SetOperation& operation, const Result& left,
                       const Result& right) {
  Result out = combined_shape(operation, left, right);
  out.rows = ResultRows(out.types);
  std::vector<std::vector<Value>> lrows = converted_rows(left, out);
  std::vector<std::vector<Value>> rrows = converted_rows(right, out);
  if (operation.op == ast::SetOperator::Union && operation.all) {
    for (const auto& row : lrows) out.rows.push_back(row);
    for (const auto& row : rrows) out.rows.push_back(row);
    return out;
  }
  if (operation.op == ast::SetOperator::Union) {
    std::unordered_map<std::string, size_t> seen;
    for (auto* rows : {&lrows, &rrows}) {
      for (auto& row : *rows) {
        if (seen.emplace(row_key(row, out), 0).second) out.rows.push_back(std::move(row));
      }
    }
    return out;
  }
  // INTERSECT / EXCEPT: how often each row is on the right; left rows use them up.
  std::unordered_map<std::string, size_t> right_count;
  for (const auto& row : rrows) ++right_count[row_key(row, out)];
  std::unordered_map<std::string, size_t> emitted;
  const bool intersect = operation.op == ast::SetOperator::Intersect;
  for (auto& row : lrows) {
    std::string key = row_key(row, out);
    size_t& on_right = right_count[key];
    bool keep;
    if (operation.all) {
      // INTERSECT ALL: min(m, n) copies; EXCEPT ALL: max(m - n, 0).
      keep = intersect == (on_right > 0);
      if (on_right > 0) --on_right;
    } else {
      keep = intersect == (on_right > 0) && emitted[key]++ == 0;
    }
    if (keep) out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace tally
