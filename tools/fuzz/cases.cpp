#include "tools/fuzz/cases.h"

#include "tools/fuzz/generator.h"
#include "tools/fuzz/mutator.h"
#include "tools/fuzz/rng.h"

namespace tally::fuzz {

namespace {

std::string origin_of(const Context& context) {
  if (context.file.empty()) return "mutated queries/";
  return "mutated " + context.file + ":" + std::to_string(context.line);
}

}  // namespace

std::vector<FuzzCase> make_cases(uint64_t seed, uint64_t count,
                                 const std::vector<CorpusEntry>& corpus) {
  std::vector<FuzzCase> cases;
  cases.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    Rng rng(seed ^ (i * 0xd6e8feb86659fd93ULL) ^ 0x5851f42d4c957f2dULL);
    uint64_t kind = rng.below(100);
    if (kind < 50 || corpus.empty()) {
      cases.push_back({generate_statement(seed, i), Context{}, "generated"});
    } else if (kind < 60) {
      cases.push_back({mutate(rng, generate_statement(seed, i)), Context{}, "mutated generated"});
    } else {
      const CorpusEntry& entry = rng.pick(corpus);
      cases.push_back({mutate(rng, entry.sql), entry.context, origin_of(entry.context)});
    }
  }
  return cases;
}

}  // namespace tally::fuzz
