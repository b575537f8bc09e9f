#pragma once
// Run one child process with a deadline and an output cap (DESIGN.md "Architecture": exec/).
// The child runs in its own process group so that a deadline or a cap kills it together with
// everything it started; stdout and stderr are collected separately and concurrently.

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace icheck::exec {

inline constexpr std::size_t kDefaultOutputCap = std::size_t{4} << 20;  // per stream
inline constexpr std::chrono::milliseconds kDefaultDeadline{30'000};

struct ChildSpec {
  // argv[0] is looked up on PATH unless it contains a '/'.
  std::vector<std::string> argv;
  // Set on top of the inherited environment (a name given twice: the last one wins).
  std::vector<std::pair<std::string, std::string>> extra_env;
  // Wall-clock limit from spawn; zero or negative means none.
  std::chrono::milliseconds deadline = kDefaultDeadline;
  // Bytes kept per stream; more output kills the child and sets `truncated`.
  std::size_t output_cap = kDefaultOutputCap;
  // stdin is a pipe whose write end only this process holds, never written: the child reads
  // EOF once it has ended here or this process died (then `kubectl exec -i` closes the remote
  // command's stdin). Otherwise stdin is /dev/null.
  bool hold_stdin = false;
  // The command only reads: where its exec stream broke before any byte came back (nothing
  // anyone saw ran), the exec transport runs it once more (check/pod_exec.hpp). Never for the
  // transfer test's sides.
  bool read_only = false;
};

struct ChildResult {
  int exit_code = -1;        // the child's exit status; -1 when killed by a signal or not run
  int signal = 0;            // the signal that ended the child, 0 if it exited
  bool timed_out = false;    // the deadline expired and the group was killed
  bool truncated = false;    // a stream passed output_cap and the group was killed
  bool not_found = false;    // argv[0] is not on PATH / does not exist; nothing ran
  bool interrupted = false;  // SIGINT/SIGTERM (exec/interrupt.hpp): not started, or killed
  std::string spawn_error;   // any other failure to start (or supervise) the child
  std::string out;           // stdout, at most output_cap bytes
  std::string err;           // stderr, at most output_cap bytes
  std::chrono::milliseconds elapsed{0};

  // Ran, exited 0, and nothing was cut short.
  bool ok() const {
    return !not_found && !interrupted && spawn_error.empty() && !timed_out && !truncated &&
           signal == 0 && exit_code == 0;
  }
};

// Never throws; every failure is described in the result.
ChildResult run_child(const ChildSpec& spec);

}  // namespace icheck::exec
