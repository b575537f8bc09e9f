#include "exec/interrupt.hpp"

#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <mutex>
#include <set>
#include <signal.h>
#include <thread>
#include <unistd.h>

namespace icheck::exec {
namespace {

std::atomic<int> g_signal{0};
std::atomic<int> g_second_fd{-1};  // write end of the pipe the second-signal thread reads
// Process groups of the running children (their leaders unreaped: the ids cannot be reused).
std::mutex g_groups_mutex;
std::set<int> g_groups;
static_assert(std::atomic<int>::is_always_lock_free, "read and written inside a signal handler");

// The first signal names the interrupt: a SIGHUP after a Ctrl-C does not rename it. A second
// one goes to the second-signal thread, or (none set) ends the process as it would by default.
extern "C" void on_interrupt(int signal) {
  int none = 0;
  if (g_signal.compare_exchange_strong(none, signal))
    return;
  const int saved = errno;
  const int fd = g_second_fd.load();
  const auto byte = static_cast<unsigned char>(signal);
  if (fd < 0 || ::write(fd, &byte, 1) != 1) {
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    ::sigaction(signal, &fallback, nullptr);
    ::raise(signal);
  }
  errno = saved;
}

// `nohup` leaves SIGHUP ignored on purpose: the run is meant to outlive the terminal.
bool ignored_on_purpose(int signal) {
  struct sigaction current {};
  return signal == SIGHUP && ::sigaction(signal, nullptr, &current) == 0 &&
         current.sa_handler == SIG_IGN;
}

void install(int signal) {
  if (ignored_on_purpose(signal))
    return;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(signal, &action, nullptr);
}

}  // namespace

void install_interrupt_handlers() {
  sigset_t interrupts;
  sigemptyset(&interrupts);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    install(signal);
    sigaddset(&interrupts, signal);
  }
  // A parent may hand them over blocked (some CI runners and supervisors do): the run would not
  // stop; one already pending arrives now, before any child exists.
  ::sigprocmask(SIG_UNBLOCK, &interrupts, nullptr);
}

void on_second_interrupt(std::function<void(int)> action) {
  int fds[2];
  if (g_second_fd.load() >= 0 || ::pipe2(fds, O_CLOEXEC) != 0)
    return;
  std::thread([read_end = fds[0], action = std::move(action)] {
    unsigned char byte = 0;
    ssize_t n = 0;
    while ((n = ::read(read_end, &byte, 1)) < 0 && errno == EINTR) {
    }
    if (n == 1)
      action(byte);
  }).detach();
  g_second_fd.store(fds[1]);
}

RunningGroup::RunningGroup(int pgid) : m_pgid(pgid) {
  std::lock_guard lock(g_groups_mutex);
  g_groups.insert(m_pgid);
}

RunningGroup::~RunningGroup() {
  std::lock_guard lock(g_groups_mutex);
  g_groups.erase(m_pgid);
}

void kill_running_groups() {
  std::lock_guard lock(g_groups_mutex);
  for (const int pgid : g_groups)
    ::kill(-pgid, SIGKILL);
}

int interrupt_signal() {
  return g_signal.load();
}

void set_interrupt(int signal) {
  g_signal.store(signal);
}

}  // namespace icheck::exec
