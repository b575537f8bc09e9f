#pragma once
// A one-line progress counter ("probed 37/64 pods") for stderr, shown only on a terminal so
// that logs and pipes stay clean. Given the jobs' names, it says which are still waited on
// ("waiting for 3 of 16 pods: vllm-decode-2, vllm-decode-5, ..."); with a clock, how long the
// wait has lasted against the most it may last ("12s of 30s · waiting for ..."), every second.

#include "exec/fanout.hpp"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace icheck::exec {

// "12s of 30s · ": `elapsed` in whole seconds against `bound`.
std::string clock_text(std::chrono::milliseconds elapsed, std::chrono::milliseconds bound);

// "waiting for 3 of 16 pods: a, b, ..." within `width` columns (names made terminal-safe; as
// many whole names as fit, then "..."); "" when nothing is waited on.
std::string waiting_line(const std::vector<std::string>& waiting, std::size_t total,
                         const std::string& noun, std::size_t width);

class ProgressLine {
public:
  // Active only when `out` is a terminal.
  explicit ProgressLine(std::FILE* out, std::string verb = "probed", std::string noun = "pods");
  // Active as told (tests, or a caller that decided itself).
  ProgressLine(std::FILE* out, std::string verb, std::string noun, bool active);
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine();  // clears the line

  bool active() const { return m_active; }
  // Rewrites the line in place: "\rprobed 37/64 pods".
  void update(std::size_t done, std::size_t total);
  // Blanks the line and returns the cursor to its start; later updates draw it again.
  void clear();
  // For FanoutOptions::on_progress; the ProgressLine must outlive the fan-out.
  ProgressFn callback();

  // Job i is names[i]: from now on the line names the jobs not yet finished, within `width`
  // columns (0: the terminal's width, else 80). Draws the line at once.
  void name_jobs(std::vector<std::string> names, std::size_t width = 0);
  // Job i has finished (call before the fan-out reports it done).
  void finished(std::size_t index);
  // From now on the named-jobs line starts with clock_text(time since now, bound), redrawn
  // each second until clear(). `bound`: the most the whole wait may take.
  void start_clock(std::chrono::milliseconds bound);

private:
  void draw(const std::string& text);  // m_mutex held
  std::string waiting_text() const;    // m_mutex held
  void tick(std::stop_token stop);     // the clock's thread
  void stop_clock();

  std::FILE* m_out;
  std::string m_verb;
  std::string m_noun;
  bool m_active;
  std::size_t m_width = 0;  // length of what is on screen now
  std::vector<std::string> m_names;
  std::vector<bool> m_finished;
  std::size_t m_columns = 80;
  std::optional<std::chrono::steady_clock::time_point> m_started;
  std::chrono::milliseconds m_bound{0};
  std::mutex m_mutex;
  std::condition_variable_any m_tick;
  std::jthread m_ticker;  // last: stopped before the members it reads go
};

}  // namespace icheck::exec
