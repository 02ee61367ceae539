#include "compiler/codegen/scan_kernel.h"

#include <fmt/format.h>

#include <climits>

#include "compiler/codegen/cuda_columns.h"
#include "compiler/codegen/group_slot.h"
#include "compiler/codegen/state_merges.h"

namespace tally {

namespace {

// Rows of a lane's 32 in a block whose packed words load together (LaneChunk), two chunks
// in flight: the fastest chunk size measured (bench/RESULTS.md).
constexpr uint32_t kChunkRows = 8;

// Whether a bit-packed column decodes in 32-bit registers: fields of at most 32 bits whose
// values base + [0, 2^bits) all fit an i32.
bool fits_i32(const ColumnStats& s) {
  if (s.bits < 1 || s.bits > 31) return false;
  const int64_t top = s.base + ((int64_t{1} << s.bits) - 1);
  return s.base >= INT32_MIN && top <= INT32_MAX;
}

// Where a chunked read finds its field: which of the two buffers, and which chunk.
struct ChunkRef {
  bool second_buffer = false;
  std::string chunk = "0";
};

// How the scan reads one column: its declarations before the loop, and its value for a row
// of the lane's two (`half`) in a chunk, or row by row.
struct ColumnRead {
  int column = -1;
  int bits = 0;  // > 0: a lane-field column read a chunk at a time (LaneChunk)
  bool held_i32 = false;
  std::string row_value;  // read row by row (the partial block, unchunked walks)
  std::string null;
};

class ScanWriter {
 public:
  ScanWriter(AggregationContext& ctx, bool m2_pass)
      : ctx_(ctx),
        m2_pass_(m2_pass),
        merges_(ctx, m2_pass),
        narrow_(ctx.plan.rows < (uint64_t{1} << 31)),
        walk_type_(narrow_ ? "u32" : "u64") {}

  std::string body() {
    std::string b = merges_.declarations() + grouping_set_declarations(ctx_);
    // Scans whose per-thread tables live in shared memory (small bodies, bound by decode and
    // load latency) unroll a block's rows in chunks of kChunkRows through two LaneChunk
    // buffers; the others, and quick scans, loop over the block's rows, reading fields row by
    // row, so that NVRTC does not compile their bodies 32 times. Below 2^31 rows the walk is
    // 32-bit: 64-bit loop arithmetic costs twice the instructions.
    // A DISTINCT set's insert, a probe loop of global atomics, is no small body: unrolled, the
    // Scan took 14-32x the row-by-row one (H200, SF 10, 2 groups: 266 against 8.2 ms).
    const bool chunked = !ctx_.plan.quick_scan && ctx_.plan.distinct_capacity == 0 &&
                         (merges_.in_shared() || merges_.block_table());
    b += column_reads(chunked);
    b += fmt::format(
        "const {0} walk_rows = ({0})rows;\n"
        "const {0} warps = ({0})(grid_stride() / 32);\n"
        "const {0} first_block = ({0})(global_thread_index() / 32);\n",
        walk_type_);
    if (chunked) {
      b += chunked_walk();
      // The last block, when partial, belongs to the warp whose walk stopped before it.
      b +=
          "if (block * 1024 < walk_rows) {\n" + in_block() + rows_of_chunk(false, {}, true) + "}\n";
    } else {
      b +=
          fmt::format("for ({} block = first_block; block * 1024 < walk_rows; block += warps) {{\n",
                      walk_type_);
      if (!merges_.merges_on_chip()) {
        b += "if ((block & 3) == 0 && status_raised(status)) break;\n";
      }
      b += in_block() + rows_of_chunk(false, {}, true) + "}\n";
    }
    if (ctx_.finalize_is_dependent()) b += "allow_dependent_launch();\n";  // one pass
    // The second pass runs after the first has set and merged the states.
    if (merges_.merges_on_chip() && scan_sets_states(ctx_.plan) && !m2_pass_) {
      b += "await_init(sync);\n";
    }
    return b + merges_.flush();
  }

 private:
  // Rows of a block that exist: rows past the end decode padding (the executor pads every
  // column by a block) and are dropped before anything can raise an error.
  static std::string in_block() {
    return "const u32 in_block = walk_rows - block * 1024 < 1024 ? (u32)(walk_rows - block * "
           "1024) : 1024u;\n";
  }

  // Whether lane-field column c is held in an i32 between its decode and its use: any integer
  // column. Held as i64, NVVM carries the row's 32-bit arithmetic in 64-bit registers.
  bool holds_in_i32(size_t c) const {
    if (ctx_.query.scan[c].type.id == TypeId::Boolean) return false;
    const std::string type = ctx_.emitter.column_type(static_cast<int>(c));
    return type == "i64" || type == "i32" || type == "i16" || type == "i8";
  }

  // Lane-field column c's value from its field: base + field, signed because it cannot
  // overflow (fits_i32), so the compiler may fold the base into comparisons and sums.
  std::string lane_value(size_t c, bool held_i32, const std::string& field) const {
    const std::string sum = fmt::format("({} + (i32){})", ctx_.stats[c].base, field);
    if (held_i32) return "(i32)" + sum;
    return column_value(ctx_.query.scan[c].type, ctx_.emitter.column_type(static_cast<int>(c)),
                        "(i64)" + sum);
  }

  // Column pointers come from the argument block once, before the loop. Bit-packed columns
  // that fit 32-bit registers are read a chunk of rows at a time (LaneChunk); the others
  // decode row by row.
  std::string column_reads(bool chunked) {
    std::string d = "const u32 lane = threadIdx.x & 31; (void)lane;\n";
    for (size_t c = 0; c < ctx_.query.scan.size(); ++c) {
      const ColumnStats& s = ctx_.stats[c];
      const ColumnNames& n = ctx_.columns[c];
      const int data = ctx_.args.add({ArgKind::ColumnData, static_cast<int>(c)});
      ColumnRead r;
      r.column = static_cast<int>(c);
      if (s.layout == ColumnStats::Layout::BitPacked && fits_i32(s) &&
          ctx_.plan.rows < (uint64_t{1} << 32)) {
        d += fmt::format("const u32* __restrict__ const {} = (const u32*)args[{}] + lane;\n",
                         n.words, data);
        r.held_i32 = holds_in_i32(c);
        r.row_value =
            lane_value(c, r.held_i32,
                       fmt::format("lane_field32<{}u>({} + ({})block * {}u, pair * 2 + half)",
                                   s.bits, n.words, walk_type_, 32 * s.bits));
        if (chunked) r.bits = s.bits;
      } else {
        const Type& t = ctx_.query.scan[c].type;
        const char* stored =
            s.layout == ColumnStats::Layout::BitPacked ? "u32" : plain_storage_type(t);
        d += fmt::format("const {0}* __restrict__ {1} = (const {0}*)args[{2}];\n", stored, n.values,
                         data);
        r.row_value = column_value(t, ctx_.emitter.column_type(static_cast<int>(c)),
                                   column_payload(s, n.values));
      }
      if (s.has_nulls) {
        d += fmt::format("const u64* __restrict__ {} = (const u64*)args[{}];\n", n.valid,
                         ctx_.args.add({ArgKind::ColumnValidity, static_cast<int>(c)}));
      }
      r.null = column_null(s, n.valid);
      if (r.held_i32) held_i32_.push_back(static_cast<int>(c));
      reads_.push_back(r);
    }
    return d;
  }

  const std::string& buffer(const ColumnRead& r, bool second) const {
    return second ? ctx_.columns[r.column].chunk_b : ctx_.columns[r.column].chunk_a;
  }

  // The LaneChunk buffers of the chunked columns.
  std::string buffers(bool second) const {
    std::string out;
    for (const ColumnRead& r : reads_) {
      if (r.bits > 0) {
        out += fmt::format("LaneChunk<{}u, {}u> {};\n", r.bits, kChunkRows, buffer(r, second));
      }
    }
    return out;
  }

  // Loads of chunk `chunk` of block `block` into each chunked column's buffer.
  std::string loads(bool second, const std::string& block, const std::string& chunk) const {
    std::string out;
    for (const ColumnRead& r : reads_) {
      if (r.bits == 0) continue;
      out += fmt::format("{}.load({} + ({})({}) * {}u, {}); ", buffer(r, second),
                         ctx_.columns[r.column].words, walk_type_, block, 32 * r.bits, chunk);
    }
    return out;
  }

  // A chunked scan's walk over its warp's whole blocks, the rows unrolled in chunks through
  // two LaneChunk buffers: the next chunk's words (at the end of a block, the next block's
  // first, whole or not) load while this chunk's rows are worked on. A whole block needs no
  // per-row check that a row exists, a branch that costs measurably. The walk leaves `block`
  // at the warp's first block not done.
  std::string chunked_walk() {
    constexpr uint32_t chunks = 32 / kChunkRows;
    std::string b = buffers(false) + buffers(true);
    b += "if (first_block * 1024 < walk_rows) { " + loads(false, "first_block", "0") + "}\n";
    b += fmt::format("{} block = first_block;\n", walk_type_);
    b += "for (; (block + 1) * 1024 <= walk_rows; block += warps) {\n";
    b += fmt::format("#pragma unroll\nfor (u32 chunk = 0; chunk < {}u; chunk += 2) {{\n", chunks);
    b += loads(true, "block", "chunk + 1") + "\n";
    b += rows_of_chunk(true, {false, "chunk"}, false);
    b += fmt::format("if (chunk + 2 < {}u) {{ {}}}\n", chunks, loads(false, "block", "chunk + 2"));
    b += "else if ((block + warps) * 1024 < walk_rows) { " + loads(false, "block + warps", "0") +
         "}\n";
    b += rows_of_chunk(true, {true, "(chunk + 1)"}, false);
    b += "}\n}\n";
    return b;
  }

  // The decode of a lane's two rows `half` of a pair.
  std::string decode(bool chunked, const ChunkRef& at) const {
    std::string d;
    for (const ColumnRead& r : reads_) {
      const std::string value = chunked && r.bits > 0
                                    ? lane_value(static_cast<size_t>(r.column), r.held_i32,
                                                 fmt::format("{}.field({}, pair * 2 + half)",
                                                             buffer(r, at.second_buffer), at.chunk))
                                    : r.row_value;
      const ColumnNames& n = ctx_.columns[r.column];
      d += fmt::format("{}[half] = {}; {}[half] = {};\n", n.held, value, n.held_null, r.null);
    }
    return d;
  }

  // The rows of one chunk: pairs of rows decoded, then worked on. Chunked, a chunk is
  // kChunkRows rows, unrolled; otherwise one chunk of a block's 32 rows a lane, not
  // unrolled. `check_rows`: the block may be partial (in_block), so each row is checked.
  // Its temporaries' names are free again after it: each copy names them alike.
  std::string rows_of_chunk(bool chunked, const ChunkRef& at, bool check_rows) {
    SymbolTable::Scope temporaries(ctx_.symbols);
    const uint32_t chunk_rows = chunked ? kChunkRows : 32;
    std::vector<int> all(ctx_.query.scan.size());
    for (size_t c = 0; c < all.size(); ++c) all[c] = static_cast<int>(c);
    std::string b = fmt::format("#pragma unroll {}\nfor (u32 pair = 0; pair < {}u; ++pair) {{\n",
                                chunked ? "" : "1", chunk_rows / 2);
    // Both rows of a pair are decoded before either is used, with no branch in between, so
    // the row-by-row loads of both are in flight together.
    b += decoded_declarations(all, ctx_.columns, ctx_.emitter, held_i32_);
    const std::string step = fmt::format("({} * {}u + pair * 2 + half)", at.chunk, chunk_rows);
    const std::string row_index = "const u32 index = (" + step +
                                  " << 5) + lane;\nconst u64 row = (u64)block * 1024 + index; "
                                  "(void)row;\n";
    b += "#pragma unroll\nfor (u32 half = 0; half < 2; ++half) {\n" + row_index;
    b += decode(chunked, at) + "}\n";
    b += "#pragma unroll\nfor (u32 half = 0; half < 2; ++half) {\n" + row_index;
    if (check_rows) b += "if (index >= in_block) continue;\n";
    b += decoded_row(all, ctx_.columns, ctx_.emitter);
    if (ctx_.query.filter) {
      CudaOperand f = ctx_.emitter.emit(*ctx_.query.filter, b);
      b += fmt::format("if ({} || !{}) continue;\n", f.null, f.value);
    }
    const std::string sets = grouping_set_loop_head(ctx_);
    b += sets + group_slot_code(ctx_, m2_pass_) + merges_.merge_row();
    if (!sets.empty()) b += "}\n";
    b += "}\n}\n";
    return b;
  }

  AggregationContext& ctx_;
  const bool m2_pass_;
  StateMerges merges_;
  const bool narrow_;
  const std::string walk_type_;
  std::vector<ColumnRead> reads_;
  std::vector<int> held_i32_;  // columns decoded into 32-bit registers
};

}  // namespace

std::string scan_body(AggregationContext& ctx, bool m2_pass) {
  return ScanWriter(ctx, m2_pass).body();
}

}  // namespace tally
