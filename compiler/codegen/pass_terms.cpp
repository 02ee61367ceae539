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
    case FieldInput::SquareHigh:
    case FieldInput::SquareCross:
    case FieldInput::SquareLow:
      return declare_one(a, in, split_term_hint(in), split_term(a, in, input), code);
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
    case FieldInput::ArgKeyImage:
      return declare_one(a, in, "key_image", wide_key_image(a, input), code);
    case FieldInput::ArgValueAtKey:
      return declare_one(a, in, "value_image", value_at_key(a, input), code);
    case FieldInput::Hash:
      return declare_one(a, in, "hash", value_hash(a, input), code);
    case FieldInput::ValueBit:  // the value's bit of its <= 64-value domain (CountDistinctBits)
      return declare_one(a, in, "bit",
                         fmt::format("{} ? 0ull : 1ull << (u32)((i64)({}) - ({}ll))", input.null,
                                     input.value, ctx_.plan.layout.distinct_base.at(a)),
                         code);
    default:
      throw Error(ErrorKind::Internal, "a row term of no state field input");
  }
}

std::string PassTerms::declare_one(size_t a, FieldInput in, const std::string& hint,
                                   const std::string& expression, std::string& code) {
  const std::string name = ctx_.symbols.fresh(hints_[a] + "_" + hint);
  const bool exact = in == FieldInput::Square || in == FieldInput::ArgMinPair ||
                     in == FieldInput::ArgMaxPair || in == FieldInput::SquareHigh ||
                     in == FieldInput::SquareCross || in == FieldInput::SquareLow ||
                     in == FieldInput::ArgKeyImage || in == FieldInput::ArgValueAtKey;
  const char* type = in == FieldInput::Hash || in == FieldInput::ValueBit ? "u64"
                     : exact                                              ? "i128"
                                                                          : "f64";
  code += fmt::format("const {} {} = {};\n", type, name, expression);
  terms_[{a, in}] = name;
  return name;
}

const char* PassTerms::split_term_hint(FieldInput in) {
  return in == FieldInput::SquareHigh    ? "square_high"
         : in == FieldInput::SquareCross ? "square_cross"
                                         : "square_low";
}

// One part of the row's square with its value split at the plan's bits (templates/
// tally_finals.cuh split_square_sum); 0 for a NULL. Values below 2^62 (split at 31 bits or
// less) multiply in 64 bits.
std::string PassTerms::split_term(size_t a, FieldInput in, const RowInput& input) const {
  const int bits = ctx_.plan.layout.square_split.at(a);
  const char* word = 2 * bits <= 62 ? "i64" : "i128";
  const std::string high =
      fmt::format("tally_finals::split_high(({}){}, {})", word, input.value, bits);
  const std::string low =
      fmt::format("tally_finals::split_low(({}){}, {})", word, input.value, bits);
  const std::string product = in == FieldInput::SquareHigh    ? high + " * " + high
                              : in == FieldInput::SquareCross ? high + " * " + low
                                                              : low + " * " + low;
  return fmt::format("{} ? (i128)0 : {}", input.null, product);
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

namespace {

// An argument of ARG_MIN/ARG_MAX's two-pass state as the device library's overload for
// its form takes it: a wide DECIMAL in 128 bits, a float as a double, the rest in 64 bits.
std::string wide_argument(const Type& t, const std::string& e) {
  return fmt::format("({}){}", t.is_wide_decimal() ? "i128" : t.is_float() ? "f64" : "i64", e);
}

}  // namespace

// The two-pass state's key image of the row (templates/tally_arg_pair.cuh).
std::string PassTerms::wide_key_image(size_t a, const RowInput& input) const {
  return fmt::format("tally_arg_pair::wide_key_image({})",
                     wide_argument(ctx_.query.aggregates[a].key->type, input.key));
}

// Second pass: the value's image where the row's key is its group's best (the first pass's
// key field), else the identity of the value field's min.
std::string PassTerms::value_at_key(size_t a, const RowInput& input) const {
  const AggregateCall& call = ctx_.query.aggregates[a];
  const auto& ids = ctx_.plan.layout.aggregate_fields[a];
  const std::string& best = ctx_.fields[static_cast<size_t>(ids.at(1))];
  return fmt::format("{} == {}[slot] ? tally_arg_pair::wide_value_image({}) : {}",
                     wide_key_image(a, input), best, wide_argument(call.arg->type, input.value),
                     field_info(FieldKind::ArgValueAtKey).identity);
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
