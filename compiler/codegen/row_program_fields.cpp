#include "compiler/codegen/row_program_fields.h"

#include "templates/tally_interp.cuh"

namespace tally {

bool interpreter_aggregate(AggKind kind) {
  switch (kind) {
    case AggKind::CountStar:
    case AggKind::Count:
    case AggKind::CountIf:  // COUNT ... FILTER: its condition's count and sum of 0/1
    case AggKind::Sum:
    case AggKind::Min:
    case AggKind::Max:
    case AggKind::Avg:
    case AggKind::VarSamp:
    case AggKind::StddevSamp:
    case AggKind::ArgMin:
    case AggKind::ArgMax:
      return true;
    default:
      return false;
  }
}

int interpreter_field_op(FieldKind kind) {
  switch (kind) {
    case FieldKind::Count:
      return tally_interp::kFieldCount;
    case FieldKind::SumI128:
      return tally_interp::kFieldSum;
    case FieldKind::SumSqI128:
      return tally_interp::kFieldSumSquares;
    case FieldKind::MinI64:
    case FieldKind::MinI128:  // of 64-bit values: the host widens the cell's low word
      return tally_interp::kFieldMin;
    case FieldKind::MaxI64:
    case FieldKind::MaxI128:
      return tally_interp::kFieldMax;
    case FieldKind::SumF64:
      return tally_interp::kFieldSumFloat;
    case FieldKind::MinF64:
      return tally_interp::kFieldMinFloat;
    case FieldKind::MaxF64:
      return tally_interp::kFieldMaxFloat;
    case FieldKind::ArgMinPair:
      return tally_interp::kFieldArgMin;
    case FieldKind::ArgMaxPair:
      return tally_interp::kFieldArgMax;
    default:
      return -1;
  }
}

int arg_pair_flags(const AggregateCall& call, const char** why) {
  *why = nullptr;
  // The host reads a string key's image back only as a domain id of its value, never its key
  // (runtime/gpu/state_cells.cpp); a wide DECIMAL takes the two-pass state.
  for (const Type* t : {&call.arg->type, &call.key->type}) {
    if (t->is_string()) *why = "an ARG_MIN or ARG_MAX of strings";
    if (t->is_wide()) *why = "an ARG_MIN or ARG_MAX of a value past 64 bits";
  }
  return (call.arg->type.is_float() ? tally_interp::kArgValueFloat : 0) |
         (call.key->type.is_float() ? tally_interp::kArgKeyFloat : 0);
}

}  // namespace tally
