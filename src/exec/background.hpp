#pragma once
// A child that runs beside the plugin for the whole run (the kubectl proxy of stream/): its
// stdin is a pipe whose write end only this process holds, so it sees EOF when this process
// ends, however it ends (SIGKILL included); its stdout and stderr come back on one pipe.

#include "exec/child.hpp"
#include "exec/fd.hpp"
#include "util/expected.hpp"

#include <chrono>
#include <string>
#include <sys/types.h>

namespace icheck::exec {

class BackgroundChild {
public:
  BackgroundChild() = default;
  BackgroundChild(pid_t pid, UniqueFd hold, UniqueFd output)
      : m_pid(pid), m_hold(std::move(hold)), m_output(std::move(output)) {}
  BackgroundChild(BackgroundChild&&) noexcept;
  BackgroundChild& operator=(BackgroundChild&&) noexcept;
  BackgroundChild(const BackgroundChild&) = delete;
  BackgroundChild& operator=(const BackgroundChild&) = delete;
  ~BackgroundChild() { stop(); }

  pid_t pid() const { return m_pid; }
  // Read end of the child's stdout+stderr pipe (the caller reads and drains it).
  int output_fd() const { return m_output.get(); }
  UniqueFd take_output() { return std::move(m_output); }

  // Closes the held stdin (the child's cue to end), gives it `grace` to exit, then kills its
  // process group and reaps it. Idempotent.
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(2000));

private:
  pid_t m_pid = -1;
  UniqueFd m_hold;
  UniqueFd m_output;
};

// Starts spec.argv in its own process group (spec's deadline, cap and hold_stdin are not used:
// the stdin pipe is always held). not_found / other failures come back as errors.
Expected<BackgroundChild> start_background(const ChildSpec& spec);

enum class LineWait { line, ended, timed_out, interrupted };

// Reads a line from `fd` (without its newline) before `deadline`: `ended` at EOF or error;
// `interrupted` as soon as SIGINT/SIGTERM/... arrives (exec/interrupt.hpp), also while nothing
// comes; `seen` collects everything read, at most `cap` bytes.
LineWait read_line_until(int fd, std::chrono::steady_clock::time_point deadline, std::string& line,
                         std::string& seen, std::size_t cap);

}  // namespace icheck::exec
