// The statements of one fuzz run: for a seed and a count, a fixed list mixing generated
// statements (tools/fuzz/generator.h), mutated generated ones, and mutated corpus
// statements (tools/fuzz/mutator.h), each with the context whose tables it reads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/fuzz/corpus.h"

namespace tally::fuzz {

struct FuzzCase {
  std::string sql;
  Context context;
  std::string origin;  // "generated", "mutated generated", "mutated <file>.test:12"
};

// Case `index` depends on (seed, index) and the corpus only: the same list on every run.
std::vector<FuzzCase> make_cases(uint64_t seed, uint64_t count,
                                 const std::vector<CorpusEntry>& corpus);

}  // namespace tally::fuzz
