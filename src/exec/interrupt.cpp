#include "exec/interrupt.hpp"

#include <atomic>
#include <signal.h>

namespace icheck::exec {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "read and written inside a signal handler");

extern "C" void on_interrupt(int signal) {
  g_signal.store(signal);
}

void install(int signal) {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  ::sigaction(signal, &action, nullptr);
}

} // namespace

void install_interrupt_handlers() {
  install(SIGINT);
  install(SIGTERM);
}

int interrupt_signal() {
  return g_signal.load();
}

void set_interrupt(int signal) {
  g_signal.store(signal);
}

} // namespace icheck::exec
