#include "exec/background.hpp"

#include "exec/interrupt.hpp"
#include "exec/spawn.hpp"

#include <algorithm>
#include <cerrno>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace icheck::exec {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kInterruptSlice{20};

// Exited, but not reaped: while it is a zombie its process group id cannot be reused.
bool exited(pid_t pid) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    return errno == ECHILD;
  return info.si_pid == pid;
}

}  // namespace

BackgroundChild::BackgroundChild(BackgroundChild&& other) noexcept
    : m_pid(std::exchange(other.m_pid, -1)), m_hold(std::move(other.m_hold)),
      m_output(std::move(other.m_output)) {}

BackgroundChild& BackgroundChild::operator=(BackgroundChild&& other) noexcept {
  if (this != &other) {
    stop();
    m_pid = std::exchange(other.m_pid, -1);
    m_hold = std::move(other.m_hold);
    m_output = std::move(other.m_output);
  }
  return *this;
}

void BackgroundChild::stop(std::chrono::milliseconds grace) {
  m_hold.reset();
  if (m_pid <= 0)
    return;
  const auto until = Clock::now() + grace;
  while (!exited(m_pid) && Clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  // Whatever the group still runs (a credential helper kubectl started) goes with it.
  ::kill(-m_pid, SIGKILL);
  ::waitpid(m_pid, nullptr, 0);
  m_pid = -1;
  m_output.reset();
}

Expected<BackgroundChild> start_background(const ChildSpec& spec) {
  auto in = make_pipe();
  if (!in)
    return in.error();
  auto out = make_pipe();
  if (!out)
    return out.error();
  Spawned spawned =
      spawn_in_own_group(spec, StdFds{in->read.get(), out->write.get(), out->write.get()});
  if (spawned.status == SpawnStatus::not_found)
    return Error{spec.argv.front() + ": not found"};
  if (spawned.status != SpawnStatus::started)
    return Error{spawned.error};
  // Boost's child would kill the process when destroyed: from here on it is ours to reap.
  const pid_t pid = spawned.child.id();
  spawned.child.detach();
  return BackgroundChild(pid, std::move(in->write), std::move(out->read));
}

LineWait read_line_until(int fd, Clock::time_point deadline, std::string& line, std::string& seen,
                         std::size_t cap) {
  std::string pending;
  while (true) {
    if (interrupt_signal() != 0)
      return LineWait::interrupted;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0)
      return LineWait::timed_out;
    pollfd p{fd, POLLIN, 0};
    // In slices: a signal's handler only sets a flag, and poll() may not see it happen.
    const int n = ::poll(&p, 1, static_cast<int>(std::min(left, kInterruptSlice).count()));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return LineWait::ended;
    if (n == 0)
      continue;
    char c = 0;
    const ssize_t got = ::read(fd, &c, 1);  // one byte: nothing past the line is taken
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return LineWait::ended;
    if (seen.size() < cap)
      seen += c;
    if (c == '\n') {
      line = pending;
      return LineWait::line;
    }
    if (pending.size() < cap)
      pending += c;
  }
}

}  // namespace icheck::exec
