#include "exec/interrupt.hpp"

#include <atomic>
#include <signal.h>

namespace icheck::exec {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "read and written inside a signal handler");

// The first signal names the interrupt: a SIGHUP after a Ctrl-C does not rename it.
extern "C" void on_interrupt(int signal) {
  int none = 0;
  g_signal.compare_exchange_strong(none, signal);
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
  action.sa_flags = SA_RESETHAND | SA_RESTART;
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

int interrupt_signal() {
  return g_signal.load();
}

void set_interrupt(int signal) {
  g_signal.store(signal);
}

}  // namespace icheck::exec
