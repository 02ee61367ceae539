// The state fields of the interpreter's row program (compiler/codegen/row_program.h): which
// aggregates it merges, and each StateLayout field as the Scan merges it
// (templates/tally_interp.cuh's FieldOp).
#pragma once

#include "compiler/functions/aggregate_state.h"
#include "compiler/ir/query.h"

namespace tally {

// Whether the interpreter merges aggregates of this kind (their arguments' types are checked
// apart).
bool interpreter_aggregate(AggKind kind);

// The FieldOp merging a field of this kind, or -1 where the interpreter has none.
int interpreter_field_op(FieldKind kind);

// ARG_MIN / ARG_MAX's Field::flags: which of its arguments is a double (kArgValueFloat,
// kArgKeyFloat); null `why` where the 64-bit halves of its state word hold both arguments,
// else why not.
int arg_pair_flags(const AggregateCall& call, const char** why);

}  // namespace tally
