// tally-fuzz: the grammar-aware and mutation fuzzer (issue 22). Runs a fixed-seed list of
// generated and mutated statements on the CPU engine (with a sample through the code
// generator and NVRTC), or on a GPU engine against the CPU engine (--device gpu), or
// replays saved regression files (--replay). Exits 1 on any finding, 77 when --device gpu
// finds no usable GPU (CTest: skipped), 2 on bad usage.
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "runtime/cuda/device.h"
#include "tools/fuzz/cases.h"
#include "tools/fuzz/regression.h"
#include "tools/fuzz/runner.h"

namespace {

struct Args {
  uint64_t seed = 1;
  uint64_t count = 5000;
  std::string device = "cpu";
  int compile_every = 0;
  int nvrtc_every = 20;
  double time_limit_s = 5;
  unsigned cpu_threads = 1;
  std::string regressions;
  std::string source_dir = ".";
  std::vector<std::string> corpus;
  std::vector<std::string> replay;
  bool print = false;
  bool verbose = false;
};

void add_options(CLI::App& app, Args& a) {
  app.add_option("--seed", a.seed, "Seed of the statement list");
  app.add_option("--count", a.count, "Statements to run");
  app.add_option("--device", a.device, "cpu, or gpu: each statement on both, compared")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--compile-every", a.compile_every,
                 "Every Nth statement that succeeds also goes through the code generator");
  app.add_option("--nvrtc-every", a.nvrtc_every,
                 "Every Nth code-generated statement also goes through NVRTC for sm_90");
  app.add_option("--time-limit-s", a.time_limit_s, "A statement running longer is a hang");
  app.add_option("--cpu-threads", a.cpu_threads, "CPU engine threads per query");
  app.add_option("--regressions", a.regressions, "Directory to keep findings in (.sql files)");
  app.add_option("--source-dir", a.source_dir,
                 "tally's source tree: the default corpus and the contexts of regression files");
  app.add_option("--corpus", a.corpus,
                 "Files or directories of .test/.sql files to mutate "
                 "(default: SOURCE/tests/sql SOURCE/queries)");
  app.add_option("--replay", a.replay, "Run these regression files (or directories of them)");
  app.add_flag("--print", a.print, "Print the statements instead of running them");
  app.add_flag("--verbose", a.verbose, "Print each statement's outcome");
}

std::vector<tally::fuzz::FuzzCase> cases_for(const Args& a) {
  using namespace tally::fuzz;
  if (!a.replay.empty()) return read_regressions(a.replay);
  std::vector<std::string> corpus = a.corpus;
  if (corpus.empty()) corpus = {a.source_dir + "/tests/sql", a.source_dir + "/queries"};
  return make_cases(a.seed, a.count, load_corpus(corpus, a.source_dir));
}

// Asked in a child process: CUDA initialised in this one would be unusable in the
// children the runner forks.
bool gpu_usable() {
  pid_t pid = fork();
  if (pid == 0) {
    auto why = tally::cuda::why_gpu_unusable();
    if (why) std::cerr << "tally-fuzz: skipped: --device gpu needs a usable GPU: " << *why << "\n";
    std::cerr.flush();
    _exit(why ? 1 : 0);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

int run(const Args& a) {
  using namespace tally::fuzz;
  if (a.device == "gpu" && !a.print && !gpu_usable()) return 77;
  // NVRTC samples must compile, not load earlier binaries, and leave no files behind.
  setenv("TALLY_CACHE_DISABLE", "1", 0);
  std::vector<FuzzCase> cases = cases_for(a);
  if (a.print) {
    for (const auto& c : cases) std::cout << c.sql << ";\n";
    return 0;
  }
  RunnerOptions options;
  options.executor.gpu = a.device == "gpu";
  options.executor.compile_every = a.compile_every;
  options.executor.nvrtc_every = a.nvrtc_every;
  options.executor.cpu_threads = a.cpu_threads;
  options.executor.source_dir = a.source_dir;
  options.executor.verbose = a.verbose;
  options.time_limit_s = a.time_limit_s;
  options.regressions_dir = a.regressions;
  options.seed = a.seed;
  RunTotals totals = run_cases(cases, options);
  std::cerr << summary(totals) << "\n";
  return totals.counts[kFindings] == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tally-fuzz: a grammar-aware and mutation fuzzer of tally's SQL"};
  Args args;
  add_options(app, args);
  CLI11_PARSE(app, argc, argv);
  try {
    return run(args);
  } catch (const std::exception& e) {
    std::cerr << "tally-fuzz: " << e.what() << "\n";
    return 2;
  }
}
