// Fan-out overhead: wall time for N children of `sleep 0.2` at --parallel 16 against the
// ideal ceil(N/16) x 200 ms. Prints figures; asserts nothing.
//   bench_exec_fanout [parallel] [sleep_ms] [N...]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "exec/fanout.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double run_once(std::size_t jobs, std::size_t parallel, long sleep_ms, std::size_t& failures) {
  icheck::exec::ChildSpec spec;
  spec.argv = {"sleep", std::to_string(sleep_ms / 1000.0)};
  const std::vector<icheck::exec::ChildSpec> specs(jobs, spec);
  icheck::exec::FanoutOptions options;
  options.parallel = parallel;
  const auto start = Clock::now();
  const auto results = icheck::exec::run_children(specs, options);
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  failures = 0;
  for (const auto& r : results) failures += r.ok() ? 0 : 1;
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t parallel = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 16;
  const long sleep_ms = argc > 2 ? std::strtol(argv[2], nullptr, 10) : 200;
  std::vector<std::size_t> sizes;
  for (int i = 3; i < argc; ++i) sizes.push_back(std::strtoul(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {32, 128};

  constexpr int kRepeats = 3;
  std::printf("%6s %9s %9s %9s %9s %9s %8s\n", "jobs", "parallel", "ideal_ms", "best_ms",
              "worst_ms", "over_ms", "failed");
  for (const std::size_t jobs : sizes) {
    const double ideal = static_cast<double>((jobs + parallel - 1) / parallel * sleep_ms);
    double best = 1e18, worst = 0;
    std::size_t failed = 0;
    for (int r = 0; r < kRepeats; ++r) {
      std::size_t failures = 0;
      const double ms = run_once(jobs, parallel, sleep_ms, failures);
      best = std::min(best, ms);
      worst = std::max(worst, ms);
      failed += failures;
    }
    std::printf("%6zu %9zu %9.0f %9.1f %9.1f %9.1f %8zu\n", jobs, parallel, ideal, best, worst,
                best - ideal, failed);
  }
  return 0;
}
