#include "compiler/codegen/pass_terms.h"

#include <fmt/format.h>

#include "compiler/common/error.h"

namespace tally {

void PassTerms::declare(const std::vector<RowInput>& inputs, std::string& code) {
  terms_.clear();
  const auto& fields = ctx_.state_fields();
  for (size_t f = 1; f < fields.size(); ++f) {
    const FieldInfo& info = field_info(fields[f].kind);
    if (info.second_pass != m2_pass_) continue;
    const auto a = static_cast<size_t>(fields[f].aggregate);
    const bool own_term = info.input != FieldInput::One && info.input != FieldInput::Value &&
                          info.input != FieldInput::Key;
    if (own_term) make(a, info.input, inputs[a], code);
  }
}

std::string PassTerms::term(size_t a, FieldInput in, const RowInput& input) const {
  if (in == FieldInput::One) return "1";
  if (in == FieldInput::Value) return input.value;
  if (in == FieldInput::Key) return input.key;
  const auto it = terms_.find({a, in});
  if (it == terms_.end()) throw Error(ErrorKind::Internal, "a state field's row term is missing");
  return it->second;
}

// Term `in` of aggregate a, declared on first use; powers and products reuse the deviations.
std::string PassTerms::make(size_t a, FieldInput in, const RowInput& input, std::string& code) {
  if (const auto it = terms_.find({a, in}); it != terms_.end()) return it->second;
  switch (in) {
    case FieldInput::Square:
      return declare_one(a, in, "square",
                         fmt::format("{0} ? (i128)0 : mul_checked((i128){1}, (i128){1}, status)",
                                     input.null, input.value),
                         code);
    case FieldInput::Deviation:
      return declare_one(a, in, "deviation", deviation(a, FieldKind::SumF64, input.value), code);
    case FieldInput::KeyDeviation:
      return declare_one(a, in, "deviation_x", deviation(a, FieldKind::SumKeyF64, input.key), code);
    case FieldInput::DeviationSquare: {
      const std::string d = make(a, FieldInput::Deviation, input, code);
      return declare_one(a, in, "deviation_sq", fmt::format("{0} * {0}", d), code);
    }
    case FieldInput::KeyDeviationSquare: {
      const std::string d = make(a, FieldInput::KeyDeviation, input, code);
      return declare_one(a, in, "deviation_x_sq", fmt::format("{0} * {0}", d), code);
    }
    case FieldInput::CoDeviation: {
      const std::string dy = make(a, FieldInput::Deviation, input, code);
      const std::string dx = make(a, FieldInput::KeyDeviation, input, code);
      return declare_one(a, in, "co_deviation", fmt::format("{} * {}", dy, dx), code);
    }
    case FieldInput::DeviationCube: {
      const std::string d = make(a, FieldInput::Deviation, input, code);
      const std::string sq = make(a, FieldInput::DeviationSquare, input, code);
      return declare_one(a, in, "deviation_cube", fmt::format("{} * {}", sq, d), code);
    }
    case FieldInput::DeviationFourth: {
      const std::string sq = make(a, FieldInput::DeviationSquare, input, code);
      return declare_one(a, in, "deviation_fourth", fmt::format("{0} * {0}", sq), code);
    }
    case FieldInput::ArgMinPair:
    case FieldInput::ArgMaxPair:
      return declare_one(a, in, "pair", arg_pair(a, in == FieldInput::ArgMaxPair, input), code);
    case FieldInput::Hash:
      return declare_one(a, in, "hash", value_hash(a, input), code);
    default:
      throw Error(ErrorKind::Internal, "a row term of no state field input");
  }
}

std::string PassTerms::declare_one(size_t a, FieldInput in, const std::string& hint,
                                   const std::string& expression, std::string& code) {
  const std::string name = ctx_.symbols.fresh(hints_[a] + "_" + hint);
  const bool exact =
      in == FieldInput::Square || in == FieldInput::ArgMinPair || in == FieldInput::ArgMaxPair;
  const char* type = in == FieldInput::Hash ? "u64" : exact ? "i128" : "f64";
  code += fmt::format("const {} {} = {};\n", type, name, expression);
  terms_[{a, in}] = name;
  return name;
}

// ARG_MIN / ARG_MAX's state word of the row (templates/tally_arg_pair.cuh): each argument
// widened to the 64-bit form of its type, then imaged.
std::string PassTerms::arg_pair(size_t a, bool greatest, const RowInput& input) const {
  const AggregateCall& call = ctx_.query.aggregates[a];
  auto word = [](const Type& t, const std::string& e) {
    return fmt::format("({}){}", t.is_float() ? "f64" : "i64", e);
  };
  return fmt::format(
      "tally_arg_pair::pair(tally_arg_pair::key_image({}), tally_arg_pair::value_image({}), {})",
      word(call.key->type, input.key), word(call.arg->type, input.value),
      greatest ? "true" : "false");
}

// APPROX_COUNT_DISTINCT's hash of the row's value, as the CPU engine hashes it
// (templates/tally_hll.cuh): an integer, date or time sign-extended, a DECIMAL's unscaled
// value or a HUGEINT, a float as a double.
std::string PassTerms::value_hash(size_t a, const RowInput& input) const {
  const Type& t = ctx_.query.aggregates[a].arg->type;
  if (t.is_exact128()) return fmt::format("tally_hll::hash_wide((i128){})", input.value);
  if (t.is_float()) return fmt::format("tally_hll::hash_double((f64){})", input.value);
  return fmt::format("tally_hll::hash_integer((i64){})", input.value);
}

// `value` minus its group's mean: aggregate a's count and its sum field of kind `sum`, both
// complete after the first pass.
std::string PassTerms::deviation(size_t a, FieldKind sum, const std::string& value) const {
  const auto& ids = ctx_.plan.layout.aggregate_fields[a];
  for (int id : ids) {
    if (ctx_.state_fields()[static_cast<size_t>(id)].kind != sum) continue;
    return fmt::format("(f64){} - {}[slot] / (f64){}[slot]", value,
                       ctx_.fields[static_cast<size_t>(id)],
                       ctx_.fields[static_cast<size_t>(ids[0])]);
  }
  throw Error(ErrorKind::Internal, "a deviation of an aggregate without a sum");
}

}  // namespace tally
