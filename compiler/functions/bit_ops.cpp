// BIT_AND, BIT_OR and BIT_XOR over integers: the bitwise fold of the non-NULL values, of the
// argument's type (its values sign-extended to 64 bits, which every operator preserves);
// NULL over no values.
#include <fmt/format.h>

#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/host_state_ops.h"

namespace tally::aggregates {

namespace {

enum class Bits { And, Or, Xor };

template <Bits Op>
int64_t apply(int64_t a, int64_t b) {
  if constexpr (Op == Bits::And) return a & b;
  if constexpr (Op == Bits::Or) return a | b;
  return a ^ b;
}

// `sum` holds the bits folded so far; the first value sets them (no identity to start from
// on the host).
template <Bits Op>
void fold(HostAggState& s, int64_t bits, int64_t count) {
  const auto so_far = static_cast<int64_t>(s.sum);
  s.sum = s.count == 0 ? bits : apply<Op>(so_far, bits);
  s.count += count;
}

template <Bits Op>
void update(HostAggState& s, const Value& v, const AggContext&) {
  fold<Op>(s, v.i, 1);
}

template <Bits Op>
void combine(HostAggState& into, const HostAggState& from, const AggContext&) {
  if (from.count != 0) fold<Op>(into, static_cast<int64_t>(from.sum), from.count);
}

Value final(const HostAggState& s, const AggContext&) {
  return s.count ? Value::from_int(static_cast<int64_t>(s.sum)) : Value();
}

std::string device_final(const DeviceFinal& d) {
  return fmt::format("    {0} = {1} == 0; {2} = (i128){3};\n", d.null, d.fields[0], d.out,
                     d.fields[1]);
}

AggregateTyping typing(const Type& arg) {
  if (arg.is_integer()) return {arg, nullptr};
  if (arg.is_hugeint()) return {std::nullopt, "a HUGEINT argument is not supported"};
  return {std::nullopt, "the argument must be an integer"};
}

StateKind and_state(const Type&) { return StateKind::BitAnd; }
StateKind or_state(const Type&) { return StateKind::BitOr; }
StateKind xor_state(const Type&) { return StateKind::BitXor; }

template <Bits Op>
StateInfo bits_state(StateKind kind, const char* name, FieldKind field) {
  return {kind,
          name,
          {FieldKind::Count, field},
          SumGrowth::None,
          false,
          update<Op>,
          combine<Op>,
          final,
          device_final};
}

}  // namespace

const StateInfo kBitAndState =
    bits_state<Bits::And>(StateKind::BitAnd, "BitAnd", FieldKind::AndI64);
const StateInfo kBitOrState = bits_state<Bits::Or>(StateKind::BitOr, "BitOr", FieldKind::OrI64);
const StateInfo kBitXorState =
    bits_state<Bits::Xor>(StateKind::BitXor, "BitXor", FieldKind::XorI64);

// AND and OR of a set are those of its distinct values; XOR is not (x ^ x is 0).
const AggregateFunction kBitAnd = {AggKind::BitAnd,       "BIT_AND", {"BIT_AND"},
                                   DistinctRule::Ignored, typing,    and_state};
const AggregateFunction kBitOr = {AggKind::BitOr,        "BIT_OR", {"BIT_OR"},
                                  DistinctRule::Ignored, typing,   or_state};
const AggregateFunction kBitXor = {AggKind::BitXor,        "BIT_XOR", {"BIT_XOR"},
                                   DistinctRule::Accepted, typing,    xor_state};

}  // namespace tally::aggregates
