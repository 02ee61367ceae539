#include "runtime/compile/nvrtc.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <nvrtc.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "compiler/codegen/embedded_templates.h"
#include "compiler/common/error.h"
#include "runtime/cuda/load_once.h"

namespace tally::cuda {
namespace {

constexpr const char* kNvrtcLibraries[] = {"libnvrtc.so.13", "libnvrtc.so"};

#define TALLY_NVRTC_FUNCTIONS(X) \
  X(nvrtcVersion)                \
  X(nvrtcGetErrorString)         \
  X(nvrtcCreateProgram)          \
  X(nvrtcDestroyProgram)         \
  X(nvrtcCompileProgram)         \
  X(nvrtcGetProgramLogSize)      \
  X(nvrtcGetProgramLog)          \
  X(nvrtcGetCUBINSize)           \
  X(nvrtcGetCUBIN)               \
  X(nvrtcGetPTXSize)             \
  X(nvrtcGetPTX)

struct NvrtcApi {
#define TALLY_NVRTC_DECLARE_ENTRY(name) decltype(&::name) name = nullptr;
  TALLY_NVRTC_FUNCTIONS(TALLY_NVRTC_DECLARE_ENTRY)
#undef TALLY_NVRTC_DECLARE_ENTRY
};

void* open_nvrtc_library() {
  std::string reasons;
  for (const char* library : kNvrtcLibraries) {
    if (void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL)) return handle;
    const char* reason = dlerror();
    reasons += fmt::format("{}{}", reasons.empty() ? "" : "; ", reason ? reason : library);
  }
  throw Error(ErrorKind::Device,
              fmt::format("no NVRTC: libnvrtc.so.13 could not be loaded ({}); install the CUDA "
                          "13 toolkit's NVRTC or choose the CPU engine (device cpu)",
                          reasons));
}

NvrtcApi load_nvrtc() {
  void* library = open_nvrtc_library();  // kept open for the life of the process
  NvrtcApi api;
#define TALLY_NVRTC_RESOLVE_ENTRY(name)                                           \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(library, #name));         \
  if (api.name == nullptr) {                                                      \
    throw Error(ErrorKind::Device,                                                \
                fmt::format("the NVRTC library lacks {}; it is too old", #name)); \
  }
  TALLY_NVRTC_FUNCTIONS(TALLY_NVRTC_RESOLVE_ENTRY)
#undef TALLY_NVRTC_RESOLVE_ENTRY
  return api;
}

std::atomic<bool> loaded{false};

const NvrtcApi& nvrtc() {
  const NvrtcApi& api = load_once<NvrtcApi, load_nvrtc>();
  loaded = true;
  return api;
}

void check_nvrtc(nvrtcResult result, const char* call) {
  if (result == NVRTC_SUCCESS) return;
  throw Error(ErrorKind::Compile,
              fmt::format("{} failed: {}", call, nvrtc().nvrtcGetErrorString(result)));
}

// Owns an nvrtcProgram for the length of one compilation.
class Program {
 public:
  Program(const std::string& source, const std::string& name) {
    const auto& headers = embedded_templates();
    std::vector<const char*> texts, names;
    for (const EmbeddedFile& file : headers) {
      texts.push_back(file.text.c_str());
      names.push_back(file.name);
    }
    check_nvrtc(
        nvrtc().nvrtcCreateProgram(&program_, source.c_str(), name.c_str(),
                                   static_cast<int>(texts.size()), texts.data(), names.data()),
        "nvrtcCreateProgram");
  }
  ~Program() { nvrtc().nvrtcDestroyProgram(&program_); }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram get() const { return program_; }

 private:
  nvrtcProgram program_ = nullptr;
};

std::string program_log(nvrtcProgram program) {
  size_t size = 0;
  check_nvrtc(nvrtc().nvrtcGetProgramLogSize(program, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  check_nvrtc(nvrtc().nvrtcGetProgramLog(program, log.data()), "nvrtcGetProgramLog");
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::vector<char> program_image(nvrtcProgram program, bool ptx) {
  size_t size = 0;
  std::vector<char> image;
  if (ptx) {
    check_nvrtc(nvrtc().nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize");
    image.resize(size);
    check_nvrtc(nvrtc().nvrtcGetPTX(program, image.data()), "nvrtcGetPTX");
  } else {
    check_nvrtc(nvrtc().nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
    image.resize(size);
    check_nvrtc(nvrtc().nvrtcGetCUBIN(program, image.data()), "nvrtcGetCUBIN");
  }
  return image;
}

std::string line_of(const std::string& text, int line_number) {
  std::istringstream lines(text);
  std::string line;
  for (int i = 1; std::getline(lines, line); ++i) {
    if (i == line_number) return line;
  }
  return {};
}

// "query.cu(12): error: ..." -> the text of line 12 of the file it names (the source or
// an embedded header), so the message shows the code and not only the log.
std::string failing_line(const std::string& log, const std::string& source,
                         const std::string& name) {
  static const std::regex kErrorAt(R"(([^\s()]+)\((\d+)\): (?:catastrophic )?error)");
  std::smatch match;
  if (!std::regex_search(log, match, kErrorAt)) return {};
  const std::string file = match[1];
  const int line_number = std::stoi(match[2]);
  std::string text;
  if (file == name) {
    text = line_of(source, line_number);
  } else {
    for (const EmbeddedFile& header : embedded_templates()) {
      if (file == header.name) text = line_of(header.text, line_number);
    }
  }
  if (text.empty()) return {};
  return fmt::format("{} line {}: {}\n", file, line_number, text);
}

// $TALLY_NVRTC_OPTIONS, split at spaces: extra NVRTC options for experiments (measuring
// compile time against kernel time on a GPU) without a rebuild. They are part of the
// arguments, so the disk cache keys them too.
std::vector<std::string> environment_options() {
  std::vector<std::string> options;
  const char* text = std::getenv("TALLY_NVRTC_OPTIONS");
  if (text == nullptr) return options;
  std::istringstream words(text);
  for (std::string word; words >> word;) options.push_back(word);
  return options;
}

}  // namespace

std::vector<std::string> nvrtc_arguments(const CompileOptions& options) {
  std::vector<std::string> args = {"-arch=" + options.arch, "-std=c++17", "-default-device",
                                   "--device-int128", options.fmad ? "-fmad=true" : "-fmad=false"};
  if (options.minimal) args.push_back("-minimal");
  if (options.line_info) args.push_back("-lineinfo");
  args.insert(args.end(), options.extra.begin(), options.extra.end());
  std::vector<std::string> from_environment = environment_options();
  args.insert(args.end(), from_environment.begin(), from_environment.end());
  return args;
}

CompiledKernel compile_cuda(const std::string& source, const std::string& name,
                            const CompileOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Program program(source, name);
  const std::vector<std::string> args = nvrtc_arguments(options);
  std::vector<const char*> arg_pointers;
  for (const std::string& arg : args) arg_pointers.push_back(arg.c_str());

  const nvrtcResult result = nvrtc().nvrtcCompileProgram(
      program.get(), static_cast<int>(arg_pointers.size()), arg_pointers.data());
  CompiledKernel compiled;
  compiled.log = program_log(program.get());
  if (result != NVRTC_SUCCESS) {
    throw Error(ErrorKind::Compile,
                fmt::format("NVRTC could not compile {} ({}):\n{}{}", name,
                            nvrtc().nvrtcGetErrorString(result),
                            failing_line(compiled.log, source, name), compiled.log));
  }
  compiled.is_ptx = options.arch.starts_with("compute_");
  compiled.image = program_image(program.get(), compiled.is_ptx);
  compiled.compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return compiled;
}

int nvrtc_version() {
  int major = 0, minor = 0;
  check_nvrtc(nvrtc().nvrtcVersion(&major, &minor), "nvrtcVersion");
  return major * 1000 + minor * 10;
}

bool nvrtc_loaded() noexcept { return loaded; }

bool nvrtc_available() noexcept {
  try {
    nvrtc();
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace tally::cuda
