// The device library (templates/*.cuh) embedded at build time, handed to NVRTC as headers.
#pragma once

#include <string>
#include <vector>

namespace tally {

struct EmbeddedFile {
  const char* name;  // file name, e.g. "tally_hash.cuh"
  std::string text;
};

const std::vector<EmbeddedFile>& embedded_templates();

}  // namespace tally
