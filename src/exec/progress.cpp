#include "exec/progress.hpp"

#include <unistd.h>

#include <utility>

namespace icheck::exec {

ProgressLine::ProgressLine(std::FILE* out, std::string verb, std::string noun)
    : ProgressLine(out, std::move(verb), std::move(noun),
                   out != nullptr && ::isatty(::fileno(out)) == 1) {}

ProgressLine::ProgressLine(std::FILE* out, std::string verb, std::string noun, bool active)
    : m_out(out), m_verb(std::move(verb)), m_noun(std::move(noun)), m_active(active && out) {}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::update(std::size_t done, std::size_t total) {
  if (!m_active) return;
  std::lock_guard lock(m_mutex);
  const std::string text = m_verb + " " + std::to_string(done) + "/" + std::to_string(total) +
                           " " + m_noun;
  // Pad over a longer previous line so no stale characters remain.
  const std::size_t pad = m_width > text.size() ? m_width - text.size() : 0;
  std::fprintf(m_out, "\r%s%*s", text.c_str(), static_cast<int>(pad), "");
  std::fflush(m_out);
  m_width = text.size() + pad;
}

void ProgressLine::clear() {
  if (!m_active) return;
  std::lock_guard lock(m_mutex);
  if (m_width == 0) return;
  std::fprintf(m_out, "\r%*s\r", static_cast<int>(m_width), "");
  std::fflush(m_out);
  m_width = 0;
}

ProgressFn ProgressLine::callback() {
  return [this](std::size_t done, std::size_t total) { update(done, total); };
}

}  // namespace icheck::exec
