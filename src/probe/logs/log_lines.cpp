#include "probe/logs/log_lines.hpp"

#include "outside/mask.hpp"

#include <regex>

namespace icheck::probe {
namespace {

// The first bytes of `text` up to `most`, not splitting a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, std::size_t most) {
  if (text.size() <= most)
    return text;
  std::size_t end = most;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;
  return text.substr(0, end);
}

bool kubelet_time(std::string_view word) {
  static const std::regex rfc3339(
      R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))");
  return std::regex_match(word.begin(), word.end(), rfc3339);
}

// vLLM and SGLang "INFO 12-03 10:00:01 [x.py:12]", "[2026-12-03 10:00:01] ...", Python logging
// "2026-12-03 10:00:01,123 - ...", glog "I1203 10:00:01.123456": the date near the start.
std::string own_time(std::string_view line) {
  static const std::regex date(
      R"(^\W{0,2}(?:[A-Z]+\s+)?\[?((?:\d{4}-)?\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?Z?)|^[IWEF](\d{4} \d{2}:\d{2}:\d{2}(?:\.\d+)?))");
  const auto head = line.substr(0, 64);
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(head.begin(), head.end(), m, date))
    return {};
  return m[1].matched ? m[1].str() : m[2].str();
}

}  // namespace

std::string judged_text(std::string_view text) {
  return std::string(utf8_prefix(outside::mask_secrets(text), kMaxLogLine));
}

LogText parse_log(std::string_view text, bool kubelet_times) {
  LogText out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos)
      end = text.size();
    auto line = text.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    LogLine entry;
    if (kubelet_times) {
      const auto blank = line.find(' ');
      const auto word = line.substr(0, blank);
      if (kubelet_time(word)) {
        entry.time = std::string(word);
        line = blank == std::string_view::npos ? std::string_view() : line.substr(blank + 1);
      }
    }
    if (line.find_first_not_of(" \t") == std::string_view::npos)
      continue;
    if (line.size() > kMaxLogLine)
      ++out.cut;
    entry.text = judged_text(line);
    if (entry.time.empty())
      entry.time = own_time(entry.text);
    out.lines.push_back(std::move(entry));
  }
  return out;
}

}  // namespace icheck::probe
