#include "exec/progress.hpp"

#include "outside/text.hpp"
#include "util/duration.hpp"

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

std::string clock_text(std::chrono::milliseconds elapsed, std::chrono::milliseconds bound) {
  const auto whole = std::chrono::duration_cast<std::chrono::seconds>(elapsed);
  const std::string shown = whole.count() > 0 ? format_duration(whole) : "0s";
  return shown + " of " + format_duration(bound) + " · ";
}

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
  if (!m_started || waiting.empty()) {
    return waiting_line(waiting, m_names.size(), m_noun, m_columns);
  }
  const std::string clock = clock_text(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::steady_clock::now() - *m_started),
                                       m_bound);
  const std::size_t used = code_points(clock);
  return clock +
         waiting_line(waiting, m_names.size(), m_noun, m_columns > used ? m_columns - used : 0);
}

void ProgressLine::start_clock(std::chrono::milliseconds bound) {
  if (!m_active)
    return;
  {
    std::lock_guard lock(m_mutex);
    m_started = std::chrono::steady_clock::now();
    m_bound = bound;
  }
  m_ticker = std::jthread([this](std::stop_token stop) { tick(stop); });
}

void ProgressLine::tick(std::stop_token stop) {
  std::unique_lock lock(m_mutex);
  while (!m_tick.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; })) {
    if (stop.stop_requested())
      return;
    if (!m_names.empty())
      draw(waiting_text());
  }
}

void ProgressLine::stop_clock() {
  if (m_ticker.joinable()) {
    m_ticker.request_stop();
    m_ticker.join();
  }
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
  stop_clock();  // before the lock: the clock's thread takes it to draw
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
