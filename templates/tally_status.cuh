// tally device library: the bits kernels raise in the device-wide status word. Plain C++
// that the host compiles too: runtime/gpu/gpu_engine.cpp includes this file to read the
// word, so the two sides cannot drift apart.
#pragma once

namespace tally {

constexpr unsigned int kStatusOk = 0;
constexpr unsigned int kStatusTableFull = 1;      // a hash table ran out of slots or probes
constexpr unsigned int kStatusKeyOutOfRange = 2;  // a direct-table key fell outside its domain
constexpr unsigned int kStatusDivisionByZero = 4;
constexpr unsigned int kStatusIntegerOverflow = 8;
constexpr unsigned int kStatusNumericOverflow = 16;  // DECIMAL beyond 38 digits or its precision
constexpr unsigned int kStatusLookupError = 32;      // a per-code value the host could not compute
constexpr unsigned int kStatusSmallintOverflow = 64;
constexpr unsigned int kStatusBigintOverflow = 128;
constexpr unsigned int kStatusDistinctFull = 256;  // the DISTINCT set ran out of entries
// Math functions outside their domain (the host raises PostgreSQL's messages).
constexpr unsigned int kStatusSqrtNegative = 512;
constexpr unsigned int kStatusLogZero = 1024;
constexpr unsigned int kStatusLogNegative = 2048;
constexpr unsigned int kStatusZeroToNegativePower = 4096;
constexpr unsigned int kStatusComplexPower = 8192;
// SKEWNESS and KURTOSIS whose result is not finite (DuckDB raises an error).
constexpr unsigned int kStatusSkewnessOutOfRange = 16384;
constexpr unsigned int kStatusKurtosisOutOfRange = 32768;
constexpr unsigned int kStatusTimestampOutOfRange = 65536;  // past 0001-01-01 ... 9999-12-31
constexpr unsigned int kStatusHugeintOverflow = 131072;     // past -2^127 ... 2^127-1
// A group whose packed sum could have wrapped (compiler/plan/count_sum_packing.h): the host
// runs the query again with the carrying layout, never a wrong answer.
constexpr unsigned int kStatusPackedSumAmbiguous = 262144;

// 32-bit words of the status buffer: the status word, then the coordination words of a
// Scan that sets its own states (LaunchSync, tally_init_in_scan.cuh). The host zeroes them.
constexpr unsigned int kStatusWords = 3;

}  // namespace tally
