#include "bench/bench_util.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "runtime/compile/nvrtc.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/module.h"
#include "runtime/cuda/stream.h"

namespace tally::bench {

namespace {

const char* kReadBandwidthKernel = R"(
extern "C" __global__ void read_bandwidth(const uint4* __restrict__ data, unsigned long long n,
                                          unsigned long long* sink) {
  unsigned int acc = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    uint4 v = __ldg(data + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x12345678u) atomicAdd(sink, 1ull);  // keeps the loads alive
}
)";

}  // namespace

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double median_kernel_ms(int reps, const std::function<void()>& reset,
                        const std::function<void()>& launch) {
  std::vector<double> ms;
  for (int i = 0; i < reps + 2; ++i) {
    reset();
    cuda::EventTimer timer;
    timer.start();
    launch();
    timer.stop();
    if (i >= 2) ms.push_back(timer.elapsed_ms());
  }
  return median(ms);
}

double measure_read_bandwidth(int reps, int sm_count) {
  const size_t bytes = size_t{4} << 30;
  cuda::DeviceBuffer data(bytes, "the bandwidth probe");
  data.fill_bytes(1);
  cuda::DeviceBuffer sink(8, "the bandwidth probe's sink");
  auto compiled = cuda::compile_cuda(kReadBandwidthKernel, "read_bandwidth.cu");
  cuda::Module module(compiled.image);
  cuda::Kernel kernel = module.kernel("read_bandwidth");
  cuda::LaunchConfig config;
  config.grid = static_cast<uint32_t>(sm_count) * 16;
  config.block = 256;
  double ms = median_kernel_ms(
      reps, [] {},
      [&] {
        cuda::launch(kernel, config, data.ptr(), static_cast<unsigned long long>(bytes / 16),
                     sink.ptr());
      });
  return static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

}  // namespace tally::bench
