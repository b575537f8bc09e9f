#include "exec/child.hpp"
#include "exec/fanout.hpp"
#include "exec/interrupt.hpp"

#include <chrono>
#include <doctest/doctest.h>
#include <signal.h>
#include <thread>

using namespace std::chrono_literals;
using icheck::exec::ChildSpec;
using icheck::exec::run_child;
using icheck::exec::set_interrupt;

namespace {

// The interrupt is process-wide: each test clears it on the way out.
struct ClearInterrupt {
  ~ClearInterrupt() { set_interrupt(0); }
};

ChildSpec sh(const char* script) {
  ChildSpec spec;
  spec.argv = {"sh", "-c", script};
  return spec;
}

} // namespace

TEST_CASE("once interrupted, no child is started") {
  ClearInterrupt clear;
  set_interrupt(SIGINT);
  const auto r = run_child(sh("echo started"));
  CHECK(r.interrupted);
  CHECK_FALSE(r.ok());
  CHECK(r.out.empty());
  CHECK_FALSE(r.not_found);
  CHECK(r.spawn_error.empty());
}

TEST_CASE("an interrupt ends a running child's whole group, TERM-deaf ones too") {
  ClearInterrupt clear;
  std::thread signaller([] {
    std::this_thread::sleep_for(300ms);
    set_interrupt(SIGTERM);
  });
  const auto r = run_child(sh("trap '' TERM; sleep 30 & echo up; wait"));
  signaller.join();
  CHECK(r.interrupted);
  CHECK(r.out == "up\n");
  CHECK(r.signal == SIGKILL);
  CHECK(r.elapsed < 5s);
}

TEST_CASE("an interrupt during a fan-out leaves the later children unstarted") {
  ClearInterrupt clear;
  std::vector<ChildSpec> specs(4, sh("sleep 30"));
  std::thread signaller([] {
    std::this_thread::sleep_for(300ms);
    set_interrupt(SIGINT);
  });
  const auto results = icheck::exec::run_children(specs, {1, {}});
  signaller.join();
  for (const auto& r : results) {
    CHECK(r.interrupted);
    CHECK(r.elapsed < 5s);
  }
}
