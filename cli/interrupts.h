// Ctrl-C (SIGINT) in the tally command. While a statement runs it cancels the statement:
// the engines and loaders stop at their next check and throw Error(Cancelled), and the
// caller goes on (the shell) or exits 130 (tally run); a second Ctrl-C before that quits at
// once. At the shell's prompt it interrupts the line being read; anywhere else it quits.
#pragma once

#include <functional>

namespace tally::cli {

enum class InterruptMode {
  Quit,    // print "interrupted" and exit 130 (generating data: nothing to keep)
  Prompt,  // interrupt the read of a line (the shell at its prompt)
  Cancel,  // cancel the running statement; a second Ctrl-C quits
};

// Installs the handler and switches it to `mode`, forgetting earlier Ctrl-Cs. A process
// started with SIGINT ignored (a background job of a script) keeps ignoring it.
void handle_interrupts(InterruptMode mode);

// Whether a Ctrl-C arrived since the last handle_interrupts().
bool interrupted();

// For ExecOptions::cancelled: true once a Ctrl-C arrived in Cancel mode. Safe to call from
// any thread.
std::function<bool()> cancel_flag();

}  // namespace tally::cli
