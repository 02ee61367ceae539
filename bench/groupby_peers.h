// Hand-written GROUP BY peers of the sweep (bench/groupby_sweep.cpp), compiled by nvcc (CUB does
// not compile under NVRTC) into their own small library, with a C API so that the benchmark's C++
// never sees CUDA runtime headers. The input is what every peer reads: int32 keys already reduced
// to [0, K) and int32 values; the output per group is COUNT(*) and a 64-bit SUM(value). The CUDA
// runtime shares the device's primary context with tally's driver API.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum GroupbyPeer {
  kPeerAtomics = 0,  // one global atomicAdd per row into a K-array of counts and one of sums
  kPeerShared = 1,   // a block-private table in shared memory, 32-bit atomics, one flush
  kPeerCub = 2,      // CUB radix sort by key, then DeviceReduce::ReduceByKey
  // The shared table spread over a thread-block cluster's distributed shared memory (sm_90):
  // slot s lives in block s / (K / C) of a cluster of C blocks, remote ones by DSMEM atomics.
  kPeerCluster = 3,
  // Radix partitioning by the key's high bits (a histogram, a scan, a scatter of key and value
  // pairs), then one shared-memory table per partition: 28 B/row of traffic for 2 shared
  // atomics a row instead of global ones.
  kPeerPartition = 4,
  // The shared peer's table over slices of the keys, one pass over the rows per slice: K up
  // to 16 times what one block's shared memory holds, read 16 times at most.
  kPeerSliced = 5,
  // The sliced peer in one launch: block b keeps slice b % S and walks the rows of group b / S,
  // so the S blocks of a group read the same rows at about the same time (once from memory,
  // S - 1 times from L2) and each flushes its slice once.
  kPeerInterleaved = 6,
  // The atomics peer with COUNT(*) and SUM(value) packed in one 64-bit word: one global atomic
  // a row; a sum's carry into the count is seen by the add that made it and taken out after.
  kPeerPacked = 7,
  // The packed word with the count in its low bits (never carrying) and the sum above, modulo:
  // one atomic a row whose result nobody waits for, exact where count x largest value fits.
  kPeerPackedRed = 8,
  // packed_red in one pass per slice of the keys, each pass adding only its slice's rows, so
  // that a table larger than L2 is updated a quarter of L2 at a time.
  kPeerL2Sliced = 9,
};
#define GROUPBY_PEER_COUNT 10

enum GroupbyPeerStatus {
  kPeerRan = 0,
  kPeerNotApplicable = 1,  // e.g. K slots do not fit in shared memory: `message` says why
  kPeerFailed = 2,         // a CUDA error: `message` says which
};

typedef struct {
  int status;  // GroupbyPeerStatus
  double ms;   // median over the timed runs, device events
  char message[256];
} GroupbyPeerResult;

const char* groupby_peer_name(int peer);  // "atomics", "shared", "cub", "cluster", "partition",
                                          // "sliced", "interleaved", "packed", "packed_red",
                                          // "l2_sliced"

// Copies `rows` values (the same for every K) to device 0; rows < 2^31. Returns 0, or -1
// with groupby_peers_error() saying why.
int groupby_peers_set_values(const int32_t* values, uint64_t rows);
// Copies the keys (each in [0, k) for the k of the runs that follow), as many as the values.
int groupby_peers_set_keys(const int32_t* keys, uint64_t rows);
const char* groupby_peers_error(void);

// Runs `peer` once over the keys and values set last and copies its result to `counts`
// and `sums` (k entries each, groups without rows as 0), so that it is checked before it
// is timed. Allocates what the peer needs at k; the status says whether it ran.
GroupbyPeerResult groupby_peer_check(int peer, uint32_t k, uint64_t* counts, int64_t* sums);
// Times `peer` at k: `warmup` untimed runs, then the median of `reps` timed ones.
GroupbyPeerResult groupby_peer_time(int peer, uint32_t k, int warmup, int reps);

// Frees every device buffer the peers hold.
void groupby_peers_release(void);

#ifdef __cplusplus
}
#endif
