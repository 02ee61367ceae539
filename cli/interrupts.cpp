#include "cli/interrupts.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace tally::cli {

namespace {

// Read by the handler and by engine threads: lock-free atomics are async-signal-safe.
std::atomic<int> mode{static_cast<int>(InterruptMode::Quit)};
std::atomic<int> interrupts{0};
static_assert(std::atomic<int>::is_always_lock_free);

void say(const char* text, size_t size) { (void)!write(STDERR_FILENO, text, size); }

void on_interrupt(int) {
  int count = ++interrupts;
  switch (static_cast<InterruptMode>(mode.load())) {
    case InterruptMode::Prompt:
      return;  // the line read returns (no SA_RESTART) and the shell starts over
    case InterruptMode::Cancel:
      if (count == 1) {
        constexpr char kNote[] = "\ncancelling the statement (Ctrl-C again quits tally)\n";
        return say(kNote, sizeof kNote - 1);
      }
      break;
    case InterruptMode::Quit:
      break;
  }
  constexpr char kQuit[] = "\ninterrupted\n";
  say(kQuit, sizeof kQuit - 1);
  _exit(130);
}

bool started_ignoring() {
  static const bool ignoring = [] {
    struct sigaction old {};
    return sigaction(SIGINT, nullptr, &old) == 0 && old.sa_handler == SIG_IGN;
  }();
  return ignoring;
}

}  // namespace

void handle_interrupts(InterruptMode next) {
  interrupts = 0;
  mode = static_cast<int>(next);
  if (started_ignoring()) return;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  // At the prompt the read must return; elsewhere system calls (file writes of a database,
  // reads of a COPY) restart rather than fail with EINTR.
  action.sa_flags = next == InterruptMode::Prompt ? 0 : SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
}

bool interrupted() { return interrupts.load() > 0; }

std::function<bool()> cancel_flag() {
  return [] {
    return interrupts.load(std::memory_order_relaxed) > 0 &&
           mode.load(std::memory_order_relaxed) == static_cast<int>(InterruptMode::Cancel);
  };
}

}  // namespace tally::cli
