#pragma once
// A worker's log as rows judge it (docs/knowledge.md `log.line`): one entry per line, each cut
// at 4 KiB and its secret shapes masked before any rule sees it, with the time it was written:
// the kubelet's RFC 3339 prefix (pods/log ?timestamps=true, kubectl logs --timestamps), else the
// line's own leading date, else none. Pure: text in, lines out.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

inline constexpr std::size_t kMaxLogLine = 4096;

struct LogLine {
  std::string time;  // "2026-12-03T10:00:01.123456789Z", "12-03 10:00:01", or ""
  std::string text;  // at most kMaxLogLine bytes (cut at a UTF-8 boundary), secrets masked
};

struct LogText {
  std::vector<LogLine> lines;
  std::size_t cut = 0;  // lines longer than kMaxLogLine (judged on their first 4 KiB)
};

// Untrusted text as a row may see it: secret shapes masked, then cut at kMaxLogLine bytes on a
// UTF-8 boundary (a cut secret would no longer look like one).
std::string judged_text(std::string_view text);

// `kubelet_times`: every line starts with the kubelet's timestamp and a blank (taken off the
// text); otherwise a leading date in the line is its time and stays in the text.
LogText parse_log(std::string_view text, bool kubelet_times);

}  // namespace icheck::probe
