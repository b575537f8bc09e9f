#pragma once
// A one-line progress counter ("probed 37/64 pods") for stderr, shown only on a terminal so
// that logs and pipes stay clean.

#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>

#include "exec/fanout.hpp"

namespace icheck::exec {

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

private:
  std::FILE* m_out;
  std::string m_verb;
  std::string m_noun;
  bool m_active;
  std::size_t m_width = 0;  // length of what is on screen now
  std::mutex m_mutex;
};

}  // namespace icheck::exec
