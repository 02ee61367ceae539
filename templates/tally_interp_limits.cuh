// tally device library: the interpreter's launch and shared-table sizes. Plain C++ that the
// host compiles too: runtime/gpu/interpreted_scan.cpp includes this file to size its launches
// and to choose the shared table, so the two sides cannot drift apart.
#pragma once

namespace tally {

// Threads a block of the interpreter's kernels.
constexpr unsigned int kInterpThreads = 256;
// Groups a block's shared table holds; the domain of such a statement's keys is at most this.
constexpr unsigned int kInterpSharedSlots = 256;
// Shared cells a block holds: kInterpSharedSlots slots of up to 8 fields.
constexpr unsigned int kInterpSharedCells = 2048;

}  // namespace tally
