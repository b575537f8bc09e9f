#include "exec/progress.hpp"

#include "outside/text.hpp"

#include <algorithm>
#include <sys/ioctl.h>
#include <unistd.h>
#include <utility>

namespace icheck::exec {
namespace {

std::size_t code_points(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::size_t terminal_columns(std::FILE* out) {
  winsize size{};
  if (out != nullptr && ::ioctl(::fileno(out), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  return 80;
}

}  // namespace

std::string waiting_line(const std::vector<std::string>& waiting, std::size_t total,
                         const std::string& noun, std::size_t width) {
  if (waiting.empty()) {
    return {};
  }
  std::string line = "waiting for " + std::to_string(waiting.size()) + " of " +
                     std::to_string(total) + " " + noun + ":";
  const std::string more = " ...";
  for (std::size_t i = 0; i < waiting.size(); ++i) {
    const std::string name =
        " " + outside::terminal_safe(waiting[i]) + (i + 1 < waiting.size() ? "," : "");
    const bool last = i + 1 == waiting.size();
    // A line that wraps cannot be rewritten in place: stop one column short of the edge.
    if (code_points(line) + code_points(name) + (last ? 0 : more.size()) >= width) {
      return line + more;
    }
    line += name;
  }
  return line;
}

ProgressLine::ProgressLine(std::FILE* out, std::string verb, std::string noun)
    : ProgressLine(out, std::move(verb), std::move(noun),
                   out != nullptr && ::isatty(::fileno(out)) == 1) {}

ProgressLine::ProgressLine(std::FILE* out, std::string verb, std::string noun, bool active)
    : m_out(out), m_verb(std::move(verb)), m_noun(std::move(noun)), m_active(active && out) {}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::draw(const std::string& text) {
  // Pad over a longer previous line so no stale characters remain.
  const std::size_t shown = code_points(text);
  const std::size_t pad = m_width > shown ? m_width - shown : 0;
  std::fprintf(m_out, "\r%s%*s", text.c_str(), static_cast<int>(pad), "");
  std::fflush(m_out);
  m_width = shown + pad;
}

std::string ProgressLine::waiting_text() const {
  std::vector<std::string> waiting;
  for (std::size_t i = 0; i < m_names.size(); ++i) {
    if (!m_finished[i])
      waiting.push_back(m_names[i]);
  }
  return waiting_line(waiting, m_names.size(), m_noun, m_columns);
}

void ProgressLine::update(std::size_t done, std::size_t total) {
  if (!m_active)
    return;
  std::lock_guard lock(m_mutex);
  if (!m_names.empty()) {
    draw(waiting_text());
    return;
  }
  draw(m_verb + " " + std::to_string(done) + "/" + std::to_string(total) + " " + m_noun);
}

void ProgressLine::name_jobs(std::vector<std::string> names, std::size_t width) {
  if (!m_active)
    return;
  std::lock_guard lock(m_mutex);
  m_names = std::move(names);
  m_finished.assign(m_names.size(), false);
  m_columns = width > 0 ? width : terminal_columns(m_out);
  draw(waiting_text());
}

void ProgressLine::finished(std::size_t index) {
  if (!m_active)
    return;
  std::lock_guard lock(m_mutex);
  if (index < m_finished.size())
    m_finished[index] = true;
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
