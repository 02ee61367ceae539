// The mutation fuzzer: token-level edits of real statements (the corpus, tools/fuzz/corpus.h)
// that keep them close enough to valid SQL to reach the binder and the engines: deletion,
// duplication, swaps, inserted keywords and operators, literals replaced by edge values,
// truncation, deep parentheses, and a few random bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/fuzz/rng.h"

namespace tally::fuzz {

// SQL text split into tokens: words, numbers, quoted strings and identifiers, comments,
// operators (two-character ones whole) and runs of whitespace. Joining the tokens gives
// the text back byte for byte.
std::vector<std::string> tokenize(std::string_view sql);

// One to three random edits of `sql`.
std::string mutate(Rng& rng, std::string_view sql);

}  // namespace tally::fuzz
