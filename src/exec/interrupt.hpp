#pragma once
// Ctrl-C, SIGTERM, a closed terminal or ssh session (SIGHUP) and SIGQUIT (DESIGN.md: the tool
// leaves nothing running). plugin/ installs the handlers first thing, before any file is read
// or child started; exec/ then starts no new child, ends the process group of every running one
// (SIGTERM, SIGKILL after kKillGrace) and marks their results `interrupted`, so the pipeline
// still reports what was gathered before the signal.

namespace icheck::exec {

// SIGINT, SIGTERM, SIGHUP and SIGQUIT set the interrupt (SIGHUP not when inherited ignored:
// `nohup`), and are unblocked; a second one of the same kind ends the process at once (the
// default action comes back after the first).
void install_interrupt_handlers();

// The signal that interrupted this run (SIGINT, SIGTERM, SIGHUP, SIGQUIT), or 0.
// Async-signal-safe.
int interrupt_signal();

// What the handler does; tests call it directly. 0 clears the interrupt (tests only).
void set_interrupt(int signal);

} // namespace icheck::exec
