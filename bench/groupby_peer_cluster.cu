// The cluster peer (bench/groupby_peers.h, kPeerCluster): one shared table spread over the
// blocks of a thread-block cluster, remote slots reached through distributed shared memory.
#include <cooperative_groups.h>

#include <algorithm>

#include "bench/groupby_peer_support.cuh"

namespace groupby_peers_detail {

namespace {

constexpr int kClusterBlock = 1024;

// The shared table of a cluster of C blocks: each block holds a slice of `slice` slots
// (counts, low and high sum words as in shared_tables); a row's slot may be in another
// block's shared memory, reached through the cluster's distributed shared memory. Every
// block clears its slice before any block writes, and keeps it until every block is done.
__global__ void __launch_bounds__(kClusterBlock)
    cluster_tables(const uint32_t* __restrict__ keys, const int32_t* __restrict__ values,
                   uint64_t rows, uint32_t k, uint32_t slice, unsigned* counts,
                   unsigned long long* sums) {
  namespace cg = cooperative_groups;
  extern __shared__ unsigned words[];
  cg::cluster_group cluster = cg::this_cluster();
  const SharedCountSums own(words, slice);
  own.clear();
  cluster.sync();
  for_each_row(keys, values, rows, [&](uint32_t key, int32_t v) {
    const uint32_t rank = key / slice;
    const SharedCountSums table(cluster.map_shared_rank(words, rank), slice);
    table.add(key - rank * slice, static_cast<unsigned>(v));
  });
  cluster.sync();
  const uint32_t base = cluster.block_rank() * slice;
  own.flush(base, min(slice, k - min(k, base)), counts, sums);
}

int g_cluster_size = 0, g_grid_cluster = 0;
uint32_t g_cluster_slice = 0;

cudaLaunchConfig_t cluster_config(uint32_t slice, cudaLaunchAttribute& attribute) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(std::max(g_grid_cluster, g_cluster_size)));
  config.blockDim = dim3(kClusterBlock);
  config.dynamicSmemBytes = size_t{3} * slice * sizeof(unsigned);
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = static_cast<unsigned>(g_cluster_size);
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

}  // namespace

cudaError_t run_cluster(uint32_t k) {
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config = cluster_config(g_cluster_slice, attribute);
  return cudaLaunchKernelEx(&config, cluster_tables, g.keys.as<const uint32_t>(),
                            g.values.as<const int32_t>(), g.rows, k, g_cluster_slice,
                            g.counts.as<unsigned>(), g.sums.as<unsigned long long>());
}

// The smallest cluster (up to 8 blocks; 16, not portable, failed to launch with these tables on
// an H100) whose blocks' shared memory holds K slots of 12 bytes, and as many clusters as fit.
GroupbyPeerResult prepare_cluster(uint32_t k, int optin) {
  int size = 1;
  while (size <= 8 && size_t{12} * ((k + size - 1) / size) > static_cast<size_t>(optin)) size *= 2;
  if (size > 8) {
    return not_applicable(std::to_string(k) + " slots do not fit the shared memory of 8 blocks");
  }
  g_cluster_size = size;
  g_cluster_slice = (k + size - 1) / size;
  const int bytes = static_cast<int>(size_t{3} * g_cluster_slice * sizeof(unsigned));
  PEER_CHECK(
      cudaFuncSetAttribute(cluster_tables, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config = cluster_config(g_cluster_slice, attribute);
  int clusters = 0;
  PEER_CHECK(cudaOccupancyMaxActiveClusters(&clusters, cluster_tables, &config));
  if (clusters == 0) return not_applicable("no cluster of " + std::to_string(size) + " fits");
  g_grid_cluster = clusters * size;
  GroupbyPeerResult ok{};
  ok.status = kPeerRan;
  std::snprintf(ok.message, sizeof ok.message, "%d clusters of %d blocks", clusters, size);
  return ok;
}

}  // namespace groupby_peers_detail
