#include "tools/fuzz/runner.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <new>
#include <thread>

#include "tally/error.h"
#include "tools/fuzz/regression.h"

namespace tally::fuzz {

namespace {

constexpr int kHangExit = 86;   // the watchdog's exit status: a case passed the time limit
constexpr int kSetupExit = 87;  // a context's tables could not be built: the run cannot go on

// Memory shared by the parent and its children (MAP_SHARED): what the running child is
// doing survives the child.
struct Shared {
  Counters counters;
  std::atomic<uint64_t> current;    // index of the case being run
  std::atomic<int64_t> started_ns;  // when it started (steady clock); 0 between cases
  std::atomic<int64_t> limit_ns;    // how long it may run
};

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void report(const FuzzCase& c, uint64_t index, const std::string& what,
            const RunnerOptions& options) {
  std::string file = options.regressions_dir.empty()
                         ? ""
                         : write_regression(options.regressions_dir, c, what, options.seed, index);
  std::cerr << fmt::format("tally-fuzz: FINDING at #{} ({}): {}{}\n", index, c.origin, what,
                           file.empty() ? "" : " -> " + file);
}

// The watchdog: a case running past the limit ends the child with kHangExit at once (the
// case's thread may hold locks or spin; nothing short of _exit is sure to stop it).
void watch(Shared* shared) {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    int64_t started = shared->started_ns.load();
    if (started != 0 && now_ns() - started > shared->limit_ns.load()) _exit(kHangExit);
  }
}

int64_t to_ns(double seconds) { return static_cast<int64_t>(seconds * 1e9); }

[[noreturn]] void child_main(const std::vector<FuzzCase>& cases, uint64_t begin,
                             const RunnerOptions& options, Shared* shared) {
  std::thread(watch, shared).detach();
  ExecutorOptions executor_options = options.executor;
  executor_options.before_nvrtc = [&] { shared->limit_ns.store(to_ns(options.nvrtc_limit_s)); };
  try {
    Executor executor(executor_options);
    for (uint64_t i = begin; i < cases.size(); ++i) {
      shared->current.store(i);
      shared->limit_ns.store(to_ns(options.time_limit_s));
      shared->started_ns.store(now_ns());
      std::optional<std::string> finding = executor.run(cases[i], i, shared->counters);
      shared->started_ns.store(0);
      if (finding) {
        shared->counters.add(kFindings);
        report(cases[i], i, *finding, options);
      }
    }
  } catch (const std::exception& e) {
    // Statements' own exceptions are judged inside run(); this is the setup of a context.
    std::cerr << "tally-fuzz: cannot build the tables of a context: " << e.what() << "\n";
    std::cerr.flush();
    _exit(kSetupExit);
  }
  std::cerr.flush();
  _exit(0);  // the engines' destructors are not what this run checks
}

// What ended a child that did not finish, in words.
std::string death(int status, double limit_s) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    return fmt::format("crash (signal {}: {})", sig, strsignal(sig));
  }
  if (WEXITSTATUS(status) == kHangExit) return fmt::format("hang (over {} s)", limit_s);
  return fmt::format("exit (status {} without a finding)", WEXITSTATUS(status));
}

// Waits for the child; kills it should its own watchdog fail to end a hang.
int wait_child(pid_t pid, Shared* shared) {
  for (;;) {
    int status = 0;
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0) throw Error(ErrorKind::Internal, "waitpid failed");
    int64_t started = shared->started_ns.load();
    if (started != 0 && now_ns() - started > shared->limit_ns.load() + to_ns(10))
      kill(pid, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

RunTotals run_cases(const std::vector<FuzzCase>& cases, const RunnerOptions& options) {
  auto start = std::chrono::steady_clock::now();
  void* memory =
      mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw Error(ErrorKind::Io, "mmap of the shared state failed");
  Shared* shared = new (memory) Shared{};
  uint64_t next = 0;
  while (next < cases.size()) {
    shared->current.store(next);
    shared->started_ns.store(0);
    std::cerr.flush();
    pid_t pid = fork();
    if (pid < 0) throw Error(ErrorKind::Io, "fork failed");
    if (pid == 0) child_main(cases, next, options, shared);
    int status = wait_child(pid, shared);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
    if (WIFEXITED(status) && WEXITSTATUS(status) == kSetupExit)
      throw Error(ErrorKind::Internal, "the fuzz run stopped: its tables could not be built");
    uint64_t at = shared->current.load();
    shared->counters.add(kFindings);
    report(cases[at], at, death(status, static_cast<double>(shared->limit_ns.load()) / 1e9),
           options);
    next = at + 1;
  }
  RunTotals totals;
  totals.cases = cases.size();
  for (int k = 0; k < kCounterCount; ++k) totals.counts[k] = shared->counters.get(k);
  totals.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  munmap(memory, sizeof(Shared));
  return totals;
}

std::string summary(const RunTotals& t) {
  std::string errors;
  for (int k = 0; k <= static_cast<int>(ErrorKind::Internal); ++k) {
    uint64_t n = t.counts[kErrorSyntax + k];
    if (n > 0)
      errors += fmt::format("{}{} {}", errors.empty() ? "" : ", ",
                            error_kind_name(static_cast<ErrorKind>(k)), n);
  }
  return fmt::format(
      "tally-fuzz: {} statements in {:.1f} s: {} ok; errors: {}; codegen {}, NVRTC {} "
      "({} unsupported); GPU compared {}, GPU unsupported {}; findings {}",
      t.cases, t.seconds, t.counts[kOk], errors.empty() ? "none" : errors, t.counts[kCodegen],
      t.counts[kNvrtc], t.counts[kCodegenUnsupported], t.counts[kGpuCompared],
      t.counts[kGpuUnsupported], t.counts[kFindings]);
}

}  // namespace tally::fuzz
