// The interpreted tier's row program (compiler/codegen/row_program.h): a statement's filter,
// group keys and aggregate arguments as register instructions over 64-bit integers with NULL
// flags (a DOUBLE's bits, tally_interp_float.cuh), which one precompiled Scan runs for any
// statement (templates/tally_interp_kernel.cuh), so that a new statement waits for no NVRTC
// compile. Host C++ reads the same evaluator, so the CPU tests check a program row by row against
// the CPU engine.
#pragma once

#include "tally_arg_pair.cuh"
#include "tally_date_parts.cuh"
#include "tally_host_device.cuh"
#include "tally_interp_float.cuh"
#include "tally_lane_field.cuh"

namespace tally_interp {

typedef long long i64;
typedef unsigned long long u64;
typedef unsigned int u32;

// Registers a program may use; the compiler declines a statement that needs more.
constexpr int kMaxRegisters = 64;

enum Op : int {
  kOpColumn,        // r[dst] = column a at the row
  kOpConst,         // r[dst] = imm; NULL when b != 0
  kOpAdd,           // r[dst] = r[a] + r[b]
  kOpSub,           // r[dst] = r[a] - r[b]
  kOpMul,           // r[dst] = r[a] * r[b]
  kOpScale,         // r[dst] = r[a] * imm (a DECIMAL's scale raised)
  kOpNeg,           // r[dst] = -r[a]
  kOpAbs,           // r[dst] = |r[a]|
  kOpMod,           // r[dst] = r[a] % r[b] (sign of the dividend); 0 where r[b] is 0
  kOpCompare,       // r[dst] = r[a] <sub> r[b]; sub: compiler/ir/expr.h's CompareOp
  kOpAnd,           // SQL's three-valued AND of r[a], r[b]
  kOpOr,            // and OR
  kOpNot,           // NOT r[a]
  kOpIsNull,        // r[dst] = r[a] IS NULL (sub 1: IS NOT NULL); never NULL
  kOpSelect,        // r[dst] = r[a] is TRUE ? r[b] : r[c] (CASE, one WHEN)
  kOpCoalesce,      // r[dst] = r[a] unless NULL, else r[b]
  kOpDateField,     // r[dst] = EXTRACT(sub) of the DATE r[a]
  kOpDateTrunc,     // r[dst] = date_trunc(sub) of the DATE r[a]
  kOpTsField,       // r[dst] = EXTRACT(sub) of the TIMESTAMP r[a]
  kOpTsTrunc,       // r[dst] = date_trunc(sub) of the TIMESTAMP r[a]
  kOpLookup,        // r[dst] = the value at word imm for the code r[a] of a string column (c codes)
  kOpDiv,           // r[dst] = r[a] / r[b], truncated toward 0 (integers); 0 where r[b] is 0
  kOpDivRound,      // r[dst] = r[a] / r[b], rounded half away from 0 (DECIMALs); 0 where r[b] is 0
  kOpAddMonths,     // r[dst] = the DATE r[a] plus imm months (the day clamped to the month's end)
  kOpFloat,         // r[dst] = FloatOp sub of the doubles r[a], r[b] (tally_interp_float.cuh)
  kOpCompareFloat,  // r[dst] = r[a] <sub> r[b] of doubles, in SQL's order (NaN last)
};

struct Instr {
  int op, sub, dst, a, b, c;
  i64 imm;
};

// kOpSelect (CASE), kOpCoalesce, kOpAnd and kOpOr with sub kLazy evaluate their later operands
// only where the CPU engine does (compiler/eval/evaluator.cpp): what counts for row faults.
constexpr int kLazy = 1;

// How a scan column is stored on the device (runtime/gpu/device_layout.h).
// A DOUBLE column is read as kColPlainI64, its bits; a REAL one widens to a double's; a
// 16-byte DECIMAL whose values all fit 64 bits is read as its low words.
enum ColumnKind : u32 {
  kColBitPacked,
  kColPlainU8,
  kColPlainI16,
  kColPlainI32,
  kColPlainI64,
  kColPlainF32,
  kColPlainI128Low
};

struct Column {
  const void* data;
  const u64* validity;  // null: no NULLs
  i64 base;             // bit-packed: value = base + field
  u32 bits;
  u32 kind;
};

// One state field a row merges (compiler/functions/aggregate_state.h's FieldKind spelled
// for the interpreter): reg < 0 merges the row itself (the rows-per-group counter). A DISTINCT
// aggregate's first field puts (group, value) into the DISTINCT set instead, from which the
// host builds its state; its other fields merge nothing.
enum FieldOp : int {
  kFieldCount,
  kFieldSum,
  kFieldSumSquares,
  kFieldMin,
  kFieldMax,
  kFieldDistinct,
  kFieldUnused,
  kFieldSumFloat,  // a DOUBLE's sum, MIN and MAX (SQL's order), in the cell's low word
  kFieldMinFloat,
  kFieldMaxFloat,
  kFieldArgMin,  // ARG_MIN / ARG_MAX's pair word of (key, value) (arg_pair_of_row)
  kFieldArgMax
};

// An ARG_MIN / ARG_MAX field's flags: which of its arguments holds a double's bits.
constexpr int kArgValueFloat = 1, kArgKeyFloat = 2;

// A DISTINCT set entry's tag: group * kDistinctTags + field.
constexpr u64 kDistinctTags = 64;

// reg: the value merged (ARG_MIN / ARG_MAX: its value, NULL where either argument is, and
// `key` its ordering argument).
struct Field {
  int op, reg, key, flags;
};

// A group key's mixed-radix digit: r[reg] - lo, or size - 1 for NULL.
struct Key {
  int reg, pad;
  i64 lo;
  u64 size;
};

// The program as the Scan reads it; every pointer is into one device buffer.
struct Program {
  const Instr* instrs;
  const Column* columns;
  const Key* keys;
  const Field* fields;
  const u64* lookups;
  int instr_count, key_count, field_count, filter;  // filter: a register, or -1
  // A divisor may be 0: run_row tracks which registers' values would raise the CPU engine's
  // error, and row_faults says whether the row does (the statement then takes its own kernels).
  int faults;
};

TALLY_HD void load_column(const Column& c, u64 row, i64* value, bool* null) {
  *null = c.validity != 0 && ((c.validity[row >> 6] >> (row & 63)) & 1ull) == 0;
  switch (c.kind) {
    case kColBitPacked:
      *value = (i64)((u64)c.base + tally_lanes::lane_field((const u32*)c.data, row, c.bits));
      return;
    case kColPlainU8:
      *value = ((const unsigned char*)c.data)[row];
      return;
    case kColPlainI16:
      *value = ((const short*)c.data)[row];
      return;
    case kColPlainI32:
      *value = ((const int*)c.data)[row];
      return;
    case kColPlainI128Low:
      *value = ((const i64*)c.data)[2 * row];
      return;
    case kColPlainF32:
      *value = float_bits((double)((const float*)c.data)[row]);
      return;
    default:
      *value = ((const i64*)c.data)[row];
  }
}

TALLY_HD bool compare(int op, i64 x, i64 y) {
  switch (op) {
    case 0:
      return x == y;
    case 1:
      return x != y;
    case 2:
      return x < y;
    case 3:
      return x <= y;
    case 4:
      return x > y;
    default:
      return x >= y;
  }
}

// x / y rounded half away from zero, as compiler/common/decimal.h's div_round: up in
// magnitude where twice the remainder reaches the divisor. |x| and |y| stay far below 2^63.
TALLY_HD i64 divide_rounded(i64 x, i64 y) {
  const i64 q = x / y, rem = x % y;
  const i64 r = rem < 0 ? -rem : rem, d = y < 0 ? -y : y;
  return r >= d - r ? q + ((x < 0) != (y < 0) ? -1 : 1) : q;
}

// Whether the instruction divides non-NULL operands by 0, which raises the CPU engine's error.
TALLY_HD bool divides_by_zero(const Instr& in, const i64* r, const bool* n) {
  const bool division = in.op == kOpDiv || in.op == kOpDivRound || in.op == kOpMod ||
                        (in.op == kOpFloat && (in.sub == kFloatDiv || in.sub == kFloatMod));
  if (!division || n[in.a] || n[in.b]) return false;
  return in.op == kOpFloat ? float_of(r[in.b]) == 0.0 : r[in.b] == 0;
}

// Whether the instruction's value raises the CPU engine's error for this row (f: its operands'):
// a division by 0, or an operand's error where the CPU engine evaluates that operand.
TALLY_HD bool instr_fault(const Instr& in, const i64* r, const bool* n, const bool* f) {
  if (in.op == kOpColumn || in.op == kOpConst) return false;  // a: a column; b: a NULL flag
  if (in.a >= 0 && f[in.a]) return true;
  const bool fb = in.b >= 0 && f[in.b];
  const bool lazy = in.sub == kLazy && (in.op == kOpSelect || in.op == kOpCoalesce ||
                                        in.op == kOpAnd || in.op == kOpOr);
  if (lazy) {
    const bool xn = n[in.a], x_true = !xn && r[in.a] != 0, x_false = !xn && r[in.a] == 0;
    if (in.op == kOpSelect) return x_true ? fb : f[in.c];
    if (in.op == kOpCoalesce) return xn && fb;
    return (in.op == kOpAnd ? !x_false : !x_true) && fb;
  }
  return fb || (in.op == kOpSelect && f[in.c]) || divides_by_zero(in, r, n);
}

// Runs the program's instructions over one row: r and n hold each register's value and NULL,
// and f (where Program::faults) whether it would raise the CPU engine's error.
TALLY_HD void run_row(const Program& p, u64 row, i64* r, bool* n, bool* f) {
  for (int i = 0; i < p.instr_count; ++i) {
    const Instr in = p.instrs[i];
    const i64 x = in.a >= 0 ? r[in.a] : 0, y = in.b >= 0 ? r[in.b] : 0;
    const bool xn = in.a >= 0 && n[in.a], yn = in.b >= 0 && n[in.b];
    if (p.faults) f[in.dst] = instr_fault(in, r, n, f);
    i64 v = 0;
    bool null = xn || yn;
    switch (in.op) {
      case kOpColumn:
        load_column(p.columns[in.a], row, &v, &null);
        break;
      case kOpConst:
        v = in.imm;
        null = in.b != 0;
        break;
      case kOpAdd:
        v = (i64)((u64)x + (u64)y);
        break;
      case kOpSub:
        v = (i64)((u64)x - (u64)y);
        break;
      case kOpMul:
        v = (i64)((u64)x * (u64)y);
        break;
      case kOpScale:
        v = (i64)((u64)x * (u64)in.imm);
        break;
      case kOpNeg:
        v = (i64)(0ull - (u64)x);
        break;
      case kOpAbs:
        v = x < 0 ? (i64)(0ull - (u64)x) : x;
        break;
      case kOpMod:
        v = null || y == 0 ? 0 : x % y;
        break;
      case kOpDiv:
        v = null || y == 0 ? 0 : x / y;
        break;
      case kOpDivRound:
        v = null || y == 0 ? 0 : divide_rounded(x, y);
        break;
      case kOpCompare:
        v = compare(in.sub, x, y);
        break;
      case kOpCompareFloat:
        v = compare(in.sub, cmp_float(float_of(x), float_of(y)), 0);
        break;
      case kOpFloat:
        v = null ? 0 : float_op(in.sub, x, y, in.imm);
        break;
      case kOpAnd:  // FALSE if either is FALSE, else NULL if either is NULL
        null = !((!xn && x == 0) || (!yn && y == 0)) && (xn || yn);
        v = !null && x != 0 && y != 0;
        break;
      case kOpOr:  // TRUE if either is TRUE, else NULL if either is NULL
        null = !((!xn && x != 0) || (!yn && y != 0)) && (xn || yn);
        v = !null && ((!xn && x != 0) || (!yn && y != 0));
        break;
      case kOpNot:
        v = x == 0;
        break;
      case kOpIsNull:
        v = in.sub ? !xn : xn;
        null = false;
        break;
      case kOpSelect: {
        const bool take = !xn && x != 0;
        v = take ? y : r[in.c];
        null = take ? yn : n[in.c];
        break;
      }
      case kOpCoalesce:
        v = xn ? y : x;
        null = xn && yn;
        break;
      case kOpDateField:
        v = null ? 0 : tally_dates::date_field(x, in.sub);
        break;
      case kOpDateTrunc:
        v = null ? 0 : tally_dates::date_trunc_days(x, in.sub);
        break;
      case kOpAddMonths:
        v = null ? 0 : tally_dates::add_months(x, in.imm);
        break;
      case kOpTsField:
        v = null ? 0 : tally_dates::timestamp_field(x, in.sub);
        break;
      case kOpTsTrunc:
        v = null ? 0 : tally_dates::timestamp_trunc(x, in.sub);
        break;
      case kOpLookup: {  // c + 1 values (NULL's last), then as many NULL flags
        const i64 at = xn || x < 0 || x >= in.c ? in.c : x;
        v = (i64)p.lookups[in.imm + at];
        null = p.lookups[in.imm + in.c + 1 + at] != 0;
        break;
      }
    }
    r[in.dst] = v;
    n[in.dst] = null;
  }
}

// ARG_MIN / ARG_MAX's state word of the row (tally_arg_pair.cuh), which a signed 128-bit MIN
// (ARG_MAX: MAX) merges.
TALLY_HD tally_arg_pair::i128 arg_pair_of_row(const Field& f, const i64* r) {
  const i64 key = r[f.key], value = r[f.reg];
  const i64 key_image = (f.flags & kArgKeyFloat) ? tally_arg_pair::key_image(float_of(key))
                                                 : tally_arg_pair::key_image(key);
  const u64 value_image = (f.flags & kArgValueFloat) ? tally_arg_pair::value_image(float_of(value))
                                                     : tally_arg_pair::value_image(value);
  return tally_arg_pair::pair(key_image, value_image, f.op == kFieldArgMax);
}

// A field's identity, the value its cell starts from: MIN at the largest value (a double's:
// NaN, which sorts last), MAX at the smallest, an ARG_MIN / ARG_MAX pair at the word every
// row's beats, else 0 (0.0's bits too).
TALLY_HD tally_arg_pair::i128 field_initial(int op) {
  using tally_arg_pair::i128;
  const i128 largest = (i128)(~(tally_arg_pair::u128)0 >> 1);
  switch (op) {
    case kFieldMin:
      return 0x7FFFFFFFFFFFFFFFll;
    case kFieldMax:
      return -0x7FFFFFFFFFFFFFFFll - 1;
    case kFieldMinFloat:
      return kFloatMinIdentity;
    case kFieldMaxFloat:
      return kFloatMaxIdentity;
    case kFieldArgMin:
      return largest;
    case kFieldArgMax:
      return -largest - 1;
    default:
      return 0;
  }
}

// What field f of a row merges: 1 a row, 1 a non-NULL value, the value, its square or an
// ARG_MIN / ARG_MAX pair's word. `skip`: a NULL value, which no field but the rows-per-group
// counter merges.
TALLY_HD tally_arg_pair::i128 field_input(const Field& f, const i64* r, const bool* n, bool* skip) {
  *skip = f.reg >= 0 && n[f.reg];
  if (f.op == kFieldCount || *skip) return 1;
  if (f.op == kFieldArgMin || f.op == kFieldArgMax) return arg_pair_of_row(f, r);
  const i64 v = r[f.reg];
  return f.op == kFieldSumSquares ? (tally_arg_pair::i128)v * v : (tally_arg_pair::i128)v;
}

// Field op's merge of `v` (field_input) into a cell that one thread alone holds: a thread's
// registers in the kernel (tally_interp_kernel.cuh, whose atomics merge as this does), and the
// host tests' runner. Integer MIN and MAX compare the low words, a double's fields their bits'
// doubles in SQL's order (cmp_float).
TALLY_HD tally_arg_pair::i128 merge_field_value(int op, tally_arg_pair::i128 cell,
                                                tally_arg_pair::i128 v) {
  const double c = float_of((i64)cell), d = float_of((i64)v);
  switch (op) {
    case kFieldMin:
      return (i64)v < (i64)cell ? v : cell;
    case kFieldMax:
      return (i64)v > (i64)cell ? v : cell;
    case kFieldSumFloat:
      return float_bits(c + d);
    case kFieldMinFloat:
      return cmp_float(d, c) < 0 ? v : cell;
    case kFieldMaxFloat:
      return cmp_float(d, c) > 0 ? v : cell;
    case kFieldArgMin:
      return v < cell ? v : cell;
    case kFieldArgMax:
      return v > cell ? v : cell;
    default:  // COUNT, SUM and the sum of squares
      return cell + v;
  }
}

// Whether the row passes the filter (after run_row).
TALLY_HD bool row_passes(const Program& p, const i64* r, const bool* n) {
  return p.filter < 0 || (!n[p.filter] && r[p.filter] != 0);
}

// Whether the row raises the CPU engine's error (after run_row, where Program::faults): its
// filter does, or it passes and a group key or an aggregate's argument does.
TALLY_HD bool row_faults(const Program& p, const i64* r, const bool* n, const bool* f) {
  if (!p.faults) return false;
  if (p.filter >= 0 && f[p.filter]) return true;
  if (!row_passes(p, r, n)) return false;
  for (int k = 0; k < p.key_count; ++k) {
    if (f[p.keys[k].reg]) return true;
  }
  for (int i = 0; i < p.field_count; ++i) {
    const Field field = p.fields[i];
    if ((field.reg >= 0 && f[field.reg]) || (field.key >= 0 && f[field.key])) return true;
  }
  return false;
}

// The row's group as one mixed-radix number over the keys' digits (after run_row).
TALLY_HD u64 row_group(const Program& p, const i64* r, const bool* n) {
  u64 group = 0;
  for (int k = 0; k < p.key_count; ++k) {
    const Key key = p.keys[k];
    const u64 digit = n[key.reg] ? key.size - 1 : (u64)(r[key.reg] - key.lo);
    group = group * key.size + digit;
  }
  return group;
}

}  // namespace tally_interp
