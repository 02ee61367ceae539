// Whether a test's captured text (an --explain, a diagnostic, generated CUDA) holds a part.
#pragma once

#include <string>

namespace tally {

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace tally
