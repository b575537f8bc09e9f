#pragma once
// Ctrl-C, SIGTERM, a closed terminal or ssh session (SIGHUP) and SIGQUIT (DESIGN.md: the tool
// leaves nothing running). plugin/ installs the handlers first thing, before any file is read
// or child started; exec/ then starts no new child, ends the process group of every running one
// (SIGTERM, SIGKILL after kKillGrace) and marks their results `interrupted`, so the pipeline
// still reports what was gathered before the signal.

#include <functional>

namespace icheck::exec {

// SIGINT, SIGTERM, SIGHUP and SIGQUIT set the interrupt (SIGHUP not when inherited ignored:
// `nohup`), and are unblocked. A second one (of any of these kinds) runs the action given to
// on_second_interrupt, else ends the process at once by that signal's default action.
void install_interrupt_handlers();

// `action(signal)` runs on a thread of its own when a second interrupt arrives; it is meant to
// say what it can (one Report) and end the process. Set once, after the handlers.
void on_second_interrupt(std::function<void(int)> action);

// While alive, the process group `pgid` (a running child's) is one kill_running_groups() ends.
class RunningGroup {
public:
  explicit RunningGroup(int pgid);
  ~RunningGroup();
  RunningGroup(const RunningGroup&) = delete;
  RunningGroup& operator=(const RunningGroup&) = delete;

private:
  int m_pgid;
};

// SIGKILL to every registered group: what a second signal does before the process ends.
void kill_running_groups();

// The signal that interrupted this run (SIGINT, SIGTERM, SIGHUP, SIGQUIT), or 0.
// Async-signal-safe.
int interrupt_signal();

// What the handler does; tests call it directly. 0 clears the interrupt (tests only).
void set_interrupt(int signal);

}  // namespace icheck::exec
