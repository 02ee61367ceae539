// Shared helpers of the GPU tests: one Device for the process, compiling test kernels
// against the device library, and moving vectors to and from the GPU.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/module.h"

namespace tally::cuda::test {

// Device 0, opened on first use and kept for the whole run.
Device& test_device();

// Compiles `kernels` (extern "C" __global__ functions) after #includes of every template
// header and `using namespace tally;`, and loads the module — once per name for the run.
Module& test_module(const std::string& kernels, const std::string& name);

// Every occupied slot of a global hash table read back from its key array (capacity + 1
// words): (slot, key), the side slot's key being the EMPTY value.
std::vector<std::pair<uint64_t, uint64_t>> occupied_slots(const DeviceBuffer& table_keys);

// A grid that covers `rows` with `block` threads, capped so each thread loops a few times.
uint32_t grid_for(uint64_t rows, uint32_t block = 256);

template <class T>
DeviceBuffer to_device(const std::vector<T>& values, const char* what) {
  DeviceBuffer buffer(values.size() * sizeof(T), what);
  buffer.upload_vector(values);
  return buffer;
}

template <class T>
DeviceBuffer filled_device(size_t count, T value, const char* what) {
  return to_device(std::vector<T>(count, value), what);
}

template <class T>
std::vector<T> from_device(const DeviceBuffer& buffer) {
  test_device().synchronize();
  return buffer.download_vector<T>(buffer.size() / sizeof(T));
}

}  // namespace tally::cuda::test
