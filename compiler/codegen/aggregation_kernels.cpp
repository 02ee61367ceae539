// Assembles one CUDA translation unit per query: Init (state arrays to identities),
// Scan (decode -> filter -> keys -> slot -> merge, one fused pass over the rows) and
// Finalizer (non-empty slots compacted through a group counter, keys decoded, aggregate
// finals computed with the same functions as the CPU engine's, templates/tally_finals.cuh).
// The device code itself lives in templates/; this file only instantiates it.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <functional>

#include "compiler/codegen/cuda_columns.h"
#include "compiler/codegen/cuda_expr.h"
#include "compiler/codegen/gpu_program.h"
#include "compiler/common/error.h"
#include "compiler/plan/thread_cell_packing.h"

namespace tally {

int field_bytes(FieldKind kind) {
  switch (kind) {
    case FieldKind::SumI128:
    case FieldKind::SumSqI128:
    case FieldKind::MinI128:
    case FieldKind::MaxI128:
      return 16;
    default:
      return 8;
  }
}

namespace {

// Whether a bit-packed column decodes in 32-bit registers: fields of at most 32 bits whose
// values base + [0, 2^bits) all fit an i32.
bool fits_i32(const ColumnStats& s) {
  if (s.bits < 1 || s.bits > 31) return false;
  const int64_t top = s.base + ((int64_t{1} << s.bits) - 1);
  return s.base >= INT32_MIN && top <= INT32_MAX;
}

const char* field_type(FieldKind k) {
  switch (k) {
    case FieldKind::Count:
      return "u64";
    case FieldKind::SumF64:
    case FieldKind::SumSqF64:
    case FieldKind::DevSumF64:
    case FieldKind::MinF64:
    case FieldKind::MaxF64:
      return "f64";
    case FieldKind::MinI64:
    case FieldKind::MaxI64:
      return "i64";
    default:
      return "i128";
  }
}

// The value a field starts from, and merges into without changing it.
const char* field_identity(FieldKind k) {
  switch (k) {
    case FieldKind::MinI64:
      return "kI64Max";
    case FieldKind::MaxI64:
      return "kI64Min";
    case FieldKind::MinI128:
      return "i128_from_words(~0ull, 0x7FFFFFFFFFFFFFFFull)";
    case FieldKind::MaxI128:
      return "i128_from_words(0ull, 0x8000000000000000ull)";
    case FieldKind::MinF64:
      return "__longlong_as_double(0x7FF0000000000000ll)";
    case FieldKind::MaxF64:
      return "__longlong_as_double((long long)0xFFF0000000000000ull)";
    case FieldKind::SumF64:
    case FieldKind::SumSqF64:
    case FieldKind::DevSumF64:
      return "0.0";
    default:
      return "0";
  }
}

enum class MergeOp { Add, Min, Max };

MergeOp field_merge(FieldKind k) {
  switch (k) {
    case FieldKind::MinI64:
    case FieldKind::MinI128:
    case FieldKind::MinF64:
      return MergeOp::Min;
    case FieldKind::MaxI64:
    case FieldKind::MaxI128:
    case FieldKind::MaxF64:
      return MergeOp::Max;
    default:
      return MergeOp::Add;
  }
}

// The device library's names for one merge: across a warp (tally_reduce.cuh), of two values
// in a lane (pair; Add folds with +), and into global state (tally_atomics.cuh).
struct MergeNames {
  const char* warp;
  const char* pair;
  const char* atomic;
};

MergeNames merge_names(MergeOp op) {
  switch (op) {
    case MergeOp::Min:
      return {"warp_min", "min_of", "atomic_min"};
    case MergeOp::Max:
      return {"warp_max", "max_of", "atomic_max"};
    default:
      return {"warp_sum", "", "atomic_add"};
  }
}

std::vector<FieldKind> fields_of(const AggregateCall& a, AggStateKind state) {
  bool is_min = a.kind == AggKind::Min;
  switch (state) {
    case AggStateKind::Count:
      return {FieldKind::Count};
    case AggStateKind::SumInt:
    case AggStateKind::SumWide:
    case AggStateKind::AvgWide:
      return {FieldKind::Count, FieldKind::SumI128};
    case AggStateKind::SumDouble:
    case AggStateKind::AvgDouble:
      return {FieldKind::Count, FieldKind::SumF64};
    case AggStateKind::MinMaxInt:
      return {FieldKind::Count, is_min ? FieldKind::MinI64 : FieldKind::MaxI64};
    case AggStateKind::MinMaxWide:
      return {FieldKind::Count, is_min ? FieldKind::MinI128 : FieldKind::MaxI128};
    case AggStateKind::MinMaxDouble:
      return {FieldKind::Count, is_min ? FieldKind::MinF64 : FieldKind::MaxF64};
    case AggStateKind::VarianceWide:
      return {FieldKind::Count, FieldKind::SumI128, FieldKind::SumSqI128};
    case AggStateKind::VarianceDouble:
      return {FieldKind::Count, FieldKind::SumF64, FieldKind::SumSqF64, FieldKind::DevSumF64};
    case AggStateKind::DistinctSet:
      break;
  }
  throw Error(ErrorKind::Unsupported, "COUNT(DISTINCT) is not supported on the GPU yet");
}

class KernelWriter {
 public:
  KernelWriter(const BoundSelect& query, const GpuPlan& plan, const std::vector<ColumnStats>& stats,
               GpuProgram& program)
      : query_(query),
        plan_(plan),
        stats_(stats),
        program_(program),
        emitter_(query, stats, program.lookups, args_, preamble_, &program.string_domains) {}

  uint64_t thread_table_bytes() {
    layout_fields();
    pack_cells();
    return shared_table_bytes();
  }

  void write() {
    layout_fields();
    pack_cells();
    arg_rows_ = args_.add({ArgKind::Rows});
    arg_status_ = args_.add({ArgKind::Status});
    arg_out_count_ = args_.add({ArgKind::OutCount});
    if (plan_.strategy == GpuStrategy::Hash) arg_keys_ = args_.add({ArgKind::TableKeys});
    for (size_t f = 0; f < program_.fields.size(); ++f) {
      // Not every kernel touches every field (the M2 pass reads a few): (void) keeps NVRTC quiet.
      preamble_ += fmt::format("  {0}* __restrict__ const f{1} = ({0}*)args[{2}]; (void)f{1};\n",
                               field_type(program_.fields[f].kind), f,
                               args_.add({ArgKind::StateField, static_cast<int>(f)}));
    }
    check_supported();
    program_.second_pass = false;
    for (const auto& f : program_.fields) program_.second_pass |= f.kind == FieldKind::SumSqF64;
    // Per-thread tables merge once per block, at the end: the Scan's first block can set
    // the states while the others scan (templates/tally_init_in_scan.cuh).
    program_.init_in_scan = plan_.strategy == GpuStrategy::ThreadPrivate;
    // The Finalizer directly behind a one-pass Scan is launched as its dependent
    // (templates/tally_dependent_launch.cuh).
    program_.dependent_finalize = program_.init_in_scan && !program_.second_pass;
    std::string scan = scan_body(false);
    std::string scan_m2 = program_.second_pass ? scan_body(true) : "";
    std::string src;
    src += "// Generated by tally for one query. Device code comes from the included templates.\n";
    src +=
        "#include \"tally_types.cuh\"\n#include \"tally_decode.cuh\"\n#include "
        "\"tally_atomics.cuh\"\n"
        "#include \"tally_table_global.cuh\"\n#include \"tally_table_direct.cuh\"\n"
        "#include \"tally_distinct.cuh\"\n"
        "#include \"tally_reduce.cuh\"\n#include \"tally_sql.cuh\"\n#include \"tally_finals.cuh\"\n"
        "#include \"tally_init_in_scan.cuh\"\n#include \"tally_dependent_launch.cuh\"\n"
        "using namespace tally;\n\n";
    std::string common = common_preamble();
    std::string output = output_preamble();
    // Every argument is known now: the kernels' parameter block can be sized.
    if (program_.init_in_scan) {
      src += kernel("tally_scan", common, scan_with_init(scan), scan_min_blocks());
    } else {
      src += kernel("tally_init", common, init_body(false));
      src += kernel("tally_scan", common, scan, scan_min_blocks());
    }
    if (program_.second_pass) src += kernel("tally_scan_m2", common, scan_m2);
    src += kernel("tally_finalize", common + output, finalize_body());
    program_.source = std::move(src);
    program_.args = args_.slots();
    for (const auto& k : query_.group_keys) {
      program_.key_domains.push_back(emitter_.string_domain_of(*k));
    }
    for (const auto& a : query_.aggregates) {
      // Only a string result (MIN/MAX) is an id to decode; COUNT(DISTINCT s) is a count.
      program_.aggregate_domains.push_back(
          a.arg && a.type.is_string() ? emitter_.string_domain_of(*a.arg) : -1);
    }
  }

 private:
  std::string kernel(const char* name, const std::string& common, const std::string& body,
                     int min_blocks = 1) {
    return kernel_definition(name, plan_.block, min_blocks, args_.slots().size(), common + body);
  }

  // With thread tables in shared memory, shared memory bounds the resident blocks (the
  // planner sized the grid to that many per SM); asking ptxas for that many keeps registers
  // from bounding them lower (on an H100, 72 registers held Q1's scan to 7 blocks of 8
  // possible; the hand-written peer's 64 to 8).
  int scan_min_blocks() {
    if (!shared_tables_) return 1;
    return static_cast<int>(std::max<uint32_t>(plan_.blocks_per_sm, 1));
  }

  // State fields, shared where aggregates need the same one: SUM(x) and AVG(x) keep one
  // sum, and the non-NULL count of an argument that is never NULL is the group's row count
  // (field 0). Fewer fields mean fewer registers and fewer atomics per row.
  void layout_fields() {
    program_.fields.push_back({FieldKind::Count, -1});
    for (size_t a = 0; a < query_.aggregates.size(); ++a) {
      const auto& call = query_.aggregates[a];
      Type arg = call.arg ? call.arg->type : Type::bigint();
      // A DISTINCT aggregate keeps the plain aggregate's state, fed only by the rows
      // whose value was new to its group (see aggregate_inputs).
      AggStateKind state = aggregate_state_kind(call.kind, false, arg);
      std::vector<int> ids;
      for (FieldKind k : fields_of(call, state)) ids.push_back(field_for(k, static_cast<int>(a)));
      agg_fields_.push_back(ids);
      agg_states_.push_back(state);
      int dictionary = -1;  // MIN/MAX of a string column return a code to decode
      bool extreme = call.kind == AggKind::Min || call.kind == AggKind::Max;
      if (extreme && call.arg && call.arg->type.is_string() &&
          call.arg->kind == ExprKind::ColumnRef) {
        dictionary = call.arg->index;
      }
      program_.aggregate_dictionary.push_back(dictionary);
    }
  }

  int field_for(FieldKind kind, int aggregate) {
    const auto& call = query_.aggregates[aggregate];
    const auto& arg = call.arg;
    if (call.distinct) {  // fed by other rows than any plain aggregate: never shared
      program_.fields.push_back({kind, aggregate});
      return static_cast<int>(program_.fields.size() - 1);
    }
    if (kind == FieldKind::Count && (!arg || !emitter_.may_be_null(*arg))) return 0;
    for (size_t f = 1; f < program_.fields.size(); ++f) {
      const auto& other_call = query_.aggregates[program_.fields[f].aggregate];
      const auto& other = other_call.arg;
      if (program_.fields[f].kind == kind && !other_call.distinct && other && arg &&
          expr_equal(*other, *arg)) {
        return static_cast<int>(f);
      }
    }
    program_.fields.push_back({kind, aggregate});
    return static_cast<int>(program_.fields.size() - 1);
  }

  // The register type of a thread-private accumulator: the narrowest integer the
  // statistics prove one thread's rows (and then a warp's sum of them) cannot overflow.
  // Fewer registers per thread mean more threads resident per SM.
  std::string register_type(size_t f) {
    FieldKind k = program_.fields[f].kind;
    long double warp_rows_bits =
        std::log2(static_cast<long double>(rows_per_lane())) + 5;  // 5: 32 lanes of a warp
    if (k == FieldKind::Count) return warp_rows_bits < 31 ? "u32" : "u64";
    if (k != FieldKind::SumI128) return field_type(k);
    const auto& arg = query_.aggregates[program_.fields[f].aggregate].arg;
    long double bits = magnitude_log2(*arg, stats_) + warp_rows_bits;
    if (bits < 30) return "i32";
    return bits < 62 ? "i64" : "i128";
  }

  // The most rows one lane sums: its warp visits at most ceil(blocks / warps) of the
  // 1024-row blocks, and takes 32 rows of each.
  uint64_t rows_per_lane() const {
    const uint64_t warps = std::max<uint64_t>(uint64_t{plan_.grid} * plan_.block / 32, 1);
    const uint64_t blocks = (plan_.rows + 1023) / 1024;
    return std::max<uint64_t>(32 * ((blocks + warps - 1) / warps), 1);
  }

  // Shared per-thread cells of non-negative sums share 64-bit words (compiler/
  // thread_cell_packing.h): a row count, and sums whose argument the statistics bound
  // below by 0. Only the first pass keeps thread tables, so only its fields pack.
  void pack_cells() {
    packed_ = {};
    packed_.place.resize(program_.fields.size());
    if (plan_.strategy != GpuStrategy::ThreadPrivate || !plan_.shared_thread_tables) return;
    const uint64_t rows = rows_per_lane();
    std::vector<uint32_t> bits(program_.fields.size(), 0);
    for (size_t f = 0; f < bits.size(); ++f) {
      const long double top = program_.fields[f].kind == FieldKind::Count ? 1 : nonnegative_top(f);
      if (top >= 0) bits[f] = lane_sum_bits(top, rows);
    }
    packed_ = pack_thread_cells(bits);
  }

  // The most a row adds to 128-bit sum field f when the statistics prove every value it
  // adds non-negative (a NULL adds 0); -1 when they do not, or f is no such sum.
  long double nonnegative_top(size_t f) const {
    const StateField& field = program_.fields[f];
    if (field.kind != FieldKind::SumI128) return -1;
    ValueBounds v = value_bounds(*query_.aggregates[field.aggregate].arg, stats_);
    return v.known && v.lo >= 0 ? v.hi : -1;
  }

  bool packed(size_t f) const { return shared_tables_ && packed_.place[f].word >= 0; }

  // Whether field f is a 128-bit sum that never carries out of its low word: every value
  // it adds is non-negative and the whole table's total fits 64 bits (the statistics say
  // so). Its merges are then one 64-bit add whose result nobody waits for, instead of an
  // add that returns the old low word for the carry (Q1 at SF 10 on an H100: 0.177 ->
  // 0.173 ms).
  bool low_word_sum(size_t f) const {
    const long double top = nonnegative_top(f);
    return top >= 0 && lane_sum_bits(top, std::max<uint64_t>(plan_.rows, 1)) != 0;
  }

  // The atomic merge of `value` into field f's state at `target`.
  std::string atomic_merge(size_t f, const std::string& target, const std::string& value) const {
    const FieldKind k = program_.fields[f].kind;
    if (low_word_sum(f)) return fmt::format("atomic_add_low(&{}, (u64)({}));\n", target, value);
    return fmt::format("{}(&{}, ({}){});\n", merge_names(field_merge(k)).atomic, target,
                       field_type(k), value);
  }

  void check_supported() {
    if (query_.filter) emitter_.check_supported(*query_.filter);
    // Computed strings (keys, DISTINCT or MIN/MAX arguments) run as ids of string domains.
    for (const auto& k : query_.group_keys) emitter_.check_supported(*k);
    for (const auto& a : query_.aggregates) {
      if (a.arg) emitter_.check_supported(*a.arg);
    }
  }

  std::string common_preamble() {
    // Emitted after the Scan so that it includes the lookups and parameters the Scan uses.
    std::string p = fmt::format(
        "  const u64 rows = args[{}];\n  u32* const status = (u32*)args[{}];\n"
        "  u64* const out_count = (u64*)args[{}];\n",
        arg_rows_, arg_status_, arg_out_count_);
    if (plan_.strategy == GpuStrategy::Hash) {
      bool wide = plan_.hash_keys != HashKeyLayout::Word64;
      p +=
          fmt::format("  const {0} table = {{({1}*)args[{2}], {3}ull, {3}ull, status, nullptr}};\n",
                      wide ? "GlobalTable128Ref" : "GlobalTableRef", wide ? "u128" : "u64",
                      arg_keys_, plan_.slots);
    }
    p += "  (void)rows; (void)status; (void)out_count;\n";
    return p + preamble_;
  }

  std::string output_preamble() {
    return fmt::format(
        "  i128* __restrict__ const out_keys = (i128*)args[{}];\n"
        "  u8* __restrict__ const out_key_nulls = (u8*)args[{}];\n"
        "  i128* __restrict__ const out_values = (i128*)args[{}];\n"
        "  u8* __restrict__ const out_value_nulls = (u8*)args[{}];\n"
        "  (void)out_keys; (void)out_key_nulls; (void)out_values; (void)out_value_nulls;\n",
        args_.add({ArgKind::OutKeys}), args_.add({ArgKind::OutKeyNulls}),
        args_.add({ArgKind::OutValues}), args_.add({ArgKind::OutValueNulls}));
  }

  // The loop over state slots of Init and the Finalizer: over the grid, or over one block
  // (the Scan's first block, where it sets the states).
  std::string slot_loop(bool one_block) const {
    return fmt::format("  for (u64 s = {}; s < {}ull; s += {}) {{\n",
                       one_block ? "threadIdx.x" : "global_thread_index()", plan_.state_slots,
                       one_block ? "blockDim.x" : "grid_stride()");
  }

  // A Scan that sets the states itself: its first block to start does, and every block
  // waits for them before it merges (scan_body). The Finalizer stays a kernel of its own:
  // folded into the Scan's last block, its 128-bit arithmetic made ptxas spill registers
  // inside the scan loop (on an H100, Q1 at SF 100 then took 1.86 ms instead of 1.75).
  std::string scan_with_init(const std::string& scan) {
    return "  LaunchSync* const sync = (LaunchSync*)(status + 1);\n"
           "  if (first_block_to_start(sync)) {\n" +
           indent_lines(init_body(true), "  ") + "    publish_init(sync);\n  }\n" + scan;
  }

  std::string init_body(bool one_block) {
    std::string b = slot_loop(one_block);
    for (size_t f = 0; f < program_.fields.size(); ++f) {
      b += fmt::format("    f{}[s] = {};\n", f, field_identity(program_.fields[f].kind));
    }
    b += "  }\n";
    if (plan_.strategy == GpuStrategy::Hash) b += "  global_table_clear(table);\n";
    return b;
  }

  // ---- Scan --------------------------------------------------------------------------------

  std::vector<int> scan_columns() const {
    std::vector<int> all(query_.scan.size());
    for (size_t c = 0; c < all.size(); ++c) all[c] = static_cast<int>(c);
    return all;
  }

  // How the scan reads its columns: declarations before the loop, loads of a chunk's
  // words into a LaneChunk buffer (`loads`), and the per-row decode into c<i>_h[half] /
  // c<i>_nh[half], whose chunked fields name their buffer `c<i>_k@BUF@` and their chunk
  // `@CHUNK@` (the walk fills both in).
  struct ColumnReads {
    std::string declarations;
    std::string decode;
    // The decode row by row (lane_field32): `decode` itself for an unchunked scan; for a
    // chunked one, for its last block, which is partial and not worth an unrolled copy.
    std::string row_decode;
    // Columns decoded into 32-bit registers (c<i>_h is i32; c<i> widens it at use).
    std::vector<int> held_i32;
    std::vector<std::pair<size_t, int>> chunked;  // (column, bits) read through LaneChunk
    std::string buffers(const std::string& buf) const {
      std::string out;
      for (const auto& [c, bits] : chunked)
        out += fmt::format("  LaneChunk<{}u, {}u> c{}_k{};\n", bits, kChunkRows, c, buf);
      return out;
    }
    std::string loads(const std::string& buf, const std::string& block, const std::string& chunk,
                      const std::string& walk_type) const {
      std::string out;
      for (const auto& [c, bits] : chunked) {
        out += fmt::format("c{0}_k{1}.load(c{0}_lw + ({2})({3}) * {4}u, {5}); ", c, buf, walk_type,
                           block, 32 * bits, chunk);
      }
      return out;
    }
  };

  // Column pointers come from the argument block once, before the loop. Bit-packed columns
  // that fit 32-bit registers are read a chunk of rows at a time (LaneChunk); the others
  // decode row by row.
  ColumnReads column_reads(const std::string& walk_type, bool chunked) {
    ColumnReads r;
    r.declarations += "  const u32 lane = threadIdx.x & 31; (void)lane;\n";
    for (size_t c = 0; c < query_.scan.size(); ++c) {
      const ColumnStats& s = stats_[c];
      int data = args_.add({ArgKind::ColumnData, static_cast<int>(c)});
      std::string value, row_value;  // row_value: decoded row by row, for the last block
      if (s.layout == ColumnStats::Layout::BitPacked && fits_i32(s) &&
          plan_.rows < (uint64_t{1} << 32)) {
        r.declarations += fmt::format(
            "  const u32* __restrict__ const c{0}_lw = (const u32*)args[{1}] + lane;\n", c, data);
        const bool held = holds_in_i32(c);
        if (held) r.held_i32.push_back(static_cast<int>(c));
        row_value =
            lane_value(c, held,
                       fmt::format("lane_field32<{}u>(c{}_lw + ({})block * {}u, pair * 2 + half)",
                                   s.bits, c, walk_type, 32 * s.bits));
        value = row_value;
        if (chunked) {
          r.chunked.emplace_back(c, s.bits);
          value = lane_value(c, held, fmt::format("c{}_k@BUF@.field(@CHUNK@, pair * 2 + half)", c));
        }
      } else {
        const Type& t = query_.scan[c].type;
        const char* stored =
            s.layout == ColumnStats::Layout::BitPacked ? "u32" : plain_storage_type(t);
        r.declarations += fmt::format("  const {0}* __restrict__ c{1}_p = (const {0}*)args[{2}];\n",
                                      stored, c, data);
        value = row_value = column_value(t, emitter_.column_type(static_cast<int>(c)),
                                         column_payload(s, fmt::format("c{}_p", c)));
      }
      if (s.has_nulls) {
        r.declarations += fmt::format("  const u64* __restrict__ c{}_v = (const u64*)args[{}];\n",
                                      c, args_.add({ArgKind::ColumnValidity, static_cast<int>(c)}));
      }
      const std::string null = column_null(s, fmt::format("c{}_v", c));
      const char* assign = "        c{0}_h[half] = {1}; c{0}_nh[half] = {2};\n";
      r.decode += fmt::format(fmt::runtime(assign), c, value, null);
      r.row_decode += fmt::format(fmt::runtime(assign), c, row_value, null);
    }
    return r;
  }

  // Whether lane-field column c is held in an i32 between its decode and its use (c<i>
  // widens it): any integer column. Held as i64, NVVM carries the row's 32-bit arithmetic
  // in 64-bit registers (Q1 at SF 10 on an H100: 8 SASS instructions a row more, 4% slower).
  bool holds_in_i32(size_t c) const {
    if (query_.scan[c].type.id == TypeId::Boolean) return false;
    const std::string type = emitter_.column_type(static_cast<int>(c));
    return type == "i64" || type == "i32" || type == "i16" || type == "i8";
  }

  // Lane-field column c's value from its field: base + field, signed because it cannot
  // overflow (fits_i32), so the compiler may fold the base into comparisons and sums.
  std::string lane_value(size_t c, bool held_i32, const std::string& field) const {
    const std::string sum = fmt::format("({} + (i32){})", stats_[c].base, field);
    if (held_i32) return "(i32)" + sum;
    return column_value(query_.scan[c].type, emitter_.column_type(static_cast<int>(c)),
                        "(i64)" + sum);
  }

  // Statements that leave the row's slot in `slot` (or `continue` past the row).
  std::string slot_code(bool find_only) {
    const char* lookup = find_only ? "find" : "insert_or_find";
    std::string s;
    std::vector<CudaOperand> keys;
    for (const auto& k : query_.group_keys) keys.push_back(emitter_.emit(*k, s));
    if (plan_.hash_keys == HashKeyLayout::Decimal128) {
      s += fmt::format(
          "const i128 key_value = (i128)({});\n"
          "const i64 slot = {} ? (i64){}ull : table.{}(Key128{{i128_low(key_value), "
          "i128_high(key_value)}});\nif (slot < 0) continue;\n",
          keys[0].value, keys[0].null, plan_.slots + 1, lookup);
      return s;
    }
    if (plan_.hash_keys == HashKeyLayout::Word64 && !plan_.keys.empty() && !plan_.keys[0].bounded) {
      s += fmt::format(
          "const i64 slot = {} ? (i64){}ull : table.insert_or_find({});\nif (slot < 0) continue;\n",
          keys[0].null, plan_.slots + 1, raw_key_bits(0, keys[0]));
      return s;
    }
    s += "MixedRadix mr;\n";
    int raw = -1;  // RawAndDigits128: the key whose raw bits fill the low word
    for (size_t i = 0; i < keys.size(); ++i) {
      const KeyEncoding& k = plan_.keys[i];
      if (!k.bounded) {
        raw = static_cast<int>(i);
        continue;
      }
      std::string v = fmt::format("(i64){}", keys[i].value);
      const char* exact = k.exact ? "exact_" : "";
      if (k.nullable) {
        s += fmt::format("mr.add_{}nullable_key(!{}, {}, {}ll, {}ull);\n", exact, keys[i].null, v,
                         k.min, k.values);
      } else if (k.exact) {
        // Never NULL (the statistics say so) and in range: nothing to check.
        s += fmt::format("mr.add_exact_key({}, {}ll, {}ull);\n", v, k.min, k.values);
      } else {
        // The statistics say this key is never NULL; were it, the key would be out of range
        // (an internal error) rather than silently in the group of digit 0.
        s += fmt::format("mr.add_key({}, {}ll, {}ull);\nmr.in_range &= !{};\n", v, k.min, k.values,
                         keys[i].null);
      }
    }
    s += "if (!mr.in_range) { raise_status(status, kStatusKeyOutOfRange); continue; }\n";
    if (raw >= 0) {
      // The NULL flag is the last digit; a NULL key's low word is 0, so all NULLs meet.
      const CudaOperand& key = keys[raw];
      s += fmt::format(
          "mr.add_digit({0} ? 1ull : 0ull, 2ull);\n"
          "const i64 slot = table.{1}(Key128{{{0} ? 0ull : {2}, mr.slot}});\n"
          "if (slot < 0) continue;\n",
          key.null, lookup, raw_key_bits(static_cast<size_t>(raw), key));
      return s;
    }
    if (plan_.strategy == GpuStrategy::Hash) {
      s += fmt::format("const i64 slot = table.{}(mr.slot);\nif (slot < 0) continue;\n", lookup);
    } else {
      s += "const u64 slot = mr.slot;\n";
    }
    return s;
  }

  // The 64 bits a raw (hashed) key is stored as: a DOUBLE's canonical bits, else the value.
  std::string raw_key_bits(size_t i, const CudaOperand& key) const {
    return query_.group_keys[i]->type.is_float() ? fmt::format("float_key_bits({})", key.value)
                                                 : fmt::format("(u64)(i64){}", key.value);
  }

  // The Finalizer's inverse of raw_key_bits, as the i128 the host reads back.
  std::string raw_key_value(size_t i, const std::string& bits) const {
    return query_.group_keys[i]->type.is_float() ? fmt::format("(i128){}", bits)
                                                 : fmt::format("(i128)(i64){}", bits);
  }

  // Evaluates every aggregate argument once per row; the merges then only move values.
  // A DISTINCT aggregate's input counts as NULL unless this row added (slot, aggregate,
  // value) to the DISTINCT set, so each value reaches its group's state once. The M2 pass
  // merges no DISTINCT state and leaves the set alone.
  std::vector<CudaOperand> aggregate_inputs(std::string& code) {
    std::vector<CudaOperand> inputs;
    for (size_t a = 0; a < query_.aggregates.size(); ++a) {
      const auto& call = query_.aggregates[a];
      CudaOperand v = call.arg ? emitter_.emit(*call.arg, code) : CudaOperand{"1", "false"};
      if (call.distinct && !m2_pass_) {
        if (a >= 64) {
          throw Error(ErrorKind::Unsupported,
                      "more than 64 aggregates with DISTINCT is not supported on the GPU yet");
        }
        std::string fresh = fmt::format("d{}_n", a);
        code += fmt::format(
            "bool {0} = {1};\nif (!{0}) {0} = !distinct.insert((u64)slot * 64 + {2}, "
            "distinct_image({3}));\n",
            fresh, v.null, a, v.value);
        v.null = fresh;
      }
      inputs.push_back(v);
    }
    return inputs;
  }

  std::string distinct_set_declaration() {
    if (plan_.distinct_capacity == 0 || m2_pass_) return "";
    return fmt::format("  const DistinctSetRef distinct{{(u64*)args[{}], {}ull, status}};\n",
                       args_.add({ArgKind::DistinctSet}), plan_.distinct_capacity);
  }

  // `target(f)` names where field f's state for this row's slot lives; `type(f)` its type.
  std::string merge_code(const std::vector<CudaOperand>& inputs,
                         const std::function<std::string(int)>& target,
                         const std::function<std::string(int)>& type, bool atomic) {
    auto merge = [&](int f, const std::string& value) {
      FieldKind k = program_.fields[f].kind;
      std::string t = target(f), ty = type(f);
      switch (field_merge(k)) {
        case MergeOp::Add:
          return atomic ? atomic_merge(static_cast<size_t>(f), t, value)
                        : fmt::format("{} += ({}){};\n", t, ty, value);
        case MergeOp::Min:
          return atomic ? fmt::format("atomic_min(&{}, ({}){});\n", t, ty, value)
                        : fmt::format("{0} = ({1}){2} < {0} ? ({1}){2} : {0};\n", t, ty, value);
        default:
          return atomic ? fmt::format("atomic_max(&{}, ({}){});\n", t, ty, value)
                        : fmt::format("{0} = ({1}){2} > {0} ? ({1}){2} : {0};\n", t, ty, value);
      }
    };
    // Packed fields become terms of their word's one add (below); the rest merge one by one.
    std::vector<std::string> packed_terms(packed_.words);
    auto pack = [&](size_t f, const std::string& term) {
      const CellPlace& at = packed_.place[f];
      std::string& sum = packed_terms[static_cast<size_t>(at.word)];
      sum += fmt::format("{}((u64)({}) << {})", sum.empty() ? "" : " + ", term, at.shift);
    };
    std::string m;
    if (!m2_pass_) {
      if (packed(0)) {
        pack(0, "1");
      } else {
        m += merge(0, "1");
      }
    }
    for (size_t f = 1; f < program_.fields.size(); ++f) {
      // The second pass merges only the M2 fields; the first everything else.
      if (second_pass_field(program_.fields[f].kind) != m2_pass_) continue;
      int a = program_.fields[f].aggregate;
      const CudaOperand& v = inputs[a];
      FieldKind k = program_.fields[f].kind;
      std::string value = k == FieldKind::Count                                     ? "1"
                          : (k == FieldKind::SumSqI128 || k == FieldKind::SumSqF64) ? squares_[a]
                          : k == FieldKind::DevSumF64 ? squares_[a] + "_d"
                                                      : v.value;
      if (packed(f)) {
        pack(f, fmt::format("{} ? 0ull : (u64)({})", v.null, value));
      } else {
        m += fmt::format("if (!{}) {}", v.null, merge(static_cast<int>(f), value));
      }
    }
    for (uint32_t w = 0; w < packed_terms.size(); ++w) {
      if (packed_terms[w].empty()) continue;
      m += fmt::format("{} += {};\n", packed_cell(w, "(u32)slot"), packed_terms[w]);
    }
    return m;
  }

  // The second pass's fields: the sums of deviations from the first pass's means and of
  // their squares. With both, the variance is the corrected two-pass formula
  // (sum d^2 - (sum d)^2 / n) / (n - 1), which also cancels the error of the mean itself.
  static bool second_pass_field(FieldKind k) {
    return k == FieldKind::SumSqF64 || k == FieldKind::DevSumF64;
  }

  // Squares for the variance states, computed once per row beside the inputs.
  void square_inputs(const std::vector<CudaOperand>& inputs, std::string& code) {
    squares_.assign(inputs.size(), "");
    for (size_t f = 1; f < program_.fields.size(); ++f) {
      FieldKind k = program_.fields[f].kind;
      if (k != FieldKind::SumSqI128 && k != FieldKind::SumSqF64) continue;
      size_t a = static_cast<size_t>(program_.fields[f].aggregate);
      std::string name = fmt::format("sq{}", a);
      // Each pass computes only the squares it merges (see merge_code).
      if ((k == FieldKind::SumSqF64) != m2_pass_) continue;
      if (k == FieldKind::SumSqI128) {
        code += fmt::format(
            "const i128 {0} = {1} ? (i128)0 : mul_checked((i128){2}, (i128){2}, status);\n", name,
            inputs[a].null, inputs[a].value);
      } else {
        // Deviation from the group's final mean: count and sum are complete after pass 1.
        const auto& ids = agg_fields_[a];
        code += fmt::format(
            "const f64 {0}_d = (f64){1} - f{2}[slot] / (f64)f{3}[slot];\n"
            "const f64 {0} = {0}_d * {0}_d;\n",
            name, inputs[a].value, ids[1], ids[0]);
      }
      squares_[a] = name;
    }
  }

  // The M2 pass (DOUBLE variances) runs after the first pass has finished every group's
  // count and sum, so it can square deviations from the final means; it merges with
  // global atomics whatever the strategy.
  std::string scan_body(bool m2_pass) {
    m2_pass_ = m2_pass;
    bool registers = plan_.strategy == GpuStrategy::ThreadPrivate && !m2_pass;
    shared_tables_ = registers && plan_.shared_thread_tables;
    uint64_t slots = plan_.slots;
    std::string b;
    if (registers) {
      if (shared_tables_) b += shared_table_declarations();
      for (uint64_t s = 0; s < slots; ++s) {
        for (size_t f = 0; f < program_.fields.size(); ++f) {
          if (packed(f)) continue;
          FieldKind k = program_.fields[f].kind;
          // Registers are declared here; shared cells were declared above.
          b += fmt::format("  {}{} = {};\n", shared_tables_ ? "" : register_type(f) + " ",
                           thread_cell(f, std::to_string(s)), field_identity(k));
        }
        for (uint32_t w = 0; shared_tables_ && w < packed_.words; ++w) {
          b += fmt::format("  {} = 0;\n", packed_cell(w, std::to_string(s)));
        }
      }
    }
    b += distinct_set_declaration();
    // Each warp walks blocks of 1024 rows, the device layout's unit (runtime/gpu/
    // device_layout.h): lane L takes rows 32 j + L, two rows decoded at a time. Scans whose
    // per-thread tables live in shared memory (small bodies, bound by decode and load
    // latency) unroll the block's rows in chunks of kChunkRows through two LaneChunk
    // buffers: the next chunk's words (the next block's first chunk at the end of a block)
    // load while this chunk's rows are worked on. The others loop over the block's rows,
    // reading fields row by row, so that NVRTC does not compile their bodies 32 times.
    // Below 2^31 rows the walk is 32-bit (block * 1024 plus a grid's worth of warps stays
    // below 2^32): 64-bit loop arithmetic costs twice the instructions.
    const bool narrow = plan_.rows < (uint64_t{1} << 31);
    const bool chunked = shared_tables_;
    const std::string walk_type = narrow ? "u32" : "u64";
    ColumnReads reads = column_reads(walk_type, chunked);
    b += reads.declarations;
    b += fmt::format(
        "  const {0} walk_rows = ({0})rows;\n"
        "  const {0} warps = ({0})(grid_stride() / 32);\n"
        "  const {0} first_block = ({0})(global_thread_index() / 32);\n",
        walk_type);
    // Rows of a block that exist: rows past the end decode padding (the executor pads
    // every column by a block) and are dropped before anything can raise an error.
    const std::string in_block =
        "    const u32 in_block = walk_rows - block * 1024 < 1024 ? (u32)(walk_rows - block * "
        "1024) : 1024u;\n";
    // A block's rows one by one, each checked against in_block (generated after the
    // chunked walk's body, so that temporaries keep their names).
    auto checked_rows = [&] {
      return with_chunk(
          chunk_body(reads.row_decode, reads.held_i32, false, true, m2_pass, registers, slots), "",
          "0");
    };
    if (chunked) {
      b += chunked_walk(reads, walk_type, m2_pass, registers, slots);
      // The last block, when partial, belongs to the warp whose walk stopped before it.
      b += "  if (block * 1024 < walk_rows) {\n" + in_block + checked_rows() + "  }\n";
    } else {
      b += fmt::format(
          "  for ({} block = first_block; block * 1024 < walk_rows; block += warps) {{\n",
          walk_type);
      if (!registers) b += "    if ((block & 3) == 0 && status_raised(status)) break;\n";
      b += in_block + checked_rows() + "  }\n";
    }
    if (program_.dependent_finalize) b += "  allow_dependent_launch();\n";  // one pass
    if (registers && program_.init_in_scan) b += "  await_init(sync);\n";
    if (registers) b += flush_registers(slots);
    return b;
  }

  // A chunked scan's walk over its warp's whole blocks, the rows unrolled in chunks
  // through two LaneChunk buffers: the next chunk's words (at the end of a block, the next
  // block's first, whole or not) load while this chunk's rows are worked on. A whole block
  // needs no check that a row exists: without that per-row branch the Q1 scan ran 7%
  // faster at SF 10 on an H100. The walk leaves `block` at the warp's first block not done.
  std::string chunked_walk(const ColumnReads& reads, const std::string& walk_type, bool m2_pass,
                           bool registers, uint64_t slots) {
    const std::string body =
        chunk_body(reads.decode, reads.held_i32, true, false, m2_pass, registers, slots);
    auto fill = [&](const std::string& buf, const std::string& chunk) {
      return with_chunk(body, buf, chunk);
    };
    constexpr uint32_t chunks = 32 / kChunkRows;
    std::string b = reads.buffers("a") + reads.buffers("b");
    b += "  if (first_block * 1024 < walk_rows) { " +
         reads.loads("a", "first_block", "0", walk_type) + "}\n";
    b += fmt::format("  {} block = first_block;\n", walk_type);
    b += "  for (; (block + 1) * 1024 <= walk_rows; block += warps) {\n";
    b += fmt::format("#pragma unroll\n    for (u32 chunk = 0; chunk < {}u; chunk += 2) {{\n",
                     chunks);
    b += "      " + reads.loads("b", "block", "chunk + 1", walk_type) + "\n";
    b += fill("a", "chunk");
    b += fmt::format("      if (chunk + 2 < {}u) {{ {}}}\n", chunks,
                     reads.loads("a", "block", "chunk + 2", walk_type));
    b += "      else if ((block + warps) * 1024 < walk_rows) { " +
         reads.loads("a", "block + warps", "0", walk_type) + "}\n";
    b += fill("b", "(chunk + 1)");
    b += "    }\n  }\n";
    return b;
  }

  // A chunk body with its buffer and chunk filled in.
  static std::string with_chunk(std::string body, const std::string& buf,
                                const std::string& chunk) {
    for (size_t at; (at = body.find("@BUF@")) != std::string::npos;) body.replace(at, 5, buf);
    for (size_t at; (at = body.find("@CHUNK@")) != std::string::npos;) body.replace(at, 7, chunk);
    return body;
  }

  // The rows of one chunk: pairs of rows decoded by `decode`, then worked on. Chunked, a
  // chunk is kChunkRows rows, unrolled, its buffer and chunk left as @BUF@ / @CHUNK@ for
  // the walk; otherwise one chunk of a block's 32 rows a lane, not unrolled. `check_rows`:
  // the block may be partial (in_block), so each row is checked.
  std::string chunk_body(const std::string& decode, const std::vector<int>& held_i32, bool chunked,
                         bool check_rows, bool m2_pass, bool registers, uint64_t slots) {
    const uint32_t chunk_rows = chunked ? kChunkRows : 32;
    std::string b =
        fmt::format("#pragma unroll {}\n      for (u32 pair = 0; pair < {}u; ++pair) {{\n",
                    chunked ? "" : "1", chunk_rows / 2);
    // Both rows of a pair are decoded before either is used, with no branch in between, so
    // the row-by-row loads of both are in flight together.
    b += indent_lines(decoded_declarations(scan_columns(), emitter_, held_i32), "    ");
    b += "#pragma unroll\n";
    b += "      for (u32 half = 0; half < 2; ++half) {\n";
    const std::string step = fmt::format("(@CHUNK@ * {}u + pair * 2 + half)", chunk_rows);
    b += "        const u32 index = (" + step + " << 5) + lane;\n";
    b += "        const u64 row = (u64)block * 1024 + index; (void)row;\n";
    b += decode;
    b += "      }\n";
    b += "#pragma unroll\n";
    b += "  for (u32 half = 0; half < 2; ++half) {\n";
    b += "    const u32 index = (" + step + " << 5) + lane;\n";
    b += "    const u64 row = (u64)block * 1024 + index; (void)row;\n";
    if (check_rows) b += "    if (index >= in_block) continue;\n";
    b += decoded_row(scan_columns(), emitter_, "    ");
    std::string row;
    if (query_.filter) {
      CudaOperand f = emitter_.emit(*query_.filter, row);
      row += fmt::format("if ({} || !{}) continue;\n", f.null, f.value);
    }
    row += slot_code(m2_pass);
    std::vector<CudaOperand> inputs = aggregate_inputs(row);
    square_inputs(inputs, row);
    if (shared_tables_) {
      row += merge_code(
          inputs, [&](int f) { return thread_cell(static_cast<size_t>(f), "(u32)slot"); },
          [&](int f) { return register_type(static_cast<size_t>(f)); }, false);
    } else if (registers) {
      // A compile-time index per slot keeps the accumulators in registers.
      for (uint64_t s = 0; s < slots; ++s) {
        row +=
            fmt::format("if ((u32)slot == {}u) {{\n{}}}\n", s,
                        merge_code(
                            inputs, [&](int f) { return fmt::format("r{}_{}", f, s); },
                            [&](int f) { return register_type(static_cast<size_t>(f)); }, false));
      }
    } else {
      row += merge_code(
          inputs, [&](int f) { return fmt::format("f{}[slot]", f); },
          [&](int f) { return std::string(field_type(program_.fields[f].kind)); }, true);
    }
    b += indent_lines(row, "    ");
    b += "  }\n      }\n";
    return b;
  }

  // A thread's accumulator for field f of `slot`: a register, or its cell of the block's
  // shared array (slot-major, so a warp's lanes touch consecutive words whatever their
  // slots: no bank conflicts).
  std::string thread_cell(size_t f, const std::string& slot) const {
    if (shared_tables_) return fmt::format("st{}_t[{} * {}u]", f, slot, plan_.block);
    return fmt::format("r{}_{}", f, slot);
  }

  // Packed word w of `slot`, laid out as thread_cell's arrays.
  std::string packed_cell(uint32_t w, const std::string& slot) const {
    return fmt::format("sp{}_t[{} * {}u]", w, slot, plan_.block);
  }

  // At the flush, a lane reads the cell of `slot` of thread part * 32 + lane in `array`.
  std::string flush_cell(const std::string& array, uint64_t slot, uint32_t part) const {
    return fmt::format("{}[{} * {}u + {}u + (threadIdx.x & 31)]", array, slot, plan_.block,
                       part * 32);
  }

  // Field f's value in that cell, as `type`: a packed field is cut out of its word.
  std::string flush_value(size_t f, uint64_t slot, uint32_t part, const std::string& type) const {
    if (!packed(f))
      return fmt::format("({}){}", type, flush_cell(fmt::format("st{}", f), slot, part));
    const CellPlace& at = packed_.place[f];
    return fmt::format("({})(({} >> {}) & 0x{:x}ull)", type,
                       flush_cell(fmt::format("sp{}", at.word), slot, part), at.shift,
                       (uint64_t{1} << at.bits) - 1);
  }

  uint64_t cell_width(size_t f) {
    std::string t = register_type(f);
    return t == "i128" ? 16 : (t == "u32" || t == "i32" || t == "f32") ? 4 : 8;
  }

  // The shared arrays of the per-thread tables: each field not packed, then each packed
  // word (u64), as (name, C type, bytes of one cell).
  struct SharedArray {
    std::string name, type;
    uint64_t width;
  };
  std::vector<SharedArray> shared_arrays() {
    std::vector<SharedArray> arrays;
    for (size_t f = 0; f < program_.fields.size(); ++f) {
      if (packed_.place[f].word < 0) {
        arrays.push_back({fmt::format("st{}", f), register_type(f), cell_width(f)});
      }
    }
    for (uint32_t w = 0; w < packed_.words; ++w)
      arrays.push_back({fmt::format("sp{}", w), "u64", 8});
    return arrays;
  }

  uint64_t shared_table_bytes() {
    uint64_t bytes = 0;
    for (const SharedArray& a : shared_arrays()) bytes += a.width * plan_.slots * plan_.block;
    return bytes;
  }

  // The per-thread tables live in one shared buffer at constant offsets, widest first so
  // each stays aligned: a row then computes one cell index and every field's address is
  // that index plus an immediate, where separate arrays each needed their own base.
  std::string shared_table_declarations() {
    std::vector<SharedArray> arrays = shared_arrays();
    std::stable_sort(arrays.begin(), arrays.end(),
                     [](const SharedArray& a, const SharedArray& b) { return a.width > b.width; });
    std::string d =
        fmt::format("  __shared__ __align__(16) u8 st_mem[{}];\n", shared_table_bytes());
    uint64_t offset = 0;
    for (const SharedArray& a : arrays) {
      // {name}_t: this thread's cells, so that a row's cell address is one multiply-add.
      d += fmt::format(
          "  {0}* const {1} = ({0}*)(st_mem + {2});\n"
          "  {0}* const {1}_t = {1} + threadIdx.x; (void){1}_t;\n",
          a.type, a.name, offset);
      offset += a.width * plan_.slots * plan_.block;
    }
    return d;
  }

  // Shared per-thread tables merge once per block: warp w folds cells w, w + W, ... (each
  // lane adds its B / 32 threads' values in a type no block's sum overflows), reduces across
  // the warp, and lane 0 merges into the global state. Merging once per warp instead left
  // 4x the atomics on the same few addresses: on an H100 (Q1, SF 10) the waits on their
  // results took about a quarter of the scan's stall samples. A warp reduces all its cells
  // before lane 0 merges any, so the reductions overlap and the atomics go out together
  // instead of one round trip after another.
  std::string flush_shared_tables(uint64_t slots) {
    const uint32_t warps = plan_.block / 32;
    std::vector<std::string> sums(warps), merges(warps);
    uint32_t cell = 0;
    for (uint64_t s = 0; s < slots; ++s) {
      for (size_t f = 0; f < program_.fields.size(); ++f, ++cell) {
        FieldKind k = program_.fields[f].kind;
        const MergeNames names = merge_names(field_merge(k));
        const std::string type = block_sum_type(f);
        const std::string name = fmt::format("w{}_{}", f, s);
        sums[cell % warps] += fmt::format("    const {} {} = {}({});\n", type, name, names.warp,
                                          block_fold(f, s, type));
        merges[cell % warps] += "      " + atomic_merge(f, fmt::format("f{}[{}]", f, s), name);
      }
    }
    std::string b = "  __syncthreads();\n";
    for (uint32_t w = 0; w < warps; ++w) {
      if (sums[w].empty()) continue;
      b += fmt::format(
          "  if (threadIdx.x / 32 == {}u) {{\n{}    if (is_lane_zero()) {{\n{}    }}\n  }}\n", w,
          sums[w], merges[w]);
    }
    return b;
  }

  // The type a block's sum of field f is reduced in: a packed field's block sum, under
  // 2^(bits + log2 B), is a u64 when that fits (half the shuffles of an i128).
  std::string block_sum_type(size_t f) const {
    if (packed(f) && packed_.place[f].bits + std::bit_width(plan_.block) <= 64) return "u64";
    return field_type(program_.fields[f].kind);
  }

  // A lane's fold of field f's cells of `slot` over the B / 32 threads it stands for.
  std::string block_fold(size_t f, uint64_t slot, const std::string& type) const {
    const MergeOp op = field_merge(program_.fields[f].kind);
    std::string fold;
    for (uint32_t part = 0; part < plan_.block / 32; ++part) {
      std::string term = flush_value(f, slot, part, type);
      if (part == 0) {
        fold = term;
      } else if (op == MergeOp::Add) {
        fold += " + " + term;
      } else {
        fold = fmt::format("{}({}, {})", merge_names(op).pair, fold, term);
      }
    }
    return fold;
  }

  std::string flush_registers(uint64_t slots) {
    if (shared_tables_) return flush_shared_tables(slots);
    std::string b = "  // One merge per warp instead of one per thread.\n";
    for (uint64_t s = 0; s < slots; ++s) {
      for (size_t f = 0; f < program_.fields.size(); ++f) {
        FieldKind k = program_.fields[f].kind;
        const MergeNames names = merge_names(field_merge(k));
        b += fmt::format("  {{ const {} w = {}({}); if (is_lane_zero()) {}  }}\n", register_type(f),
                         names.warp, thread_cell(f, std::to_string(s)),
                         atomic_merge(f, fmt::format("f{}[{}]", f, s), "w"));
      }
    }
    return b;
  }

  // ---- Finalizer ---------------------------------------------------------------------------

  std::string occupied_code() {
    if (plan_.keys.empty()) return "true";
    if (plan_.strategy != GpuStrategy::Hash) return "f0[s] != 0";
    // Probed slots and the side slot are claimed in the key array; the NULL slot by rows.
    return fmt::format("(s <= {0}ull ? table.occupied(s) : f0[s] != 0)", plan_.slots);
  }

  std::string key_outputs() {
    std::string b;
    size_t nk = plan_.keys.size();
    if (nk == 0) return b;
    if (plan_.hash_keys == HashKeyLayout::Decimal128) {
      // The NULL slot (capacity + 1) lies past the key array: its key is not read.
      b += fmt::format(
          "    const Key128 key = s <= {0}ull ? table.key_at(s) : Key128{{0ull, 0ull}};\n"
          "    out_keys[g] = i128_from_words(key.lo, key.hi);\n"
          "    out_key_nulls[g] = s == {1}ull;\n",
          plan_.slots, plan_.slots + 1);
      return b;
    }
    if (plan_.hash_keys == HashKeyLayout::Word64 && !plan_.keys[0].bounded) {
      // As above: the NULL slot's key word would lie one past the key array.
      b += fmt::format(
          "    const u64 bits = s <= {0}ull ? table.key_at(s) : 0ull;\n"
          "    out_keys[g] = {1};\n    out_key_nulls[g] = s == {2}ull;\n",
          plan_.slots, raw_key_value(0, "bits"), plan_.slots + 1);
      return b;
    }
    bool wide = plan_.hash_keys == HashKeyLayout::RawAndDigits128;
    if (wide) {
      // Every occupied slot is a probed one (no NULL slot): key_at reads inside the array.
      b += "    const Key128 key = table.key_at(s);\n    const u64 encoded = key.hi;\n";
    } else {
      b += plan_.strategy == GpuStrategy::Hash ? "    const u64 encoded = table.key_at(s);\n"
                                               : "    const u64 encoded = s;\n";
    }
    uint64_t stride = 1;
    for (size_t i = 0; i < nk; ++i) {
      const KeyEncoding& k = plan_.keys[i];
      if (!k.bounded) continue;  // the raw key of RawAndDigits128, decoded below
      b += fmt::format(
          "    {{ const u64 d = mixed_radix_digit(encoded, {}ull, {}ull);\n"
          "      out_key_nulls[g * {} + {}] = {};\n"
          "      out_keys[g * {} + {}] = (i128)({}ll + (i64)d); }}\n",
          stride, k.radix(), nk, i, k.nullable ? fmt::format("d == {}ull", k.values) : "false", nk,
          i, k.min);
      stride *= k.radix();
    }
    for (size_t i = 0; wide && i < nk; ++i) {
      if (plan_.keys[i].bounded) continue;
      b += fmt::format(
          "    {{ const bool null = mixed_radix_digit(encoded, {0}ull, 2ull) == 1ull;\n"
          "      out_key_nulls[g * {1} + {2}] = null;\n"
          "      out_keys[g * {1} + {2}] = null ? (i128)0 : {3}; }}\n",
          stride, nk, i, raw_key_value(i, "key.lo"));
    }
    return b;
  }

  std::string final_code(size_t a) {
    const auto& call = query_.aggregates[a];
    const auto& ids = agg_fields_[a];
    std::string cnt = fmt::format("f{}[s]", ids[0]);
    std::string v1 = ids.size() > 1 ? fmt::format("f{}[s]", ids[1]) : "";
    std::string v2 = ids.size() > 2 ? fmt::format("f{}[s]", ids[2]) : "";
    std::string out = fmt::format("out_values[g * {} + {}]", query_.aggregates.size(), a);
    std::string null = fmt::format("out_value_nulls[g * {} + {}]", query_.aggregates.size(), a);
    auto bits = [](const std::string& d) {
      return fmt::format("(i128)(u64)__double_as_longlong({})", d);
    };
    int in_scale = call.arg && call.arg->type.is_decimal() ? call.arg->type.scale : 0;
    switch (agg_states_[a]) {
      case AggStateKind::Count:
        return fmt::format("    {} = (i128)(i64){}; {} = 0;\n", out, cnt, null);
      case AggStateKind::SumInt:
        return fmt::format(
            "    {0} = {1} == 0; {2} = (i128)check_int({3}, kI64Min, kI64Max, status);\n", null,
            cnt, out, v1);
      case AggStateKind::SumWide:
        return fmt::format("    {0} = {1} == 0; {2} = check_digits({3}, 38, status);\n", null, cnt,
                           out, v1);
      case AggStateKind::SumDouble:
        return fmt::format("    {0} = {1} == 0; {2} = {3};\n", null, cnt, out, bits(v1));
      case AggStateKind::MinMaxInt:
      case AggStateKind::MinMaxWide:
        return fmt::format("    {0} = {1} == 0; {2} = (i128){3};\n", null, cnt, out, v1);
      case AggStateKind::MinMaxDouble:
        return fmt::format("    {0} = {1} == 0; {2} = {3};\n", null, cnt, out, bits(v1));
      case AggStateKind::AvgWide:
        return fmt::format(
            "    {0} = {1} == 0;\n    if ({1} != 0 && !tally_finals::average_exact({3}, (long "
            "long){1}, {4}, {5}, &{2})) "
            "raise_status(status, kStatusNumericOverflow);\n",
            null, cnt, out, v1, in_scale, call.type.scale);
      case AggStateKind::AvgDouble:
        return fmt::format("    {0} = {1} == 0; {2} = {3};\n", null, cnt, out,
                           bits(fmt::format("({} / (f64){})", v1, cnt)));
      case AggStateKind::VarianceWide:
      case AggStateKind::VarianceDouble: {
        std::string var =
            agg_states_[a] == AggStateKind::VarianceWide
                ? fmt::format("tally_finals::variance_exact((long long){}, {}, {}, {})", cnt, v1,
                              v2, in_scale)
                : fmt::format(
                      "tally_finals::variance_from_m2((long long){0}, {1} - f{2}[s] * f{2}[s] / "
                      "(f64){0})",
                      cnt, v2, agg_fields_[a][3]);
        if (call.kind == AggKind::StddevSamp) var = fmt::format("sqrt({})", var);
        return fmt::format("    {0} = {1} < 2;\n    if ({1} >= 2) {2} = {3};\n", null, cnt, out,
                           bits(var));
      }
      case AggStateKind::DistinctSet:
        break;
    }
    return "";
  }

  std::string finalize_body() {
    // A no-op unless launched as the Scan's dependent; then the Scan's states are complete.
    std::string b = "  wait_for_prior_grid();\n" + slot_loop(false);
    b += fmt::format("    if (!({})) continue;\n", occupied_code());
    b += "    const u64 g = atomicAdd(out_count, 1ull);\n";
    b += key_outputs();
    for (size_t a = 0; a < query_.aggregates.size(); ++a) b += final_code(a);
    b += "  }\n";
    return b;
  }

  const BoundSelect& query_;
  const GpuPlan& plan_;
  const std::vector<ColumnStats>& stats_;
  GpuProgram& program_;
  CudaArgs args_;
  std::string preamble_;
  CudaExprEmitter emitter_;
  std::vector<std::vector<int>> agg_fields_;
  std::vector<AggStateKind> agg_states_;
  std::vector<std::string> squares_;
  bool m2_pass_ = false;
  bool shared_tables_ = false;  // this scan keeps thread tables in shared memory
  PackedCells packed_;          // which of the first pass's shared cells share words
  // Rows of a lane's 32 in a block whose packed words load together (LaneChunk), two
  // chunks in flight: 8 ran fastest in a Q1-shaped probe on an H100 (0.197 ms at SF 10;
  // 16 rows with one buffer 0.228, 4 rows with two 0.229; 16 with two spills registers).
  static constexpr uint32_t kChunkRows = 8;
  int arg_rows_ = -1, arg_status_ = -1, arg_out_count_ = -1, arg_keys_ = -1;
};

}  // namespace

uint64_t shared_thread_table_bytes(const BoundSelect& query, const GpuPlan& plan,
                                   const std::vector<ColumnStats>& stats) {
  GpuProgram scratch;
  return KernelWriter(query, plan, stats, scratch).thread_table_bytes();
}

GpuProgram generate_cuda(const BoundSelect& query, const GpuPlan& plan,
                         const std::vector<ColumnStats>& stats) {
  if (plan.projection) return generate_projection_cuda(query, plan, stats);
  GpuProgram program;
  KernelWriter(query, plan, stats, program).write();
  return program;
}

}  // namespace tally
