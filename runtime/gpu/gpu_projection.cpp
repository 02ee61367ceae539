#include "runtime/gpu/gpu_projection.h"

#include <chrono>

#include "compiler/common/elapsed.h"
#include "compiler/common/error.h"

namespace tally {

namespace {

class ProjectionExecution {
 public:
  ProjectionExecution(const GpuRunInputs& in, const GpuCompilation& c, GpuRunReport& report)
      : in_(in), c_(c), report_(report), pool_(in.engine.pool) {}

  std::vector<std::vector<Value>> run() {
    auto start = std::chrono::steady_clock::now();
    const uint32_t grid = c_.plan.grid;
    lookups_ = upload_lookups(in_, *c_.program, lookup_tables_);
    status_ = pool_.allocate(8, "the status word");
    status_.fill_bytes(0);
    block_counts_ = pool_.allocate(grid * 8ull, "the block counts");
    block_counts_.fill_bytes(0);
    block_offsets_ = pool_.allocate(grid * 8ull, "the block offsets");
    fill_args();  // without output columns: the count pass writes none
    report_.upload_ms += ms_since(start);
    const cuda::Module& module = in_.engine.module_for(c_.binary);
    report_.scan_ms +=
        launch_timed(module.kernel(kernel_name(KernelId::ScanCount)), grid, c_.plan.block, args_);
    raise_status_errors(read_status(), in_.engine.lookup_error);
    uint64_t rows = place_blocks();
    if (rows == 0) return {};
    allocate_outputs(rows);
    fill_args();
    report_.scan_ms +=
        launch_timed(module.kernel(kernel_name(KernelId::ScanWrite)), grid, c_.plan.block, args_);
    raise_status_errors(read_status(), in_.engine.lookup_error);
    start = std::chrono::steady_clock::now();
    std::vector<std::vector<Value>> out = download(rows);
    report_.download_ms += ms_since(start);
    return out;
  }

 private:
  uint32_t read_status() const { return read_status_word(status_); }

  // Each block's first output row: the exclusive scan of the block counts (a grid's worth
  // of words, so the host does it while it learns the total it sizes the outputs by).
  uint64_t place_blocks() {
    std::vector<uint64_t> counts = block_counts_.download_vector<uint64_t>(c_.plan.grid);
    std::vector<uint64_t> offsets(counts.size());
    uint64_t total = 0;
    for (size_t b = 0; b < counts.size(); ++b) {
      offsets[b] = total;
      total += counts[b];
    }
    if (total > in_.table.rows()) {
      throw Error(ErrorKind::Internal, "the GPU count pass found more rows than the table has");
    }
    block_offsets_.upload_vector(offsets);
    return total;
  }

  void allocate_outputs(uint64_t rows) {
    for (const ProjectedOutput& o : c_.program->projected) {
      columns_.push_back(pool_.allocate(rows * o.bytes, "the result columns"));
      nulls_.push_back(pool_.allocate(rows, "the result NULL flags"));
    }
  }

  uint64_t arg_value(const ArgSlot& a) const {
    switch (a.kind) {
      case ArgKind::Status:
        return status_.ptr();
      case ArgKind::BlockCounts:
        return block_counts_.ptr();
      case ArgKind::BlockOffsets:
        return block_offsets_.ptr();
      case ArgKind::OutColumn:
        return columns_.empty() ? 0 : columns_.at(a.index).ptr();
      case ArgKind::OutColumnNulls:
        return nulls_.empty() ? 0 : nulls_.at(a.index).ptr();
      default:
        if (is_input_arg(a.kind)) return input_arg(in_, lookups_, a);
        throw Error(ErrorKind::Internal, "a projection program asked for aggregation state");
    }
  }

  void fill_args() {
    args_.clear();
    for (const auto& a : c_.program->args) args_.push_back(arg_value(a));
  }

  // One column's cells widened to 16 bytes, sign-extended as the kernel narrowed them.
  std::vector<int128> download_cells(size_t o, uint64_t rows) const {
    if (c_.program->projected[o].bytes == 16) return columns_[o].download_vector<int128>(rows);
    std::vector<int64_t> narrow = columns_[o].download_vector<int64_t>(rows);
    return std::vector<int128>(narrow.begin(), narrow.end());
  }

  std::vector<std::vector<Value>> download(uint64_t rows) const {
    size_t width = c_.program->projected.size();
    std::vector<std::vector<Value>> out(rows, std::vector<Value>(width));
    for (size_t o = 0; o < width; ++o) {
      std::vector<int128> cells = download_cells(o, rows);
      std::vector<uint8_t> nulls = nulls_[o].download_vector<uint8_t>(rows);
      const Type& type = in_.query.outputs[o].expr->type;
      int dictionary = c_.program->projected[o].dictionary;
      for (uint64_t r = 0; r < rows; ++r) {
        out[r][o] = decode_cell(in_, cells[r], nulls[r] != 0, type, dictionary);
      }
    }
    return out;
  }

  const GpuRunInputs& in_;
  const GpuCompilation& c_;
  GpuRunReport& report_;
  cuda::BufferPool& pool_;
  std::vector<cuda::DeviceBuffer> lookups_, columns_, nulls_;
  LookupTables lookup_tables_;
  cuda::DeviceBuffer status_, block_counts_, block_offsets_;
  std::vector<uint64_t> args_;  // the kernels' parameter block (KernelArgs<N>)
};

}  // namespace

std::vector<std::vector<Value>> run_projection(const GpuRunInputs& in, const GpuCompilation& c,
                                               GpuRunReport& report) {
  return ProjectionExecution(in, c, report).run();
}

std::vector<std::vector<Value>> run_projection_batches(const GpuRunInputs& in,
                                                       BatchStreamer& streamer,
                                                       const GpuCompilation& c,
                                                       GpuRunReport& report) {
  std::vector<std::vector<Value>> rows;
  streamer.each_copied([&](const ScanBatch& batch) {
    GpuRunInputs part = in;
    part.streamed = true;
    part.batch = &batch;
    auto batch_rows = ProjectionExecution(part, c, report).run();
    rows.insert(rows.end(), std::make_move_iterator(batch_rows.begin()),
                std::make_move_iterator(batch_rows.end()));
  });
  return rows;
}

}  // namespace tally
