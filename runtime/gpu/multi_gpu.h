// A table split across several GPUs of one host (issue 17): every engine runs the same plan
// over its share of the rows, in its own thread, to partial states that combine on the host
// exactly as one run over the whole table would finish (runtime/cpu/partial_groups.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "runtime/gpu/gpu_engine.h"

namespace tally {

// The ordinals ExecOptions::devices names: "" none (the default engine), "all" every GPU of
// the host, "0,1" those (a repeated one: two parts on that GPU). Throws Error(Device) for an
// ordinal the host lacks, Error(Unsupported) for text that is none of these.
std::vector<int> device_ordinals(const std::string& devices);

// `parts` row ranges of near-equal size over `rows` rows, each starting on a 1024-row block.
std::vector<std::pair<uint64_t, uint64_t>> split_rows(uint64_t rows, size_t parts);

// The query over `table` split into one part per engine (engines may share a device: the
// tests split across logical parts of one GPU). `reports`, when given, gets each part's.
Result run_on_gpus(std::span<GpuEngine* const> engines, const BoundSelect& query,
                   const Table& table, const std::vector<Value>& parameters,
                   std::shared_ptr<StringHeap> strings, const GpuRunOptions& options,
                   std::vector<GpuRunReport>* reports = nullptr);

}  // namespace tally
