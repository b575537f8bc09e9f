#include "exec/fanout.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <system_error>
#include <thread>

namespace icheck::exec {
namespace {

// Shared by the workers: the next index to take and the progress count.
class Queue {
public:
  Queue(std::size_t count, const FanoutOptions& options,
        const std::function<void(std::size_t)>& task)
      : m_count(count), m_options(options), m_task(task) {}

  // A worker: take indices until none are left.
  void work() {
    for (std::size_t i = m_next++; i < m_count; i = m_next++) {
      try {
        m_task(i);
      } catch (...) {
        // Documented: a throwing task counts as finished; the others go on.
      }
      report_one_done();
    }
  }

private:
  void report_one_done() {
    std::lock_guard lock(m_progress_mutex);
    ++m_done;
    if (m_options.on_progress) {
      try {
        m_options.on_progress(m_done, m_count);
      } catch (...) {
        // Progress display is best effort.
      }
    }
  }

  const std::size_t m_count;
  const FanoutOptions& m_options;
  const std::function<void(std::size_t)>& m_task;
  std::atomic<std::size_t> m_next{0};
  std::mutex m_progress_mutex;
  std::size_t m_done = 0;
};

}  // namespace

void parallel_for(std::size_t count, const FanoutOptions& options,
                  const std::function<void(std::size_t)>& task) {
  Queue queue(count, options, task);
  const std::size_t workers = std::min(std::max<std::size_t>(options.parallel, 1), count);
  std::vector<std::thread> helpers;
  for (std::size_t i = 1; i < workers; ++i) {
    try {
      helpers.emplace_back([&queue] { queue.work(); });
    } catch (const std::system_error&) {
      break;  // no more threads to be had: go on with fewer
    }
  }
  queue.work();
  for (auto& helper : helpers) helper.join();
}

std::vector<ChildResult> run_children(const std::vector<ChildSpec>& specs,
                                      const FanoutOptions& options) {
  std::vector<ChildResult> results(specs.size());
  parallel_for(specs.size(), options, [&](std::size_t i) { results[i] = run_child(specs[i]); });
  return results;
}

}  // namespace icheck::exec
