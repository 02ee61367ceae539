// tally device library: fixed-width types and shared constants.
// Every other template header includes this one. Plain CUDA C++ for NVRTC: no toolkit
// headers, no std::, so that a query kernel compiles in tens of milliseconds.
#pragma once

#include "tally_status.cuh"

#define TALLY_DEV __device__ __forceinline__

typedef signed char i8;
typedef unsigned char u8;
typedef short i16;
typedef unsigned short u16;
typedef int i32;
typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;
typedef __int128 i128;
typedef unsigned __int128 u128;
typedef float f32;
typedef double f64;

namespace tally {

// The key value that marks a free hash-table slot. Real keys equal to it are legal: the
// global table routes them to a side slot, the shared table sends them to the global path.
constexpr u64 kEmptyKey64 = 0xFFFFFFFFFFFFFFFFull;
constexpr u32 kEmptyKey32 = 0xFFFFFFFFu;

constexpr i64 kI64Max = 0x7FFFFFFFFFFFFFFFll;
constexpr i64 kI64Min = -kI64Max - 1;
constexpr i32 kI32Max = 0x7FFFFFFF;
constexpr i32 kI32Min = -kI32Max - 1;

// Two's complement conversions between i128 and its two 64-bit halves (little endian:
// word 0 is the low half, as __int128 is laid out in memory on the host and the device).
TALLY_DEV u64 i128_low(i128 v) { return (u64)v; }
TALLY_DEV u64 i128_high(i128 v) { return (u64)((u128)v >> 64); }
TALLY_DEV i128 i128_from_words(u64 low, u64 high) { return (i128)(((u128)high << 64) | (u128)low); }

// Grid-stride helpers: the global index of this thread and the stride of the grid.
// A generated kernel's arguments, passed by value as its one parameter (__grid_constant__):
// N 64-bit words, pointers and counts, in the order the code generator assigned them.
template <int N>
struct KernelArgs {
  u64 words[N];
};

// SQL's order for MIN and MAX: numbers as usual, and for floats NaN above every number and
// equal to itself (PostgreSQL; the CPU engine's compare_values). For integers these are < and >.
template <typename T>
TALLY_DEV bool sql_less(T a, T b) {
  return a < b || (b != b && a == a);
}
template <typename T>
TALLY_DEV bool sql_greater(T a, T b) {
  return a > b || (a != a && b == b);
}

TALLY_DEV u64 global_thread_index() { return (u64)blockIdx.x * blockDim.x + threadIdx.x; }
TALLY_DEV u64 grid_stride() { return (u64)gridDim.x * blockDim.x; }

}  // namespace tally
