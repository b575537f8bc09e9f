#include "exec/background.hpp"
#include "exec/interrupt.hpp"

#include <chrono>
#include <doctest/doctest.h>
#include <signal.h>
#include <thread>

using namespace std::chrono_literals;
using icheck::exec::LineWait;
using Clock = std::chrono::steady_clock;

namespace {

struct ClearInterrupt {
  ~ClearInterrupt() { icheck::exec::set_interrupt(0); }
};

icheck::exec::BackgroundChild started(const char* script) {
  icheck::exec::ChildSpec spec;
  spec.argv = {"sh", "-c", script};
  auto child = icheck::exec::start_background(spec);
  REQUIRE(child.has_value());
  return std::move(*child);
}

}  // namespace

TEST_CASE("a background child's lines, its end, and a wait that runs out are told apart") {
  auto child = started("echo one; echo two; exit 0");
  std::string line, seen;
  const auto until = Clock::now() + 30s;
  CHECK(icheck::exec::read_line_until(child.output_fd(), until, line, seen, 1024) ==
        LineWait::line);
  CHECK(line == "one");
  CHECK(icheck::exec::read_line_until(child.output_fd(), until, line, seen, 1024) ==
        LineWait::line);
  CHECK(line == "two");
  CHECK(icheck::exec::read_line_until(child.output_fd(), until, line, seen, 1024) ==
        LineWait::ended);
  CHECK(seen == "one\ntwo\n");

  auto silent = started("exec sleep 30");
  CHECK(icheck::exec::read_line_until(silent.output_fd(), Clock::now() + 200ms, line, seen, 1024) ==
        LineWait::timed_out);
  silent.stop(0ms);
}

TEST_CASE("a signal ends the wait for a silent child's line before its deadline") {
  ClearInterrupt clear;
  auto silent = started("exec sleep 30");
  std::thread signaller([] {
    std::this_thread::sleep_for(200ms);
    icheck::exec::set_interrupt(SIGINT);
  });
  std::string line, seen;
  const auto got =
      icheck::exec::read_line_until(silent.output_fd(), Clock::now() + 60s, line, seen, 1024);
  signaller.join();
  CHECK(got == LineWait::interrupted);  // the 60 s deadline would say timed_out
  silent.stop(0ms);
}

TEST_CASE("a line longer than the cap is kept to the cap") {
  auto child = started("head -c 5000 /dev/zero | tr '\\0' x; echo");
  std::string line, seen;
  CHECK(icheck::exec::read_line_until(child.output_fd(), Clock::now() + 30s, line, seen, 100) ==
        LineWait::line);
  CHECK(line.size() == 100);
  CHECK(seen.size() == 100);
}
