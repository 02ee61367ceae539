// Opaque driver handles, declared without cuda.h (whose include path only the runtime
// library has), so that the CLI, the tests and embedding code can use device.h & co.
// The names match cuda.h's typedefs (typedef struct CUctx_st* CUcontext, ...).
#pragma once

struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;

namespace tally::cuda {

// A device address, as cuda.h's CUdeviceptr (unsigned long long on every 64-bit platform).
// Passed to kernels by value, it is the same 8 bytes as a `T*` parameter.
using DevicePtr = unsigned long long;

}  // namespace tally::cuda
