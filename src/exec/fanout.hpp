#pragma once
// Bounded parallel fan-out: one child per pod, at most `parallel` at a time, results in the
// order the jobs were given, one failed job never stopping the others.

#include <cstddef>
#include <functional>
#include <vector>

#include "exec/child.hpp"

namespace icheck::exec {

inline constexpr std::size_t kDefaultParallel = 16;

// Called after each finished job with the count finished so far; never from two threads at
// once, and `done` only grows.
using ProgressFn = std::function<void(std::size_t done, std::size_t total)>;

struct FanoutOptions {
  std::size_t parallel = kDefaultParallel;  // 0 is taken as 1
  ProgressFn on_progress;                   // optional
};

// Runs task(0) .. task(count - 1) on up to `parallel` threads, the caller's included, and
// returns when all have finished. A task that throws counts as finished; the exception is
// dropped, so tasks should record their own failures.
void parallel_for(std::size_t count, const FanoutOptions& options,
                  const std::function<void(std::size_t index)>& task);

// run_child for every spec; result i belongs to specs[i].
std::vector<ChildResult> run_children(const std::vector<ChildSpec>& specs,
                                      const FanoutOptions& options = {});

}  // namespace icheck::exec
