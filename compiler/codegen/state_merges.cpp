#include "compiler/codegen/state_merges.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "compiler/common/error.h"
#include "compiler/plan/distinct_bitmaps.h"
#include "compiler/plan/shared_placement.h"

namespace tally {

namespace {

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
    case MergeOp::BitAnd:
      return {"warp_and", "and_of", "atomic_and"};
    case MergeOp::BitOr:
      return {"warp_or", "or_of", "atomic_or"};
    case MergeOp::BitXor:
      return {"warp_xor", "xor_of", "atomic_xor"};
    case MergeOp::Mul:
      return {"warp_mul", "mul_of", "atomic_mul"};
    default:
      return {"warp_sum", "", "atomic_add"};
  }
}

const char* field_type(FieldKind k) { return field_info(k).cuda_type; }

// One typed array of a block's shared buffer: `entries` cells of `width` bytes.
struct SharedArray {
  std::string name, type;
  uint64_t width;
  std::string identity;  // a cell's value before any row: its field's, 0 for a packed word
  std::string after;     // declared right after the array's pointer
};

// The arrays' pointers into `buffer` at constant offsets, widest first so each stays
// aligned; `arrays` is left in that order.
std::string carve_shared_arrays(const std::string& buffer, std::vector<SharedArray>& arrays,
                                uint64_t entries) {
  std::stable_sort(arrays.begin(), arrays.end(),
                   [](const SharedArray& a, const SharedArray& b) { return a.width > b.width; });
  std::string d;
  uint64_t offset = 0;
  for (const SharedArray& a : arrays) {
    d += fmt::format("{0}* const {1} = ({0}*)({2} + {3});\n", a.type, a.name, buffer, offset) +
         a.after;
    offset += a.width * entries;
  }
  return d;
}

}  // namespace

StateMerges::StateMerges(AggregationContext& ctx, bool m2_pass)
    : ctx_(ctx),
      m2_pass_(m2_pass),
      thread_tables_(ctx.plan.strategy == GpuStrategy::ThreadPrivate),
      in_shared_(thread_tables_ && ctx.plan.shared_thread_tables),
      block_table_(ctx.plan.strategy == GpuStrategy::Block &&
                   (!m2_pass || second_pass_block_bytes(ctx.plan) > 0)),
      block_cache_(ctx.plan.block_cache_slots > 0 && !m2_pass),
      global_slices_(ctx.plan.strategy == GpuStrategy::Direct && ctx.plan.sliced() && !m2_pass),
      hints_(aggregate_hints(ctx.query)),
      terms_(ctx, m2_pass, hints_) {
  bool declared = false;
  if (sliced() || global_slices_) {
    slice_first_ = ctx.symbols.declare("slice_first", "slice_first", declared);
    slice_cell_ = ctx.symbols.declare("slice_cell", "slice_cell", declared);
  }
  if (!in_shared_ && !block_table_ && !block_cache_) return;
  if (block_cache_) {
    cache_tags_ = ctx.symbols.declare("cache_tags", "cached_slots", declared);
    cache_ = ctx.symbols.declare("block_cache", "block_cache", declared);
  }
  for (size_t f = 0; f < ctx.fields.size(); ++f) {
    cell_arrays_.push_back(
        ctx.symbols.declare(fmt::format("cells{}", f), ctx.fields[f] + "_cells", declared));
    cells_.push_back(
        ctx.symbols.declare(fmt::format("cell{}", f), ctx.fields[f] + "_cell", declared));
  }
  // Packed words hold first-pass sums only.
  for (uint32_t w = 0; w < (m2_pass ? 0 : packing().words); ++w) {
    packed_arrays_.push_back(ctx.symbols.declare(fmt::format("packed_cells{}", w),
                                                 fmt::format("packed{}_cells", w), declared));
    packed_cells_.push_back(ctx.symbols.declare(fmt::format("packed_cell{}", w),
                                                fmt::format("packed{}_cell", w), declared));
  }
}

std::string StateMerges::cell_type(size_t f) const {
  return cell_type_name(ctx_.plan.thread_tables.cells[f]);
}

// Which fields share 64-bit words: in a thread's shared cells, or in the block's table.
const PackedCells& StateMerges::packing() const {
  return block_table_ ? ctx_.plan.block_table.packed : ctx_.plan.thread_tables.packed;
}

bool StateMerges::packed(size_t f) const {
  const PackedCells& p = packing();
  return (in_shared_ || block_table_) && !m2_pass_ && f < p.place.size() && p.place[f].word >= 0;
}

// Whether this pass merges field f: the first pass the row count and first-pass fields, the
// second only its own.
bool StateMerges::in_pass(size_t f) const {
  return f == 0 ? !m2_pass_ : field_info(ctx_.state_fields()[f].kind).second_pass == m2_pass_;
}

// A thread's accumulator for field f of `slot`: a register, or its cell of the block's
// shared array (slot-major, so a warp's lanes touch consecutive words whatever their
// slots: no bank conflicts).
std::string StateMerges::thread_cell(size_t f, const std::string& slot) const {
  if (in_shared_) return fmt::format("{}[{} * {}u]", cells_[f], slot, ctx_.plan.block);
  return fmt::format("{}_slot{}", ctx_.fields[f], slot);
}

// Packed word w of `slot`, laid out as thread_cell's arrays.
std::string StateMerges::packed_cell(uint32_t w, const std::string& slot) const {
  return fmt::format("{}[{} * {}u]", packed_cells_[w], slot, ctx_.plan.block);
}

std::string StateMerges::atomic_merge(size_t f, const std::string& target,
                                      const std::string& value) const {
  const StateField& field = ctx_.state_fields()[f];
  if (field.low_word_sum) return fmt::format("atomic_add_low(&{}, (u64)({}));\n", target, value);
  return fmt::format("{}(&{}, ({}){});\n", merge_names(field_info(field.kind).merge).atomic, target,
                     field_type(field.kind), value);
}

std::string StateMerges::declarations() {
  std::string d = global_slices_ ? slice_first_declaration() : "";
  if (block_table_ || block_cache_) d += block_table_declarations();
  if (thread_tables_) {
    if (in_shared_) d += shared_table_declarations();
    for (uint64_t s = 0; s < ctx_.plan.slots; ++s) {
      for (size_t f = 0; f < ctx_.fields.size(); ++f) {
        if (packed(f) || !in_pass(f)) continue;
        // Registers are declared here; shared cells were declared above.
        d += fmt::format(
            "{}{} = {};\n", in_shared_ ? "" : cell_type(f) + " ", thread_cell(f, std::to_string(s)),
            cell_identity(ctx_.state_fields()[f].kind, ctx_.plan.thread_tables.cells[f]));
      }
      for (uint32_t w = 0; in_shared_ && w < packed_cells_.size(); ++w) {
        d += fmt::format("{} = 0;\n", packed_cell(w, std::to_string(s)));
      }
    }
  }
  if (ctx_.plan.distinct_capacity > 0 && !m2_pass_) {
    d += fmt::format("const DistinctSetRef distinct{{(u64*)args[{}], {}ull, status}};\n",
                     ctx_.args.add({ArgKind::DistinctSet}), ctx_.plan.distinct_capacity);
  }
  if (ctx_.plan.distinct_bitmap_words > 0 && !m2_pass_) {
    d += fmt::format("const DistinctBitmapRef distinct_bitmap{{(u32*)args[{}]}};\n",
                     ctx_.args.add({ArgKind::DistinctBitmap}));
  }
  return d;
}

// The per-thread tables live in one shared buffer at constant offsets, widest first so each
// stays aligned: a row then computes one cell index and every field's address is that index
// plus an immediate, where separate arrays each needed their own base.
std::string StateMerges::shared_table_declarations() {
  std::vector<SharedArray> arrays;
  // The cell pointer is this thread's cells: a row's cell address is one multiply-add.
  auto add = [&](const std::string& array, const std::string& cell, const std::string& type,
                 uint64_t width) {
    arrays.push_back(
        {array, type, width, "",
         fmt::format("{0}* const {1} = {2} + threadIdx.x; (void){1};\n", type, cell, array)});
  };
  for (size_t f = 0; f < ctx_.fields.size(); ++f) {
    if (packed(f) || !in_pass(f)) continue;
    add(cell_arrays_[f], cells_[f], cell_type(f),
        static_cast<uint64_t>(cell_bytes(ctx_.plan.thread_tables.cells[f])));
  }
  for (uint32_t w = 0; w < packed_cells_.size(); ++w) {
    add(packed_arrays_[w], packed_cells_[w], "u64", 8);
  }
  return fmt::format("__shared__ __align__(16) u8 thread_cells[{}];\n",
                     ctx_.plan.thread_tables.shared_bytes) +
         carve_shared_arrays("thread_cells", arrays, ctx_.plan.slots * ctx_.plan.block);
}

// Evaluates every aggregate argument once per row; the merges then only move values. An
// aggregate of two arguments skips the row where either is NULL. A DISTINCT aggregate's
// input counts as NULL unless this row added (slot, aggregate, value) to the DISTINCT set,
// or set its bit of the aggregate's bitmap, so each value reaches its group's state once.
// The M2 pass merges no DISTINCT state and leaves the set and bitmaps alone.
std::vector<StateMerges::Input> StateMerges::aggregate_inputs(std::string& code) {
  // Only the aggregates that own a field this pass merges: one whose fields are all shared
  // (REGR_SLOPE(y, x) beside REGR_COUNT(y, x)) would evaluate arguments nobody reads.
  std::vector<bool> merges(ctx_.query.aggregates.size(), false);
  for (size_t f = 1; f < ctx_.state_fields().size(); ++f) {
    const StateField& field = ctx_.state_fields()[f];
    if (field_info(field.kind).second_pass == m2_pass_) merges[field.aggregate] = true;
  }
  std::vector<Input> inputs;
  for (size_t a = 0; a < ctx_.query.aggregates.size(); ++a) {
    const auto& call = ctx_.query.aggregates[a];
    Input v{"1", "", "false"};
    if (!merges[a]) {
      inputs.push_back(v);
      continue;
    }
    if (call.arg) {
      CudaOperand e = ctx_.emitter.emit(*call.arg, code);
      v = {e.value, "", e.null};
    }
    if (call.key) {
      CudaOperand k = ctx_.emitter.emit(*call.key, code);
      v.key = k.value;
      if (k.null != "false") {
        v.null = v.null == "false" ? k.null : fmt::format("({} || {})", v.null, k.null);
      }
    }
    if (keeps_seen_values(ctx_.query, ctx_.plan.layout, a) && !m2_pass_) {
      const std::string skip = ctx_.symbols.fresh(hints_[a] + "_seen");
      code += fmt::format("bool {0} = {1};\nif (!{0}) {0} = !{2};\n", skip, v.null,
                          seen_insert(a, v.value));
      v.null = skip;
    }
    inputs.push_back(v);
  }
  return inputs;
}

// The call adding aggregate a's `value` in this row's slot to the values seen, true when it
// was new: a bit of the aggregate's bitmap, or a (slot, aggregate) pair of the DISTINCT set.
std::string StateMerges::seen_insert(size_t a, const std::string& value) const {
  if (in_distinct_bitmap(ctx_.plan, a)) {
    const DistinctBitmap& b = ctx_.plan.distinct_bitmaps[a];
    return fmt::format(
        "distinct_bitmap.insert({}ull + (u64)slot * {}ull + (u64)((i64)({}) - ({}ll)))",
        b.first_bit, b.values, value, b.base);
  }
  if (a >= 64) {
    throw Error(ErrorKind::Unsupported,
                "more than 64 aggregates with DISTINCT is not supported on the GPU yet");
  }
  return fmt::format("distinct.insert((u64)slot * 64 + {}, distinct_image({}))", a, value);
}

std::string StateMerges::merge_row() {
  std::string code;
  std::vector<Input> inputs = aggregate_inputs(code);
  terms_.declare(inputs, code);
  if (sliced()) return in_slice(code + merge_fields(inputs, slice_cell_, -1));
  if (block_table_ && replicas() > 1) {
    return code + merge_fields(inputs,
                               fmt::format("(u32)slot * {}u + (threadIdx.x & {}u)", replicas(),
                                           replicas() - 1),
                               -1);
  }
  if (in_shared_ || block_table_) return code + merge_fields(inputs, "(u32)slot", -1);
  if (block_cache_) {
    const std::string cached = ctx_.symbols.fresh("cached");
    code += fmt::format(
        "const i32 {0} = {1}.insert_or_find((u32)slot);\n"
        "if ({0} >= 0) {{\n{2}}} else {{\n{3}}}\n",
        cached, cache_, merge_fields(inputs, fmt::format("(u32){}", cached), -1),
        merge_fields(inputs, "", -1));
    return global_slices_ ? in_slice(code) : code;
  }
  if (!thread_tables_) {
    code += merge_fields(inputs, "", -1);
    return global_slices_ ? in_slice(code) : code;
  }
  // A compile-time index per slot keeps the accumulators in registers.
  for (uint64_t s = 0; s < ctx_.plan.slots; ++s) {
    code += fmt::format("if ((u32)slot == {}u) {{\n{}}}\n", s,
                        merge_fields(inputs, "", static_cast<int>(s)));
  }
  return code;
}

// A pass merges its slice's rows only: the others are another pass's, and a row must not
// reach DISTINCT's set or the states twice.
std::string StateMerges::in_slice(const std::string& merges) {
  return fmt::format("const u32 {0} = (u32)slot - {1};\nif ({0} < {2}u) {{\n{3}}}\n", slice_cell_,
                     slice_first_, ctx_.plan.slice_slots, merges);
}

std::string StateMerges::slice_first_declaration() {
  return fmt::format("const u32 {} = (u32)args[{}];\n", slice_first_,
                     ctx_.args.add({ArgKind::SliceFirst}));
}

// One field's merge of `value`: into the block's table (or cache) or the thread's cell at
// `slot_cells` (shared tables), its register of `register_slot`, or else the global state
// of this row's slot.
std::string StateMerges::merge_one(size_t f, const std::string& value,
                                   const std::string& slot_cells, int register_slot) const {
  const FieldKind k = ctx_.state_fields()[f].kind;
  const MergeOp op = field_info(k).merge;
  if (slot_cells.empty() && register_slot < 0) {
    const std::string target = fmt::format("{}[slot]", ctx_.fields[f]);
    if (op == MergeOp::Add) return atomic_merge(f, target, value);
    if (op == MergeOp::SketchAdd) return fmt::format("tally_hll::add(&{}, {});\n", target, value);
    return fmt::format("{}(&{}, ({}){});\n", merge_names(op).atomic, target, field_type(k), value);
  }
  if (block_table_ || block_cache_) {
    const std::string type = block_cell_type(f);
    const char* atomic = op == MergeOp::Add ? "shared_atomic_add" : merge_names(op).atomic;
    return fmt::format("{}(&{}[{}], ({}){});\n", atomic, cell_arrays_[f], slot_cells, type, value);
  }
  const std::string t =
      in_shared_ ? thread_cell(f, slot_cells) : thread_cell(f, std::to_string(register_slot));
  const std::string ty = cell_type(f);
  switch (op) {
    case MergeOp::Add:
      return fmt::format("{} += ({}){};\n", t, ty, value);
    case MergeOp::Min:
      return fmt::format("{0} = sql_less(({1}){2}, {0}) ? ({1}){2} : {0};\n", t, ty, value);
    case MergeOp::Max:
      return fmt::format("{0} = sql_greater(({1}){2}, {0}) ? ({1}){2} : {0};\n", t, ty, value);
    default:
      return fmt::format("{0} = {1}({0}, ({2}){3});\n", t, merge_names(op).pair, ty, value);
  }
}

// What each field of this pass merges for the row: its value and when it is skipped.
std::vector<StateMerges::FieldMerge> StateMerges::field_merges(
    const std::vector<Input>& inputs) const {
  const auto& fields = ctx_.state_fields();
  std::vector<FieldMerge> merges;
  if (!m2_pass_) merges.push_back({0, "1", ""});
  for (size_t f = 1; f < fields.size(); ++f) {
    const FieldInfo& info = field_info(fields[f].kind);
    if (info.second_pass != m2_pass_) continue;  // each pass merges its own fields
    const auto a = static_cast<size_t>(fields[f].aggregate);
    const std::string value = terms_.term(a, info.input, inputs[a]);
    merges.push_back({f, value, inputs[a].null == "false" ? "" : inputs[a].null});
  }
  return merges;
}

std::string StateMerges::merge_fields(const std::vector<Input>& inputs,
                                      const std::string& slot_cells, int register_slot) {
  const PackedCells& packing = this->packing();
  // Packed fields become terms of their word's one add (below); the rest merge one by one.
  std::vector<std::string> packed_terms(packed_cells_.size());
  auto pack = [&](size_t f, const std::string& term) {
    const CellPlace& at = packing.place[f];
    std::string& sum = packed_terms[static_cast<size_t>(at.word)];
    sum += fmt::format("{}((u64)({}) << {})", sum.empty() ? "" : " + ", term, at.shift);
  };
  std::string m;
  // The global tables' row count and packed sum: one atomic (compiler/plan/count_sum_packing.h).
  const bool global = slot_cells.empty() && register_slot < 0 && !m2_pass_;
  const CountSumPacking& counted = ctx_.packing;
  for (const FieldMerge& fm : field_merges(inputs)) {
    if (global && counted.packs() && fm.field == 0) continue;
    if (global && counted.packs() && fm.field == static_cast<size_t>(counted.field)) {
      std::string addend = counted.offset == 0
                               ? fmt::format("(u64)({})", fm.value)
                               : fmt::format("(u64)(({}) - ({}ll))", fm.value, counted.offset);
      if (!fm.null.empty()) addend = fmt::format("({} ? 0ull : {})", fm.null, addend);
      m += counted.count_bits == 0
               ? fmt::format("packed_count_sum_add(&{}[slot], &{}[slot], {});\n",
                             ctx_.packed_counts, ctx_.pack_carries, addend)
               : fmt::format("packed_low_count_add(&{}[slot], {}, {}u);\n", ctx_.packed_counts,
                             addend, counted.count_bits);
      continue;
    }
    if (packed(fm.field)) {
      pack(fm.field,
           fm.null.empty() ? fm.value : fmt::format("{} ? 0ull : (u64)({})", fm.null, fm.value));
    } else if (fm.null.empty()) {
      m += merge_one(fm.field, fm.value, slot_cells, register_slot);
    } else {
      m += fmt::format("if (!{}) {}", fm.null,
                       merge_one(fm.field, fm.value, slot_cells, register_slot));
    }
  }
  for (uint32_t w = 0; w < packed_terms.size(); ++w) {
    if (packed_terms[w].empty()) continue;
    m += block_table_ ? fmt::format("shared_atomic_add(&{}[{}], {});\n", packed_arrays_[w],
                                    slot_cells, packed_terms[w])
                      : fmt::format("{} += {};\n", packed_cell(w, slot_cells), packed_terms[w]);
  }
  return m;
}

std::string StateMerges::flush() {
  if (block_table_) return replicas() > 1 ? flush_replicas() : flush_block_table();
  if (block_cache_) {
    return flush_cells(fmt::format("{}[{{0}}] == kEmptyKey32", cache_tags_),
                       fmt::format("{}[{{0}}]", cache_tags_));
  }
  if (!thread_tables_) return "";
  return in_shared_ ? flush_shared_tables() : flush_registers();
}

// Shared per-thread tables merge once per block: warp w folds cells w, w + W, ... (each lane
// adds its B / 32 threads' values in a type no block's sum overflows), reduces across the
// warp, and lane 0 merges into the global state (every warp merging every cell would send
// W times the atomics to the same few addresses). A warp reduces all its cells before lane 0
// merges any, so the reductions overlap and the atomics go out together.
std::string StateMerges::flush_shared_tables() {
  const uint32_t warps = ctx_.plan.block / 32;
  std::vector<std::string> sums(warps), merges(warps);
  uint32_t cell = 0;
  for (uint64_t s = 0; s < ctx_.plan.slots; ++s) {
    for (size_t f = 0; f < ctx_.fields.size(); ++f) {
      if (!in_pass(f)) continue;
      const MergeNames names = merge_names(field_info(ctx_.state_fields()[f].kind).merge);
      const std::string type = block_sum_type(f);
      const std::string name = fmt::format("{}_block{}", ctx_.fields[f], s);
      sums[cell % warps] +=
          fmt::format("const {} {} = {}({});\n", type, name, names.warp, block_fold(f, s, type));
      merges[cell % warps] += atomic_merge(f, fmt::format("{}[{}]", ctx_.fields[f], s), name);
      ++cell;
    }
  }
  std::string b = "__syncthreads();\n";
  for (uint32_t w = 0; w < warps; ++w) {
    if (sums[w].empty()) continue;
    b += fmt::format("if (threadIdx.x / 32 == {}u) {{\n{}if (is_lane_zero()) {{\n{}}}\n}}\n", w,
                     sums[w], merges[w]);
  }
  return b;
}

// The type a block's sum of field f is reduced in: a packed field's block sum, under
// 2^(bits + log2 B), is a u64 when that fits (half the shuffles of an i128).
std::string StateMerges::block_sum_type(size_t f) const {
  const CellPlace& at = ctx_.plan.thread_tables.packed.place[f];
  if (packed(f) && at.bits + std::bit_width(ctx_.plan.block) <= 64) return "u64";
  return field_type(ctx_.state_fields()[f].kind);
}

// Field f's value in the cell of `slot` of thread part * 32 + lane, as `type`: a packed
// field is cut out of its word.
std::string StateMerges::flush_value(size_t f, uint64_t slot, uint32_t part,
                                     const std::string& type) const {
  auto cell = [&](const std::string& array) {
    return fmt::format("{}[{} * {}u + {}u + (threadIdx.x & 31)]", array, slot, ctx_.plan.block,
                       part * 32);
  };
  if (!packed(f)) return fmt::format("({}){}", type, cell(cell_arrays_[f]));
  const CellPlace& at = ctx_.plan.thread_tables.packed.place[f];
  return fmt::format("({})(({} >> {}) & 0x{:x}ull)", type, cell(packed_arrays_[at.word]), at.shift,
                     (uint64_t{1} << at.bits) - 1);
}

// A lane's fold of field f's cells of `slot` over the B / 32 threads it stands for.
std::string StateMerges::block_fold(size_t f, uint64_t slot, const std::string& type) const {
  const MergeOp op = field_info(ctx_.state_fields()[f].kind).merge;
  std::string fold;
  for (uint32_t part = 0; part < ctx_.plan.block / 32; ++part) {
    const std::string term = flush_value(f, slot, part, type);
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

// Register tables: one merge per warp instead of one per thread.
std::string StateMerges::flush_registers() {
  std::string b;
  for (uint64_t s = 0; s < ctx_.plan.slots; ++s) {
    for (size_t f = 0; f < ctx_.fields.size(); ++f) {
      if (!in_pass(f)) continue;
      const MergeNames names = merge_names(field_info(ctx_.state_fields()[f].kind).merge);
      b += fmt::format("{{ const {} block_sum = {}({}); if (is_lane_zero()) {}}}\n", cell_type(f),
                       names.warp, thread_cell(f, std::to_string(s)),
                       atomic_merge(f, fmt::format("{}[{}]", ctx_.fields[f], s), "block_sum"));
    }
  }
  return b;
}

// A block table's cell of field f: the planner's type, or for the second pass's table the
// field's own (an f64 sum: second_pass_block_bytes).
std::string StateMerges::block_cell_type(size_t f) const {
  return m2_pass_ ? field_type(ctx_.state_fields()[f].kind)
                  : cell_type_name(ctx_.plan.block_table.cells[f]);
}

// The block's table: one array per field of this pass, widest first so each stays aligned,
// set to the identities before any row; in dynamic shared memory (the launch sizes it), or
// for the second pass in static (second_pass_block_bytes).
std::string StateMerges::block_table_declarations() {
  const BlockTable& table = ctx_.plan.block_table;
  std::vector<SharedArray> arrays;
  for (size_t f = 0; f < ctx_.fields.size(); ++f) {
    if (!in_pass(f) || packed(f)) continue;
    const FieldInfo& info = field_info(ctx_.state_fields()[f].kind);
    arrays.push_back(
        {cell_arrays_[f], block_cell_type(f),
         m2_pass_ ? static_cast<uint64_t>(info.bytes)
                  : static_cast<uint64_t>(cell_bytes(table.cells[f])),
         m2_pass_ ? info.identity : cell_identity(ctx_.state_fields()[f].kind, table.cells[f]),
         ""});
  }
  for (uint32_t w = 0; w < packed_arrays_.size(); ++w) {
    arrays.push_back({packed_arrays_[w], "u64", 8, "0", ""});
  }
  if (block_cache_) arrays.push_back({cache_tags_, "u32", 4, "kEmptyKey32", ""});
  // The second pass's table is sized here (static); the first pass's by the launch.
  std::string d = m2_pass_ ? fmt::format("__shared__ __align__(16) u8 block_cells[{}];\n",
                                         second_pass_block_bytes(ctx_.plan))
                           : "extern __shared__ __align__(16) u8 block_cells[];\n";
  d += carve_shared_arrays("block_cells", arrays, table_entries());
  if (sliced()) d += slice_first_declaration();
  SymbolTable::Scope loop(ctx_.symbols);
  const std::string s = ctx_.symbols.fresh("table_slot");
  std::string identities;
  for (const SharedArray& a : arrays) {
    identities += fmt::format("{}[{}] = ({}){};\n", a.name, s, a.type, a.identity);
  }
  d += fmt::format("for (u32 {0} = threadIdx.x; {0} < {1}u; {0} += blockDim.x) {{\n{2}}}\n", s,
                   table_entries(), identities);
  if (block_cache_) {
    d += fmt::format("const SharedTableRef<u32> {}{{{}, {}u, {}u}};\n", cache_, cache_tags_,
                     table_entries(), ctx_.plan.block_cache_probes);
  }
  return d + "__syncthreads();\n";
}

// Cells of the block's table (its group slots, times their copies) or of its cache.
uint64_t StateMerges::table_entries() const {
  if (block_cache_) return ctx_.plan.block_cache_slots;
  return sliced() ? ctx_.plan.slice_slots : ctx_.plan.slots * replicas();
}

// Copies of a one-pass block table (GpuPlan::block_replicas).
uint32_t StateMerges::replicas() const {
  return block_table_ && !sliced() && !m2_pass_ ? std::max<uint32_t>(ctx_.plan.block_replicas, 1)
                                                : 1;
}

bool StateMerges::sliced() const { return block_table_ && ctx_.plan.scan_slices > 1; }

// Each occupied slot of the block's table (its row count is not 0) merges into the global
// states once: one atomic per field per group per block, not per row.
// The second pass's table has no row count: each cell merges unless it still holds its
// identity, which merging would not change.
std::string StateMerges::flush_block_table() {
  if (m2_pass_) return flush_cells("", "{0}");
  return flush_cells(block_cell(0, "{0}") + " == 0", sliced() ? "{0} + " + slice_first_ : "{0}");
}

// Field f's value in cell `index` of the block's table (or cache): its own cell, or its bits
// of a packed word.
std::string StateMerges::block_cell(size_t f, const std::string& index) const {
  if (!packed(f)) return fmt::format("{}[{}]", cell_arrays_[f], index);
  const CellPlace& at = packing().place[f];
  return fmt::format("(({}[{}] >> {}) & 0x{:x}ull)", packed_arrays_[at.word], index, at.shift,
                     (uint64_t{1} << at.bits) - 1);
}

// A slot's copies fold into one value a field, in the cell's type (the block's total fits it
// however its rows spread over the copies), and merge once as flush_block_table's cells do.
std::string StateMerges::flush_replicas() {
  SymbolTable::Scope loop(ctx_.symbols);
  const std::string s = ctx_.symbols.fresh("table_slot");
  const std::string copy = ctx_.symbols.fresh("copy");
  const uint32_t copies = replicas();
  std::string firsts, folds, merges, rows;
  for (size_t f = 0; f < ctx_.fields.size(); ++f) {
    if (!in_pass(f)) continue;
    const MergeOp op = field_info(ctx_.state_fields()[f].kind).merge;
    const std::string folded = ctx_.symbols.fresh(ctx_.fields[f] + "_block");
    const std::string cell = fmt::format("{}[{} * {}u + {}]", cell_arrays_[f], s, copies, copy);
    if (rows.empty()) rows = folded;  // field 0: the rows-per-group counter
    firsts += fmt::format("{} {} = {}[{} * {}u];\n", cell_type_name(ctx_.plan.block_table.cells[f]),
                          folded, cell_arrays_[f], s, copies);
    folds += op == MergeOp::Add
                 ? fmt::format("{} += {};\n", folded, cell)
                 : fmt::format("{0} = {1}({0}, {2});\n", folded, merge_names(op).pair, cell);
    merges += atomic_merge(f, fmt::format("{}[{}]", ctx_.fields[f], s), folded);
  }
  return fmt::format(
      "__syncthreads();\n"
      "for (u32 {0} = threadIdx.x; {0} < {1}u; {0} += blockDim.x) {{\n"
      "{2}for (u32 {3} = 1; {3} < {4}u; ++{3}) {{\n{5}}}\n"
      "if ({6} == 0) continue;\n{7}}}\n",
      s, ctx_.plan.slots, firsts, copy, copies, folds, rows, merges);
}

// Every cell of the block's table or cache, unless `skip`, merged into the global states of
// `global_slot` (both formats of the cell's index, {0}); with no `skip`, each cell that does
// not hold its identity.
std::string StateMerges::flush_cells(const std::string& skip, const std::string& global_slot) {
  SymbolTable::Scope loop(ctx_.symbols);
  const std::string s = ctx_.symbols.fresh("table_slot");
  const std::string target = fmt::format(fmt::runtime(global_slot), s);
  std::string merges;
  for (size_t f = 0; f < ctx_.fields.size(); ++f) {
    if (!in_pass(f)) continue;
    const std::string merge =
        atomic_merge(f, fmt::format("{}[{}]", ctx_.fields[f], target), block_cell(f, s));
    merges += skip.empty()
                  ? fmt::format("if ({} != ({}){}) {}", block_cell(f, s), block_cell_type(f),
                                field_info(ctx_.state_fields()[f].kind).identity, merge)
                  : merge;
  }
  const std::string skipped =
      skip.empty() ? "" : fmt::format("if ({}) continue;\n", fmt::format(fmt::runtime(skip), s));
  return fmt::format(
      "__syncthreads();\n"
      "for (u32 {0} = threadIdx.x; {0} < {1}u; {0} += blockDim.x) {{\n{2}{3}}}\n",
      s, table_entries(), skipped, merges);
}

}  // namespace tally
