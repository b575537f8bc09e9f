#include "probe/logs/log_lines.hpp"

#include "outside/mask.hpp"

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

// A cursor over a line's head, for the fixed date shapes below (scanned by hand, in linear time:
// the text comes from outside).
struct Scan {
  std::string_view text;
  std::size_t at = 0;

  bool digit() const { return at < text.size() && text[at] >= '0' && text[at] <= '9'; }
  bool is(char ch) const { return at < text.size() && text[at] == ch; }
  bool take(char ch) {
    if (!is(ch))
      return false;
    ++at;
    return true;
  }
  bool digits(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i, ++at)
      if (!digit())
        return false;
    return true;
  }
  // One or more digits.
  bool some_digits() {
    if (!digit())
      return false;
    while (digit())
      ++at;
    return true;
  }
  // "HH:MM:SS" (two digits each).
  bool clock() { return digits(2) && take(':') && digits(2) && take(':') && digits(2); }
  // An optional fraction: one of `marks` followed by digits; nothing taken if no digit follows.
  void fraction(std::string_view marks) {
    if (at + 1 < text.size() && marks.find(text[at]) != std::string_view::npos) {
      Scan rest{text, at + 1};
      if (rest.some_digits())
        at = rest.at;
    }
  }
};

bool is_word(char ch) {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
         ch == '_';
}

bool is_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

// The kubelet's RFC 3339 time, the whole word: "2026-12-03T10:00:01.123456789Z", "...+02:00".
// Scanned by hand: a word of 60,000 digits sent std::regex's recursion off the stack (issue 41).
bool kubelet_time(std::string_view word) {
  Scan s{word};
  if (!(s.digits(4) && s.take('-') && s.digits(2) && s.take('-') && s.digits(2) && s.take('T') &&
        s.clock()))
    return false;
  if (s.take('.')) {  // RFC3339Nano: 1 to 9 digits (a longer run is not the kubelet's)
    const auto digits = s.at;
    while (s.digit() && s.at - digits < 10)
      ++s.at;
    if (s.at == digits || s.at - digits > 9)
      return false;
  }
  if (!s.take('Z')) {
    if (!(s.take('+') || s.take('-')))
      return false;
    if (!(s.digits(2) && s.take(':') && s.digits(2)))
      return false;
  }
  return s.at == word.size();
}

// "[2026-]12-03[ T]10:00:01[.,123][Z]" from `at`, after an optional "LEVEL " and "[".
std::string dated_from(std::string_view head, std::size_t at) {
  Scan s{head, at};
  if (s.at < head.size() && head[s.at] >= 'A' && head[s.at] <= 'Z') {
    Scan level = s;
    while (level.at < head.size() && head[level.at] >= 'A' && head[level.at] <= 'Z')
      ++level.at;
    if (level.at < head.size() && is_space(head[level.at])) {
      while (level.at < head.size() && is_space(head[level.at]))
        ++level.at;
      s = level;
    }
  }
  s.take('[');
  const auto begin = s.at;
  Scan year = s;
  if (year.digits(4) && year.take('-'))
    s = year;
  if (!(s.digits(2) && s.take('-') && s.digits(2) && (s.take(' ') || s.take('T')) && s.clock()))
    return {};
  s.fraction(".,");
  s.take('Z');
  return std::string(head.substr(begin, s.at - begin));
}

// vLLM and SGLang "INFO 12-03 10:00:01 [x.py:12]", "[2026-12-03 10:00:01] ...", Python logging
// "2026-12-03 10:00:01,123 - ...", glog "I1203 10:00:01.123456": the date near the start (up to
// two non-word characters before it), within the line's first 64 bytes.
std::string own_time(std::string_view line) {
  const auto head = line.substr(0, 64);
  std::size_t lead = 0;
  while (lead < 2 && lead < head.size() && !is_word(head[lead]))
    ++lead;
  for (std::size_t skip = lead + 1; skip-- > 0;)
    if (auto time = dated_from(head, skip); !time.empty())
      return time;
  Scan glog{head, 1};
  if (head.empty() || std::string_view("IWEF").find(head[0]) == std::string_view::npos)
    return {};
  if (!(glog.digits(4) && glog.take(' ') && glog.clock()))
    return {};
  glog.fraction(".");
  return std::string(head.substr(1, glog.at - 1));
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
