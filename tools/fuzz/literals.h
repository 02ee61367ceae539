// SQL literals for the fuzzer: ordinary ones, and the edges where parsers, constant
// folding and the engines' arithmetic break (0, -1, 2^31-1, 2^63-1, -2^63, 39-digit
// DECIMALs, 1e308, '', long and non-ASCII strings, year 0 and 9999, NULL).
#pragma once

#include <string>

#include "tools/fuzz/rng.h"
#include "tools/fuzz/schema.h"

namespace tally::fuzz {

// A literal of class `cls`: an edge value about one time in three, else an ordinary one.
std::string literal(Rng& rng, Cls cls);

// An edge literal of any class (the mutator's literal replacement).
std::string edge_literal(Rng& rng);

}  // namespace tally::fuzz
