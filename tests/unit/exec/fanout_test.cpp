#include "exec/fanout.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

#include "exec/local.hpp"

using namespace std::chrono_literals;
using icheck::exec::ChildSpec;
using icheck::exec::FanoutOptions;
using icheck::exec::local_spec;
using icheck::exec::parallel_for;
using icheck::exec::run_children;

TEST_CASE("fan-out runs jobs concurrently, bounded by parallel") {
  std::vector<ChildSpec> specs(32, local_spec("sleep 0.2"));
  FanoutOptions options;
  options.parallel = 16;
  const auto start = std::chrono::steady_clock::now();
  const auto results = run_children(specs, options);
  const auto wall = std::chrono::steady_clock::now() - start;
  REQUIRE(results.size() == 32);
  for (const auto& r : results) CHECK(r.ok());
  // Sanity only (timings belong in bench/): serial would be 6.4 s, two rounds 0.4 s.
  CHECK(wall < 3s);
}

TEST_CASE("fan-out never exceeds parallel") {
  std::atomic<int> running{0};
  std::atomic<int> peak{0};
  FanoutOptions options;
  options.parallel = 4;
  parallel_for(40, options, [&](std::size_t) {
    const int now = ++running;
    int seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(5ms);
    --running;
  });
  CHECK(peak.load() <= 4);
  CHECK(peak.load() >= 2);
}

TEST_CASE("results keep the order of the jobs, past a failing job") {
  std::vector<ChildSpec> specs;
  for (int i = 0; i < 20; ++i) {
    // Later jobs finish first, so completion order is the reverse of job order.
    const std::string delay = "0.0" + std::to_string(9 - i / 3);
    specs.push_back(local_spec("sleep " + delay + "; echo " + std::to_string(i)));
  }
  specs[10] = local_spec("echo failing >&2; exit 7");
  specs[11].argv = {"icheck-no-such-program-xyz"};
  FanoutOptions options;
  options.parallel = 8;
  const auto results = run_children(specs, options);
  REQUIRE(results.size() == 20);
  for (int i = 0; i < 20; ++i) {
    CAPTURE(i);
    if (i == 10) {
      CHECK(results[i].exit_code == 7);
      CHECK(results[i].err == "failing\n");
    } else if (i == 11) {
      CHECK(results[i].not_found);
    } else {
      CHECK(results[i].ok());
      CHECK(results[i].out == std::to_string(i) + "\n");
    }
  }
}

TEST_CASE("progress is reported once per job, in order, from one thread at a time") {
  std::vector<std::size_t> seen;
  std::atomic<int> inside{0};
  bool overlapped = false;
  FanoutOptions options;
  options.parallel = 8;
  options.on_progress = [&](std::size_t done, std::size_t total) {
    if (++inside > 1) overlapped = true;
    CHECK(total == 50);
    seen.push_back(done);
    std::this_thread::sleep_for(1ms);
    --inside;
  };
  parallel_for(50, options, [](std::size_t) { std::this_thread::sleep_for(2ms); });
  CHECK_FALSE(overlapped);
  REQUIRE(seen.size() == 50);
  for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == i + 1);
}

TEST_CASE("a throwing task does not stop the others") {
  std::atomic<int> ran{0};
  std::size_t last_done = 0;
  FanoutOptions options;
  options.parallel = 3;
  options.on_progress = [&](std::size_t done, std::size_t) { last_done = done; };
  parallel_for(10, options, [&](std::size_t i) {
    ++ran;
    if (i == 4) throw std::runtime_error("boom");
  });
  CHECK(ran.load() == 10);
  CHECK(last_done == 10);
}

TEST_CASE("edge sizes: no jobs, parallel 0, more workers than jobs") {
  CHECK(run_children({}).empty());
  std::atomic<int> ran{0};
  FanoutOptions options;
  options.parallel = 0;
  parallel_for(5, options, [&](std::size_t) { ++ran; });
  CHECK(ran.load() == 5);
  options.parallel = 64;
  parallel_for(2, options, [&](std::size_t) { ++ran; });
  CHECK(ran.load() == 7);
}

namespace {

std::size_t open_fd_count() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd"))
    ++n;
  return n;
}

}  // namespace

TEST_CASE("a mixed fan-out leaks no descriptors and keeps each outcome apart") {
  std::vector<ChildSpec> specs;
  for (int i = 0; i < 12; ++i) {
    specs.push_back(local_spec("echo " + std::to_string(i)));
    specs.push_back(local_spec("sleep 30", 300ms));
    specs.push_back(local_spec("head -c 200000 /dev/zero", 5s, 1000));
  }
  const std::size_t before = open_fd_count();
  FanoutOptions options;
  options.parallel = 16;
  const auto results = run_children(specs, options);
  CHECK(open_fd_count() == before);
  for (int i = 0; i < 12; ++i) {
    CAPTURE(i);
    CHECK(results[3 * i].out == std::to_string(i) + "\n");
    CHECK(results[3 * i + 1].timed_out);
    CHECK(results[3 * i + 1].elapsed <
          10s);  // its sleep 30 did not run out: a hang bound, not a speed figure
    CHECK(results[3 * i + 2].truncated);
    CHECK_FALSE(results[3 * i + 2].timed_out);
  }
}
